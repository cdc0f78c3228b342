import { keyErrorText } from '@surecall/client/idempotency';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  eventKinds,
  firstTask,
  jsonRpcBinding,
  keyedMessage,
  restBinding,
  resultOf,
  taskOf,
  userMessage,
} from '../../test/support/helpers.js';
import { type AgentOptions, createAgent, type MockAgent } from './agent.js';
import { createKeyIndex, type KeyClaim, type KeyOutcome } from './idempotency.js';
import type { Message } from './wire.js';

const key = 'run_8f14e45fceea167a';
const a = (count: number): string => 'a'.repeat(count);

describe('createKeyIndex', () => {
  const task = (taskId: string): KeyOutcome => ({ kind: 'task', taskId });

  it('claims a free key, replays it to the same message, refuses it to another', () => {
    const keys = createKeyIndex({ ttlMs: 1000, capPerTenant: 10, now: () => 0 });
    expect(keys.claim('', key, 'm-1', task('t-1')).kind).toBe('claimed');
    expect(keys.claim('', key, 'm-1', task('t-2'))).toEqual({ kind: 'replay', outcome: task('t-1') });
    expect(keys.claim('', key, 'm-2', task('t-3'))).toEqual({ kind: 'conflict' });
    expect(keys.claim('acme', key, 'm-2', task('t-4')).kind).toBe('claimed');
  });

  it('frees a released key, but a stale release never frees a newer claim', () => {
    let clock = 0;
    const keys = createKeyIndex({ ttlMs: 1000, capPerTenant: 10, now: () => clock });
    const first = keys.claim('', key, 'm-1', task('t-1'));
    if (first.kind !== 'claimed') {
      throw new Error('expected a claim');
    }
    first.release();
    expect(keys.claim('', key, 'm-2', task('t-2')).kind).toBe('claimed');
    clock = 1000;
    const third = keys.claim('', key, 'm-3', task('t-3'));
    expect(third.kind).toBe('claimed');
    first.release();
    expect(keys.claim('', key, 'm-3', task('t-9'))).toEqual({ kind: 'replay', outcome: task('t-3') });
  });

  it('expires a key ttlMs after its claim; a replay does not refresh it', () => {
    let clock = 0;
    const keys = createKeyIndex({ ttlMs: 1000, capPerTenant: 10, now: () => clock });
    keys.claim('', key, 'm-1', task('t-1'));
    clock = 999;
    expect(keys.claim('', key, 'm-1', task('t-2')).kind).toBe('replay');
    clock = 1000;
    expect(keys.claim('', key, 'm-1', task('t-3')).kind).toBe('claimed');
  });

  it('refuses a new key past the cap; replays and expired keys do not count', () => {
    let clock = 0;
    const keys = createKeyIndex({ ttlMs: 1000, capPerTenant: 2, now: () => clock });
    keys.claim('', `${key}1`, 'm-1', task('t-1'));
    clock = 500;
    keys.claim('', `${key}2`, 'm-2', task('t-2'));
    expect(keys.claim('', `${key}3`, 'm-3', task('t-3'))).toEqual({ kind: 'full' });
    expect(keys.claim('', `${key}1`, 'm-1', task('t-9')).kind).toBe('replay');
    expect(keys.claim('other', `${key}3`, 'm-3', task('t-3')).kind).toBe('claimed');
    clock = 1000;
    expect(keys.claim('', `${key}3`, 'm-3', task('t-3')).kind).toBe('claimed');
    expect(keys.size('')).toBe(2);
  });

  it('sweeps every expired key before refusing, even when the clock went backwards', () => {
    let clock = 5000;
    const keys = createKeyIndex({ ttlMs: 1000, capPerTenant: 2, now: () => clock });
    keys.claim('', `${key}1`, 'm-1', task('t-1'));
    clock = 0;
    keys.claim('', `${key}2`, 'm-2', task('t-2'));
    clock = 1500;
    // The first key (claimed at 5000) is not expired; the second (claimed at 0) is, though it sits behind it.
    expect(keys.claim('', `${key}3`, 'm-3', task('t-3')).kind).toBe('claimed');
  });

  it('answers like a model index for any sequence of claims (one winner per tenant and key)', () => {
    const claim = fc.record({
      tenant: fc.constantFrom('', 'acme'),
      key: fc.constantFrom(`${key}1`, `${key}2`, `${key}3`),
      messageId: fc.constantFrom('m-1', 'm-2', 'm-3'),
    });
    fc.assert(
      fc.property(fc.array(claim, { maxLength: 40 }), (claims) => {
        const keys = createKeyIndex({ ttlMs: 1000, capPerTenant: 100, now: () => 0 });
        const model = new Map<string, { messageId: string; outcome: KeyOutcome }>();
        claims.forEach((entry, index) => {
          const outcome = task(`t-${index}`);
          const answer: KeyClaim = keys.claim(entry.tenant, entry.key, entry.messageId, outcome);
          const held = model.get(JSON.stringify([entry.tenant, entry.key]));
          if (held === undefined) {
            expect(answer.kind).toBe('claimed');
            model.set(JSON.stringify([entry.tenant, entry.key]), { messageId: entry.messageId, outcome });
          } else if (held.messageId === entry.messageId) {
            expect(answer).toEqual({ kind: 'replay', outcome: held.outcome });
          } else {
            expect(answer).toEqual({ kind: 'conflict' });
          }
        });
      }),
    );
  });
});

