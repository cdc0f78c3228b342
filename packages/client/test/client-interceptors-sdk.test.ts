/**
`ClientOptions.interceptors` against the official `@a2a-js/sdk` server (mocks/src/sdk/agent.ts), over both
bindings (docs/protocol-checks.md#interceptors): what `before` adds reaches a real peer on a unary call and a
stream, and `after` sees the peer's own answer heads.
*/
import { startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../src/client/client.js';
import type { InterceptorAnswer } from '../src/client/options.js';
import { cardDigest } from '../src/discovery/digest.js';
import type { AgentCard } from '../src/protocol/agent-card.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import type { JsonValue } from '../src/protocol/json-value.js';
import type { Message } from '../src/protocol/message.js';

let sdk: Awaited<ReturnType<typeof startSdkAgent>>;
let card: AgentCard;
let digest: string;

beforeAll(async () => {
  // The SDK logs expected errors and its deliveries; the assertions are what matters.
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  sdk = await startSdkAgent({ tickMs: 600_000 });
  const raw = (await (await fetch(sdk.cardUrl)).json()) as JsonValue;
  card = parseAgentCard(raw);
  digest = await cardDigest(raw);
});
afterAll(async () => {
  await sdk.close();
  vi.restoreAllMocks();
});

function message(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)(
  'interceptors against the official SDK over %s',
  (binding) => {
    it('add their headers to what the peer receives and see its answers', async () => {
      const answers: InterceptorAnswer[] = [];
      const client = createClient({
        card,
        cardDigest: digest,
        pin: { binding, url: binding === 'JSONRPC' ? sdk.jsonRpcUrl : sdk.restUrl },
        security: { kind: 'anonymous' },
        interceptors: [
          { before: ({ callId }) => ({ 'x-request-id': `${binding}-${callId}` }) },
          { after: (answer) => void answers.push(answer) },
        ],
      });
      const from = sdk.received.length;
      await client.sendMessage({ message: message('echo hello') });
      for await (const _event of client.sendStreamingMessage({ message: message('echo streamed') })) {
        // Drained: the stream's request is what this test reads.
      }
      const received = sdk.received.slice(from);
      expect(received.map((request) => request.headers['x-request-id'])).toEqual([
        `${binding}-1`,
        `${binding}-2`,
      ]);
      expect(answers.map(({ operation, httpStatus }) => [operation, httpStatus])).toEqual([
        ['SendMessage', 200],
        ['SendStreamingMessage', 200],
      ]);
      expect(answers[1]?.headers['content-type']).toMatch(/^text\/event-stream/);
    });
  },
);
