/**
Interop: the retry policy against the official `@a2a-js/sdk@1.3.0` server (`@surecall/mocks/sdk-agent`), a
foreign peer that has never heard of the idempotency extension. An MSW passthrough stands between them: it
forwards a request to the real server on its loopback port, lets the server answer in full, and then drops the
answer, so the work is done and the client sees a lost connection (docs/idempotency.md#what-the-tests-prove,
item 68). Over both bindings, a keyed send that fails this way is never retried, whatever its retry policy:
the card is the only evidence that a peer honours keys, and this card does not say so.
*/
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { bypass, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type A2aClient, createClient } from '../../src/client/client.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { newIdempotencyKey } from '../../src/idempotency/key.js';
import type { AgentCard } from '../../src/protocol/agent-card.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import { userMessage } from '../support/retry-agents.js';

type Binding = 'JSONRPC' | 'HTTP+JSON';

const proxy = setupServer();
let sdk: RunningSdkAgent;
let card: AgentCard;
let digest: string;
let forwarded = 0;

beforeAll(async () => {
  // The SDK logs each failed request it sees (console.error); the assertions are what matters.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  sdk = await startSdkAgent({ tickMs: 600_000 });
  // The retry loop and the other operations load with their first call (ARCHITECTURE.md#decisions, "Code
  // loads with its first use"): loaded here once, so compiling them on a busy machine never eats a case's
  // timeout.
  await import('../../src/deferred.js');
  proxy.listen({ onUnhandledFrame: 'bypass' });
  const raw = (await (await fetch(sdk.cardUrl)).json()) as JsonValue;
  card = parseAgentCard(raw);
  digest = await cardDigest(raw);
});
afterEach(() => {
  proxy.resetHandlers();
  forwarded = 0;
});
afterAll(async () => {
  proxy.close();
  await sdk.close();
  vi.restoreAllMocks();
});

/**
The next `count` requests to the SDK's interfaces are forwarded, answered in full by the server, then dropped.
*/
function dropAnswers(count: number): void {
  let left = count;
  proxy.use(
    http.all(`${sdk.origin}/a2a/*`, async ({ request }) => {
      forwarded += 1;
      if (left === 0) {
        return undefined;
      }
      left -= 1;
      const answer = await fetch(bypass(request));
      await answer.arrayBuffer();
      return HttpResponse.error();
    }),
  );
}

function clientFor(binding: Binding): A2aClient {
  return createClient({
    card,
    cardDigest: digest,
    pin: { binding, url: binding === 'JSONRPC' ? sdk.jsonRpcUrl : sdk.restUrl },
    security: { kind: 'anonymous' },
    // No wait between attempts: a wrong retry would come at once, and this suite has no timers to drive.
    retry: { initialBackoffMs: 0, maxBackoffMs: 0 },
  });
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('against the official SDK server over %s', (binding) => {
  it('its card does not advertise the extension', () => {
    expect(clientFor(binding).honoursIdempotency).toBe(false);
  });

  it('a keyed send whose answer is lost is never retried: one request, one task, an outcome left open', async () => {
    const client = clientFor(binding);
    const message = userMessage('task a b', newIdempotencyKey(), { contextId: crypto.randomUUID() });
    dropAnswers(1);

    const error = await client.sendMessage({ message }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect(error).toMatchObject({ kind: 'transport', reason: 'network', dispatched: true });
    expect(forwarded).toBe(1);
    // The SDK ran the send: a retry would have started a second task in this context.
    const page = await client.listTasks({ contextId: message.contextId ?? '' });
    expect(page.tasks).toHaveLength(1);
    expect(page.tasks[0]?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a keyed streaming send whose establishment is lost is never retried either', async () => {
    const client = clientFor(binding);
    const message = userMessage('task a', newIdempotencyKey(), { contextId: crypto.randomUUID() });
    dropAnswers(1);

    const error = await (async () => {
      for await (const event of client.sendStreamingMessage({ message })) {
        expect(event).toBeUndefined();
      }
    })().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect(error).toMatchObject({ kind: 'transport', dispatched: true });
    expect(forwarded).toBe(1);
  });

  it('the same policy does retry an idempotent read the server answered into the void', async () => {
    const client = clientFor(binding);
    const result = await client.sendMessage({ message: userMessage('task a') });
    const task = 'task' in result ? result.task : undefined;
    dropAnswers(1);

    const read = await client.getTask({ id: task?.id ?? '' });

    expect(read.id).toBe(task?.id);
    expect(forwarded).toBe(2);
  });
});