describe('the agent’s keyed sends (docs/idempotency.md#server-semantics, docs/idempotency.md#what-the-tests-prove)', () => {
  const agents: MockAgent[] = [];
  const agentWith = (options: AgentOptions = {}): MockAgent => {
    const agent = createAgent({ stepMs: 0, ...options });
    agents.push(agent);
    return agent;
  };
  afterEach(() => {
    for (const agent of agents.splice(0)) {
      agent.close();
    }
    vi.useRealTimers();
  });

  const send = (agent: MockAgent, message: unknown, extra: Readonly<Record<string, unknown>> = {}) =>
    jsonRpcBinding.call(agent, 'SendMessage', { message, ...extra });

  it('runs the first send; an identical retry returns its task and runs nothing', async () => {
    const agent = agentWith();
    const message = keyedMessage('task a b', key);
    const first = taskOf(await send(agent, message));
    const retry = taskOf(await send(agent, message));
    expect(retry).toEqual(first);
    expect(agent.executions.of(message.messageId)).toBe(1);
  });

  it('a blocking retry of a running task waits for it like a blocking send', async () => {
    vi.useFakeTimers();
    const agent = agentWith({ stepMs: 10 });
    const message = keyedMessage('task a b c', key);
    const first = taskOf(await send(agent, message, { configuration: { returnImmediately: true } }));
    const retry = send(agent, message);
    await vi.advanceTimersByTimeAsync(100);
    const replayed = taskOf(await retry);
    expect(replayed.id).toBe(first.id);
    expect(replayed.status.state).toBe('TASK_STATE_COMPLETED');
    expect(agent.executions.total()).toBe(1);
  });

  it('a streaming retry of a running task: a Task snapshot, then the live events', async () => {
    vi.useFakeTimers();
    const agent = agentWith({ stepMs: 10 });
    const message = keyedMessage('task a b c', key);
    const first = taskOf(await send(agent, message, { configuration: { returnImmediately: true } }));
    await vi.advanceTimersByTimeAsync(25);
    const streaming = restBinding.stream(agent, 'SendStreamingMessage', { message });
    await vi.advanceTimersByTimeAsync(100);
    const events = await streaming;
    expect(eventKinds(events)).toEqual([
      'task:WORKING',
      'artifactUpdate',
      'artifactUpdate',
      'statusUpdate:COMPLETED',
    ]);
    expect(firstTask(events).id).toBe(first.id);
    expect(agent.executions.total()).toBe(1);
  });

  it('a streaming retry of a finished task is the snapshot alone; a blocking retry of a streamed send replays too', async () => {
    const agent = agentWith();
    const message = keyedMessage('task a', key);
    const streamed = await jsonRpcBinding.stream(agent, 'SendStreamingMessage', { message });
    const events = await jsonRpcBinding.stream(agent, 'SendStreamingMessage', { message });
    expect(eventKinds(events)).toEqual(['task:COMPLETED']);
    expect(firstTask(events).id).toBe(firstTask(streamed).id);
    expect(taskOf(await send(agent, message)).id).toBe(firstTask(streamed).id);
    expect(agent.executions.total()).toBe(1);
  });

  it('identity is the messageId, not the content', async () => {
    const agent = agentWith();
    const message = keyedMessage('task a', key);
    const first = taskOf(await send(agent, message));
    const edited = { ...message, parts: [{ text: 'task something else' }] };
    expect(taskOf(await send(agent, edited)).id).toBe(first.id);
    expect(agent.executions.total()).toBe(1);
  });

  it.each([jsonRpcBinding, restBinding])(
    '$name: the same key with another messageId is refused, "already held"',
    async (binding) => {
      const agent = agentWith();
      await binding.call(agent, 'SendMessage', { message: keyedMessage('task a', key) });
      const reused = await binding.call(agent, 'SendMessage', { message: keyedMessage('task a', key) });
      expect(reused).toMatchObject({
        ok: false,
        reason: 'INVALID_PARAMS',
        code: binding === restBinding ? 400 : -32602,
      });
      expect(reused.ok ? '' : reused.message).toContain('already held');
      expect(agent.executions.total()).toBe(1);
    },
  );

  it('keys are per tenant: the same key and message run once in each tenant', async () => {
    const agent = agentWith();
    const message = keyedMessage('task a', key);
    const inA = taskOf(await send(agent, message, { tenant: 'a' }));
    const inB = taskOf(await send(agent, message, { tenant: 'b' }));
    expect(inA.id).not.toBe(inB.id);
    expect(taskOf(await send(agent, message, { tenant: 'a' })).id).toBe(inA.id);
    expect(agent.executions.of(message.messageId, 'a')).toBe(1);
    expect(agent.executions.of(message.messageId, 'b')).toBe(1);
  });

  it('16 concurrent identical keyed sends run once and all answer the same task', async () => {
    const agent = agentWith();
    const message = keyedMessage('task a b', key);
    const results = await Promise.all(Array.from({ length: 16 }, () => send(agent, message)));
    const tasks = results.map(taskOf);
    expect(new Set(tasks.map((task) => task.id)).size).toBe(1);
    expect(tasks.every((task) => task.status.state === 'TASK_STATE_COMPLETED')).toBe(true);
    expect(agent.executions.of(message.messageId)).toBe(1);
  });

  it('a key outlives its task: the retry looks for ~250 ms, then answers TaskNotFound and runs nothing', async () => {
    vi.useFakeTimers();
    const agent = agentWith({ taskTtlMs: 60_000 });
    const message = keyedMessage('task a', key);
    const first = send(agent, message);
    await vi.advanceTimersByTimeAsync(10);
    const { id } = taskOf(await first);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await jsonRpcBinding.call(agent, 'GetTask', { id })).toMatchObject({
      ok: false,
      reason: 'TASK_NOT_FOUND',
    });
    let settled = false;
    const retry = send(agent, message).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(200);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(await retry).toMatchObject({ ok: false, reason: 'TASK_NOT_FOUND', code: -32001 });
    expect(agent.executions.total()).toBe(1);
  });

  it('a key is free again keyTtlMs after its claim, and a replay does not refresh it', async () => {
    let clock = 0;
    const agent = agentWith({ keyTtlMs: 1000, now: () => clock });
    const message = keyedMessage('task a', key);
    const first = taskOf(await send(agent, message));
    clock = 999;
    expect(taskOf(await send(agent, message)).id).toBe(first.id);
    clock = 1000;
    expect(taskOf(await send(agent, message)).id).not.toBe(first.id);
    expect(agent.executions.of(message.messageId)).toBe(2);
  });

  it.each([jsonRpcBinding, restBinding])(
    '$name: past keyCapPerTenant a new key is refused as unavailable and runs nothing',
    async (binding) => {
      const agent = agentWith({ keyCapPerTenant: 2 });
      const held = keyedMessage('task a', `${key}1`);
      await binding.call(agent, 'SendMessage', { message: held });
      await binding.call(agent, 'SendMessage', { message: keyedMessage('task a', `${key}2`) });
      const refused = await binding.call(agent, 'SendMessage', {
        message: keyedMessage('task a', `${key}3`),
      });
      if (binding === restBinding) {
        expect(refused).toMatchObject({ ok: false, status: 503, body: { error: { status: 'UNAVAILABLE' } } });
        expect(refused.response.headers.get('retry-after')).toBe('1');
      } else {
        expect(refused).toMatchObject({ ok: false, status: 200, code: -32603 });
      }
      expect(agent.executions.total()).toBe(2);
      expect(taskOf(await binding.call(agent, 'SendMessage', { message: held })).status.state).toBe(
        'TASK_STATE_COMPLETED',
      );
      await binding.call(agent, 'SendMessage', {
        tenant: 'other',
        message: keyedMessage('task a', `${key}3`),
      });
      await binding.call(agent, 'SendMessage', { message: userMessage('task unkeyed') });
      expect(agent.executions.total()).toBe(4);
    },
  );

  it('a key whose send failed before it ran is released', async () => {
    const agent = agentWith();
    const done = taskOf(await send(agent, userMessage('task a')));
    const refused = await send(agent, keyedMessage('more', key, { taskId: done.id }));
    expect(refused).toMatchObject({ ok: false, reason: 'UNSUPPORTED_OPERATION' });
    const fresh = keyedMessage('task b', key);
    expect(taskOf(await send(agent, fresh)).status.state).toBe('TASK_STATE_COMPLETED');
    expect(agent.executions.of(fresh.messageId)).toBe(1);
  });

  it('a request refused by validation claims nothing', async () => {
    const agent = agentWith();
    const invalid = keyedMessage('task a', key, { parts: [{ text: 'x', url: 'https://two.example/' }] });
    expect(await send(agent, invalid)).toMatchObject({ ok: false, reason: 'INVALID_PARAMS' });
    expect(taskOf(await send(agent, keyedMessage('task a', key))).status.state).toBe('TASK_STATE_COMPLETED');
  });

  it.each([
    ['TooShort', 'short'],
    ['TooLong', a(256)],
    ['InvalidCharacter', `${a(16)}/`],
    ['NotAString', 42],
  ] as const)('refuses a %s key with -32602 and its text', async (problem, value) => {
    const agent = agentWith();
    const message = userMessage('task a', { metadata: { 'a2a-rust.com/idempotency-key': value } });
    expect(await send(agent, message)).toMatchObject({
      ok: false,
      code: -32602,
      message: keyErrorText[problem],
    });
    expect(agent.executions.total()).toBe(0);
  });

  it('replays a direct reply: the same Message', async () => {
    const agent = agentWith();
    const message = keyedMessage('echo hi', key);
    const first = resultOf<{ message: Message }>(await send(agent, message));
    expect(resultOf(await send(agent, message))).toEqual(first);
    const streamed = await jsonRpcBinding.stream(agent, 'SendStreamingMessage', { message });
    expect(streamed).toEqual([first]);
    expect(agent.executions.total()).toBe(1);
  });

  it('replays a keyed follow-up to the task it continued', async () => {
    const agent = agentWith();
    const asking = taskOf(await send(agent, userMessage('input')));
    const answer = keyedMessage('Ada', key, { taskId: asking.id });
    const done = taskOf(await send(agent, answer));
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(taskOf(await send(agent, answer))).toEqual(done);
    expect(agent.executions.of(answer.messageId)).toBe(1);
  });

  describe('refusing mode', () => {
    it.each([jsonRpcBinding, restBinding])(
      '$name: a keyed send is UnsupportedOperation and runs nothing',
      async (binding) => {
        const agent = agentWith({ mode: 'refusing' });
        const refused = await binding.call(agent, 'SendMessage', { message: keyedMessage('task a', key) });
        expect(refused).toMatchObject({ ok: false, reason: 'UNSUPPORTED_OPERATION' });
        expect(refused.ok ? '' : refused.message).toContain('cannot honour');
        if (binding === jsonRpcBinding) {
          expect(refused).toMatchObject({ code: -32004 });
        }
        expect(agent.executions.total()).toBe(0);
      },
    );

    it('still refuses a malformed key as InvalidParams, and runs unkeyed sends', async () => {
      const agent = agentWith({ mode: 'refusing' });
      expect(await send(agent, keyedMessage('task a', 'short'))).toMatchObject({ code: -32602 });
      expect(taskOf(await send(agent, userMessage('task a'))).status.state).toBe('TASK_STATE_COMPLETED');
    });
  });

  describe('foreign mode', () => {
    it('ignores the key: a retry runs again', async () => {
      const agent = agentWith({ mode: 'foreign' });
      const message = keyedMessage('task a', key);
      const first = taskOf(await send(agent, message));
      const second = taskOf(await send(agent, message));
      expect(second.id).not.toBe(first.id);
      expect(agent.executions.of(message.messageId)).toBe(2);
    });

    it('ignores even a malformed key', async () => {
      const agent = agentWith({ mode: 'foreign' });
      expect(taskOf(await send(agent, keyedMessage('task a', 'short'))).status.state).toBe(
        'TASK_STATE_COMPLETED',
      );
    });
  });
});
