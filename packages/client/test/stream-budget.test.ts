/**
What one caller's stream may spend across every resumption (docs/protocol-checks.md#stream-resumption,
"Budgets"): one event budget (`limits.sseEvents`), one byte budget (`limits.sseTotalBytes`),
`resume.totalAttempts` subscriptions and `resume.totalTimeMs` of resuming without progress, and only a new
state or artifact counts as progress. Each peer here is written by hand (`support/crafted-stream.ts`) to keep
a stream going for ever: it stops only at a budget, or, on code that has none, at the subscription the peer
finally refuses. Every wait runs on fake timers.
*/
import { jsonRpcPath, restPath } from '@surecall/mocks';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientEvent } from '../src/client/events.js';
import type { ProtocolBinding } from '../src/client/security.js';
import type { JsonObject } from '../src/protocol/json-value.js';
import { craft, type Piece } from './support/crafted-stream.js';
import {
  bindings,
  breaks,
  consume,
  mountAgent,
  record,
  server,
  userMessage,
} from './support/retry-agents.js';

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => vi.useRealTimers());
afterEach(() => {
  vi.useRealTimers();
  server.resetHandlers();
});
afterAll(() => server.close());

/**
Far more subscriptions than any budget allows: a peer refuses the next one, so code without a budget ends too.
*/
const patience = 300;

// The fake time a stream may take before a test gives up on it: far past every budget under test.
const fakeHour = 3_600_000;

function frameBytes(events: readonly ClientEvent[]): number {
  return events.reduce((sum, event) => sum + (event.type === 'stream-frame' ? event.wireBytes : 0), 0);
}

/** Answers GetTask on the agent's origin with `task`, over either binding. */
function answerGetTask(binding: ProtocolBinding, origin: string, task: JsonObject): void {
  server.use(
    binding === 'JSONRPC'
      ? http.post(`${origin}${jsonRpcPath}`, async ({ request }) => {
          const body = (await request.clone().json()) as { method?: string; id?: unknown };
          return body.method === 'GetTask'
            ? HttpResponse.json({ jsonrpc: '2.0', id: body.id, result: task })
            : undefined;
        })
      : http.get(`${origin}${restPath}/tasks/:id`, () => HttpResponse.json(task)),
  );
}

