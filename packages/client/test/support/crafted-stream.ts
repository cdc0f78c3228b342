/**
@module
Test support: SSE answers written by hand for what the mock agent never sends (keep-alive comments, silence,
repeats, a peer that never lets a task finish), answered through the MSW server of `retry-agents.ts` on a
mounted agent's origin, over either binding. docs/protocol-checks.md#stream-resumption is what the suites that
use it check.
*/
import { jsonRpcPath, restPath } from '@surecall/mocks';
import { HttpResponse, http } from 'msw';
import type { ProtocolBinding } from '../../src/client/security.js';
import type { JsonObject } from '../../src/protocol/json-value.js';
import { server } from './retry-agents.js';

/** One piece of a crafted body, sent with one read: an event, a comment, a wait, or a reset. */
export type Piece =
  | { readonly event: JsonObject }
  | { readonly comment: true }
  | { readonly waitMs: number }
  | { readonly fail: true };

/** The pieces of every answer, or of answer `n` (from 1), or `refuse` for a 500 that is not A2A. */
export type Answers = readonly Piece[] | 'refuse' | ((n: number) => readonly Piece[] | 'refuse');

/**
Answers `method` on the agent's origin with `answers`, one piece per read, or refuses it with a 500 that is
not A2A; everything else reaches the agent. Returns how many requests of `method` it has answered.

@example
```ts
const subscriptions = craft('JSONRPC', mock.origin, 'SubscribeToTask', (n) => (n > 300 ? 'refuse' : pieces));
```
*/
export function craft(
  binding: ProtocolBinding,
  origin: string,
  method: 'SendStreamingMessage' | 'SubscribeToTask',
  answers: Answers,
): () => number {
  let answered = 0;
  server.use(
    http.post(`${origin}/a2a/*`, async ({ request }) => {
      const path = new URL(request.url).pathname;
      let rpcId: unknown;
      if (path === jsonRpcPath) {
        const body = (await request.clone().json()) as { method?: string; id?: unknown };
        if (body.method !== method) {
          return undefined;
        }
        rpcId = body.id;
      } else if (
        !path.startsWith(restPath) ||
        !path.endsWith(method === 'SendStreamingMessage' ? '/message:stream' : ':subscribe')
      ) {
        return undefined;
      }
      answered += 1;
      const pieces = typeof answers === 'function' ? answers(answered) : answers;
      if (pieces === 'refuse') {
        // A peer that will not serve this operation, with an answer that is not A2A: a refusal, not a
        // transient failure.
        return new HttpResponse('not here', { status: 500, headers: { 'content-type': 'text/plain' } });
      }
      const encoder = new TextEncoder();
      const queue = [...pieces];
      // One piece per pull: an errored stream drops what is still queued, so a reset must come after the
      // events before it were taken.
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          for (let piece = queue.shift(); ; piece = queue.shift()) {
            if (piece === undefined) {
              controller.close();
              return;
            }
            if ('waitMs' in piece) {
              const { waitMs } = piece;
              await new Promise((resolve) => setTimeout(resolve, waitMs));
              continue;
            }
            if ('fail' in piece) {
              // A moment after the last bytes, as a reset arrives: the bytes already sent are read first.
              await new Promise((resolve) => setTimeout(resolve, 10));
              controller.error(new TypeError('connection reset'));
              return;
            }
            if ('comment' in piece) {
              controller.enqueue(encoder.encode(': keep-alive\n\n'));
              return;
            }
            const data =
              binding === 'JSONRPC' ? { jsonrpc: '2.0', id: rpcId, result: piece.event } : piece.event;
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(data)}\n\n`));
            return;
          }
        },
      });
      // Chunked, as a server streams it: MSW 3 otherwise frames the body by closing the connection, and the
      // reset above would read as a clean end (mocks/src/http/handlers.ts).
      return new HttpResponse(body, {
        headers: { 'content-type': 'text/event-stream', 'transfer-encoding': 'chunked' },
      });
    }),
  );
  return () => answered;
}
