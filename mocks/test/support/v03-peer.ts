/**
Plain v0.3 JSON-RPC calls to a mock agent in its v0.3 mode (`startMockAgent({ protocol: '0.3' })`), with
each answer read by the client's v0.3 mapping (packages/client/src/protocol/v03/answers.ts) and then decoded
by the v1.0 schemas, so the mock and the mapping are held to one reading of v0.3.
*/
import { expect } from 'vitest';
import { decode } from '../../../packages/client/src/protocol/decode.js';
import type { JsonValue } from '../../../packages/client/src/protocol/json-value.js';
import type { V03Mapping } from '../../../packages/client/src/protocol/v03/refusal.js';

let next = 0;

/** One v0.3 JSON-RPC request to `url`, with the v0.3 method and params as sent. */
export function v03Post(
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  next += 1;
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: next, method, ...(params === undefined ? {} : { params }) }),
    redirect: 'manual',
  });
}

/** A JSON-RPC answer's envelope, as sent. */
export type Envelope = {
  readonly jsonrpc: string;
  readonly id: unknown;
  readonly result?: JsonValue;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
};

/** One v0.3 call answered with a result: the `result` as sent. */
export async function v03Call(url: string, method: string, params?: unknown): Promise<JsonValue> {
  const response = await v03Post(url, method, params);
  expect(response.status).toBe(200);
  const envelope = (await response.json()) as Envelope;
  expect(envelope.error).toBeUndefined();
  return envelope.result ?? null;
}

/** One v0.3 call answered with an error: the envelope's `error` as sent. */
export async function v03Refusal(url: string, method: string, params?: unknown): Promise<Envelope['error']> {
  const envelope = (await (await v03Post(url, method, params)).json()) as Envelope;
  expect(envelope.result).toBeUndefined();
  return envelope.error;
}

/** The `data` of each SSE event in an event-stream body. */
export function sseData(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.split(/\r?\n/).some((line) => line.startsWith('data:')))
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    );
}

/** The events of one v0.3 stream, each `result` as sent, until the agent closes it. */
export async function v03Stream(url: string, method: string, params: unknown): Promise<JsonValue[]> {
  const response = await v03Post(url, method, params, { accept: 'text/event-stream' });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return sseData(await response.text()).map((data) => (JSON.parse(data) as Envelope).result ?? null);
}

/** A mapped answer decoded by a v1.0 schema: both steps must succeed. */
export function v1<T>(mapping: V03Mapping, schema: Parameters<typeof decode>[0]): T {
  expect(mapping).toMatchObject({ ok: true });
  const decoded = decode(schema, mapping.value);
  expect(decoded).toMatchObject({ ok: true });
  return (decoded as { value: T }).value;
}

/** A v0.3 user message with one text part, as a v0.3 client writes it. */
export function v03Message(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'message',
    messageId: crypto.randomUUID(),
    role: 'user',
    parts: [{ kind: 'text', text }],
    ...extra,
  };
}