describe.each(bindings)('one budget across every resumption over %s', (binding) => {
  const ids = { id: 'task-b', contextId: 'context-b' };
  const taskAt = (state: string, timestamp?: string): JsonObject => ({
    task: {
      ...ids,
      status: timestamp === undefined ? { state } : { state, timestamp },
      artifacts: [{ artifactId: 'log', parts: [{ text: 'start ' }] }],
    },
  });
  const statusAt = (state: string, timestamp?: string): JsonObject => ({
    statusUpdate: {
      taskId: ids.id,
      contextId: ids.contextId,
      status: timestamp === undefined ? { state } : { state, timestamp },
    },
  });
  /** An append to the snapshot's artifact: new content every time, so each resumption makes progress. */
  const line: JsonObject = {
    artifactUpdate: {
      taskId: ids.id,
      contextId: ids.contextId,
      artifact: { artifactId: 'log', parts: [{ text: 'more ' }] },
      append: true,
      lastChunk: false,
    },
  };
  const upTo = (pieces: readonly Piece[]) => (n: number) => (n > patience ? 'refuse' : pieces);

  it('delivers no more events than `sseEvents` over all its connections, and ends with the rule one connection breaks', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding, { limits: { sseEvents: 21 } });
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_WORKING') },
      { event: line },
      { fail: true },
    ]);
    const subscriptions = craft(
      binding,
      mock.origin,
      'SubscribeToTask',
      upTo([{ event: taskAt('TASK_STATE_WORKING') }, { event: line }, { event: line }, { fail: true }]),
    );

    const { delivered, error } = await consume(
      client.sendStreamingMessage(
        { message: userMessage('budget') },
        { resume: { initialDelayMs: 0, totalAttempts: 1024 } },
      ),
      fakeHour,
    );

    // 2 events, then 3 for each resumption: the 22nd event, the second of the 7th resumption, is refused.
    expect(delivered).toHaveLength(21);
    expect(subscriptions()).toBe(7);
    expect(error).toMatchObject({
      kind: 'invalid-response',
      reason: 'sse',
      dispatched: true,
      violation: { rule: 'too-many-events' },
    });
  });

  it('delivers no more bytes than `sseTotalBytes` over all its connections, and ends with the rule one connection breaks', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding, {
      limits: { sseLineBytes: 1024, sseEventBytes: 1024, sseTotalBytes: 2048 },
    });
    const events = record(client);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_WORKING') },
      { event: line },
      { fail: true },
    ]);
    const subscriptions = craft(
      binding,
      mock.origin,
      'SubscribeToTask',
      upTo([{ event: taskAt('TASK_STATE_WORKING') }, { event: line }, { fail: true }]),
    );

    const { error } = await consume(
      client.sendStreamingMessage({ message: userMessage('budget') }, { resume: { initialDelayMs: 0 } }),
      fakeHour,
    );

    expect(frameBytes(events)).toBeLessThanOrEqual(2048);
    expect(subscriptions()).toBeLessThan(10);
    expect(error).toMatchObject({
      kind: 'invalid-response',
      reason: 'sse',
      dispatched: true,
      violation: { rule: 'stream-too-large', offset: 2048 },
    });
  });

  it('ends a resubscription that only ever sends keep-alive comments at its idle deadline', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding, { limits: { streamIdleTimeoutMs: 1000 } });
    const events = record(client);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_WORKING') },
      { fail: true },
    ]);
    // A minute of comments, every half second, and never an event: not even the snapshot.
    const keepAlive = Array.from({ length: 120 }, (): Piece[] => [{ waitMs: 500 }, { comment: true }]).flat();
    const subscriptions = craft(binding, mock.origin, 'SubscribeToTask', upTo(keepAlive));

    const { delivered, error, tookMs } = await consume(
      client.sendStreamingMessage({ message: userMessage('budget') }),
      fakeHour,
    );

    expect(delivered).toHaveLength(1);
    // Each subscription ends one idle time after it opened, comments or not; three attempts without progress,
    // then the stream fails.
    expect(error).toMatchObject({ kind: 'transport', reason: 'idle', dispatched: true });
    expect(subscriptions()).toBe(3);
    expect(breaks(events).map(({ reason }) => reason)).toEqual(['read', 'idle', 'idle', 'idle']);
    expect(tookMs).toBeLessThan(10_000);
  });

  it('ends a resumed stream that never makes progress at `totalTimeMs`, repeats and all', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_WORKING', '2026-01-01T00:00:02Z') },
      { fail: true },
    ]);
    // The snapshot, then for fifty seconds a repeat twice a second: events, so the idle bound never fires,
    // and never delivered.
    const repeats = Array.from({ length: 100 }, (): Piece[] => [
      { waitMs: 500 },
      { event: statusAt('TASK_STATE_SUBMITTED', '2026-01-01T00:00:01Z') },
    ]).flat();
    const subscriptions = craft(
      binding,
      mock.origin,
      'SubscribeToTask',
      upTo([{ event: taskAt('TASK_STATE_WORKING', '2026-01-01T00:00:02Z') }, ...repeats]),
    );

    const { delivered, error, tookMs } = await consume(
      client.sendStreamingMessage(
        { message: userMessage('budget') },
        { resume: { initialDelayMs: 0, totalTimeMs: 5000 } },
      ),
      fakeHour,
    );

    expect(delivered.map((event) => Object.keys(event)[0])).toEqual(['task', 'task']);
    // The stream fails with its break, five seconds after it.
    expect(error).toMatchObject({ kind: 'transport', reason: 'read', dispatched: true });
    expect(subscriptions()).toBe(1);
    expect(tookMs).toBeGreaterThanOrEqual(5000);
    expect(tookMs).toBeLessThan(6000);
    expect(breaks(events).at(-1)).toMatchObject({ reason: 'read', resumable: false });
  });

  it('stops a peer that ends every resumed stream after one identical update within `attempts`', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_WORKING') },
      { event: statusAt('TASK_STATE_WORKING') },
    ]);
    const subscriptions = craft(
      binding,
      mock.origin,
      'SubscribeToTask',
      upTo([{ event: taskAt('TASK_STATE_WORKING') }, { event: statusAt('TASK_STATE_WORKING') }]),
    );

    const { error } = await consume(
      client.sendStreamingMessage({ message: userMessage('budget') }, { resume: { initialDelayMs: 0 } }),
      fakeHour,
    );

    // The same state again is no progress: the three attempts of the first break are all it gets.
    expect(subscriptions()).toBe(3);
    expect(error).toMatchObject({
      kind: 'invalid-response',
      reason: 'lifecycle',
      violation: { rule: 'premature-end' },
    });
  });

  it('stops a peer that makes progress on every resumed stream, then ends it, at `totalAttempts`', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_WORKING') },
      { event: line },
    ]);
    const subscriptions = craft(
      binding,
      mock.origin,
      'SubscribeToTask',
      upTo([{ event: taskAt('TASK_STATE_WORKING') }, { event: line }]),
    );

    const { delivered, error } = await consume(
      client.sendStreamingMessage({ message: userMessage('budget') }, { resume: { initialDelayMs: 0 } }),
      fakeHour,
    );

    expect(subscriptions()).toBe(32);
    expect(delivered).toHaveLength(2 + 2 * 32);
    expect(error).toMatchObject({ reason: 'lifecycle', violation: { rule: 'premature-end' } });

    const fewer = mock.client(binding);
    const before = subscriptions();
    await consume(
      fewer.sendStreamingMessage(
        { message: userMessage('budget') },
        { resume: { initialDelayMs: 0, totalAttempts: 5 } },
      ),
      fakeHour,
    );
    expect(subscriptions() - before).toBe(5);
  });

  it('does not deliver a seam snapshot older than the status already delivered', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_SUBMITTED', '2026-01-01T00:00:01Z') },
      { event: statusAt('TASK_STATE_WORKING', '2026-01-01T00:00:03Z') },
      { fail: true },
    ]);
    craft(binding, mock.origin, 'SubscribeToTask', [
      { event: taskAt('TASK_STATE_SUBMITTED', '2026-01-01T00:00:02Z') },
      { event: statusAt('TASK_STATE_COMPLETED', '2026-01-01T00:00:04Z') },
    ]);

    const { delivered, error } = await consume(
      client.sendStreamingMessage({ message: userMessage('budget') }, { resume: { initialDelayMs: 0 } }),
      fakeHour,
    );

    expect(error).toBeUndefined();
    expect(delivered.map((event) => Object.keys(event)[0])).toEqual(['task', 'statusUpdate', 'statusUpdate']);
    expect(delivered.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('does not deliver a GetTask snapshot older than the status already delivered: the stream fails with its break', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_SUBMITTED', '2026-01-01T00:00:01Z') },
      { event: statusAt('TASK_STATE_WORKING', '2026-01-01T00:00:03Z') },
      { fail: true },
    ]);
    craft(binding, mock.origin, 'SubscribeToTask', 'refuse');
    answerGetTask(binding, mock.origin, {
      ...ids,
      status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:02Z' },
    });

    const { delivered, error } = await consume(
      client.sendStreamingMessage({ message: userMessage('budget') }, { resume: { initialDelayMs: 0 } }),
      fakeHour,
    );

    expect(delivered.map((event) => Object.keys(event)[0])).toEqual(['task', 'statusUpdate']);
    expect(error).toMatchObject({ kind: 'transport', reason: 'read', dispatched: true });
  });
});
