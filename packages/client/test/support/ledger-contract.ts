/**
@module
The ledger's one contract suite (CONTRIBUTING.md#tests), whatever the stores it runs on: every transition of
the matrix, races, listing and subscribing, close and reopen, orphans turned unknown, `create` with a first
attempt, retention and claims. It imports no `node:` module and no store, so the same body runs in Node over
the stores of `ledger-stores.ts` (`src/ledger/ledger.test.ts`) and in Chromium over the real IndexedDB
(`test/ledger/idb.browser.test.ts`); each file hands it its stores and how to name a fresh ledger.
*/
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LedgerError, TransportError } from '../../src/core/errors.js';
import {
  attemptMessage,
  errorSummary,
  type Ledger,
  type LedgerChange,
  type LedgerRecord,
  type LedgerStatus,
  type LedgerTransition,
  type SendIntent,
  verifyHistory,
} from '../../src/ledger/ledger.js';
import { intent } from './intent.js';
import { rejectionOf } from './rejection.js';

/** A store under the contract: its name (which a few cases read) and how to open one of its ledgers. */
export type Backend = {
  readonly name: 'memory' | 'idb' | 'idb, two tabs' | 'file' | 'postgres';
  readonly openLedger: (options: { name: string; retentionMs?: number }) => Promise<Ledger>;
  /**
  The store's own housekeeping that retention waits for, when it does not prune as it writes (the file store's
  compaction).
  */
  readonly compact?: (ledger: Ledger) => Promise<unknown>;
};

export const cause = errorSummary(new TransportError('network', { dispatched: true }));
const notStartedCause = errorSummary(new TransportError('network', { dispatched: false }));

export const task = { kind: 'task', taskId: 'task-1', contextId: 'ctx-1' } as const;

function attemptOf(record: LedgerRecord): string {
  return record.state.status === 'prepared' ? 'none' : (record.state.attemptId ?? 'none');
}

/**
A transition of `type` that names the right attempt and is well-formed, so only the state decides whether it
is legal.
*/
export function transitionOf(type: LedgerTransition['type'], record: LedgerRecord): LedgerTransition {
  const attemptId = attemptOf(record);
  switch (type) {
    case 'start':
      return {
        type,
        attemptId: `a${record.attempts.length + 1}-${record.id}`,
        messageId: `m${record.attempts.length + 1}-${record.id}`,
      };
    case 'commit':
    case 'reconcile-commit':
      return { type, attemptId, result: task };
    case 'fail':
      return record.state.status === 'prepared'
        ? { type, cause: notStartedCause, effect: 'not-started' }
        : { type, attemptId, cause, effect: 'not-applied' };
    case 'unknown':
      return { type, attemptId, cause, reason: 'ambiguous-outcome' };
    case 'pending':
      return { type, attemptId, notBefore: Date.now() + 1000 };
    case 'unresolved':
      return { type, attemptId, reason: 'no-evidence' };
    case 'reconcile-fail':
      return { type, attemptId, cause, effect: 'not-applied' };
    case 'duplicate':
      return { type, attemptId, taskIds: ['task-1', 'task-2'] };
  }
}

/** Drives a fresh record into `status` through legal transitions only. */
export async function recordIn(
  ledger: Ledger,
  status: LedgerStatus | 'unresolved',
  id: string,
): Promise<LedgerRecord> {
  let record = await ledger.create(intent(id));
  const step = async (type: LedgerTransition['type']) => {
    record = await ledger.transition(record.id, record.revision, transitionOf(type, record));
  };
  if (status === 'prepared') {
    return record;
  }
  await step('start');
  if (status === 'committed') {
    await step('commit');
  } else if (status === 'failed') {
    await step('fail');
  } else if (status === 'unknown' || status === 'unresolved') {
    await step('unknown');
    if (status === 'unresolved') {
      await step('unresolved');
    }
  } else if (status === 'duplicated') {
    await step('commit');
    await step('duplicate');
  }
  return record;
}

const types: readonly LedgerTransition['type'][] = [
  'start',
  'commit',
  'fail',
  'unknown',
  'pending',
  'unresolved',
  'reconcile-commit',
  'reconcile-fail',
  'duplicate',
];

// docs/durable-send.md#transitions, as this ledger keeps it: every legal move, by the state it starts from.
const legal: Readonly<
  Record<LedgerStatus | 'unresolved', Readonly<Partial<Record<LedgerTransition['type'], LedgerStatus>>>>
> = {
  prepared: { start: 'executing', fail: 'failed' },
  executing: { commit: 'committed', fail: 'failed', unknown: 'unknown' },
  committed: { duplicate: 'duplicated' },
  failed: {},
  unknown: {
    pending: 'unknown',
    unresolved: 'unknown',
    'reconcile-commit': 'committed',
    'reconcile-fail': 'failed',
    duplicate: 'duplicated',
  },
  unresolved: { 'reconcile-commit': 'committed', 'reconcile-fail': 'failed', duplicate: 'duplicated' },
  duplicated: {},
};

const matrix = (Object.keys(legal) as (keyof typeof legal)[]).flatMap((from) =>
  types.map((type) => ({ from, type, to: legal[from][type] })),
);

function expectedRule(from: keyof typeof legal, type: LedgerTransition['type']): string {
  if (from === 'failed' && type === 'start') {
    return 'retry-not-authorized';
  }
  if (from === 'unresolved') {
    return type === 'pending' || type === 'unresolved' ? 'unresolved' : `${type}-from-unknown`;
  }
  return `${type}-from-${from}`;
}

export function refusal(promise: Promise<unknown>): Promise<LedgerError> {
  return rejectionOf(promise, LedgerError);
}

/**
The contract over `backends`. `freshName` gives a name no other test uses (a database name, a journal path,
a schema's seed); the same name reopens the same ledger.
*/
export function ledgerContract(backends: readonly Backend[], freshName: (backend: Backend) => string): void {
  const durableBackends = backends.filter((backend) => backend.name !== 'memory');

  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(backends)('refuses an empty name for the $name ledger', async (backend) => {
    expect(await refusal(backend.openLedger({ name: '' }))).toMatchObject({
      reason: 'invalid-input',
      rule: 'name',
    });
  });

  describe.each(backends)('the $name ledger', (backend) => {
    let ledger: Ledger;
    beforeAll(async () => {
      ledger = await backend.openLedger({ name: freshName(backend) });
    });
    afterAll(async () => {
      await ledger.close();
    });

    it('commits an intent as a frozen prepared record at revision 0 with a one-revision history', async () => {
      const record = await ledger.create(intent('create-1'));
      expect(record).toMatchObject({
        id: 'create-1',
        revision: 0,
        state: { status: 'prepared' },
        attempts: [],
      });
      expect(record.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(Object.isFrozen(record) && Object.isFrozen(record.message.parts)).toBe(true);
      expect(await ledger.get('create-1')).toEqual(record);
      const history = await ledger.history('create-1');
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ id: 'create-1', revision: 0, transition: { type: 'create' } });
      expect(history[0]?.transition).not.toHaveProperty('expectedRevision');
      expect(await ledger.get('absent')).toBeUndefined();
      expect(await ledger.history('absent')).toEqual([]);
    });

    it.each(matrix)('$from + $type → $to', async ({ from, type, to }) => {
      const record = await recordIn(ledger, from, `matrix-${from}-${type}`);
      const transition = transitionOf(type, record);
      if (to === undefined) {
        const error = await refusal(ledger.transition(record.id, record.revision, transition));
        expect(error.reason).toBe('invalid-transition');
        expect(error.rule).toBe(expectedRule(from, type));
        expect(await ledger.get(record.id)).toEqual(record);
        return;
      }
      const next = await ledger.transition(record.id, record.revision, transition);
      expect(next.state.status).toBe(to);
      expect(next.revision).toBe(record.revision + 1);
      const history = await ledger.history(record.id);
      expect(history.at(-1)).toMatchObject({
        revision: next.revision,
        expectedRevision: record.revision,
        transition,
      });
      const verified = await verifyHistory(history);
      expect(verified).toEqual({ ok: true, record: next });
    });

    it.each(['at-most-once', 'keyed', 'message-id-deduplicated'] as const)(
      'never lets an unknown %s send start a new attempt, not even after a probe',
      async (delivery) => {
        let record = await ledger.create(intent(`unknown-${delivery}`, delivery));
        record = await ledger.transition(record.id, 0, {
          type: 'start',
          attemptId: 'a1',
          messageId: record.message.messageId,
        });
        record = await ledger.transition(record.id, 1, {
          type: 'unknown',
          attemptId: 'a1',
          cause,
          reason: 'ambiguous-outcome',
        });
        record = await ledger.transition(record.id, 2, {
          type: 'pending',
          attemptId: 'a1',
          notBefore: Date.now() + 500,
        });
        const error = await refusal(
          ledger.transition(record.id, 3, {
            type: 'start',
            attemptId: 'a2',
            messageId: record.message.messageId,
          }),
        );
        expect(error).toMatchObject({ reason: 'invalid-transition', rule: 'start-from-unknown' });
        expect((await ledger.get(record.id))?.attempts).toHaveLength(1);
      },
    );

    it('binds results, errors and reconciliations to the current attempt', async () => {
      const executing = await recordIn(ledger, 'executing', 'bind-1');
      const wrong = { type: 'commit', attemptId: 'another', result: task } as const;
      expect(await refusal(ledger.transition('bind-1', executing.revision, wrong))).toMatchObject({
        reason: 'invalid-transition',
        rule: 'attempt-mismatch',
      });
      const unknown = await recordIn(ledger, 'unknown', 'bind-2');
      const reconcile = { type: 'reconcile-commit', attemptId: 'another', result: task } as const;
      expect(await refusal(ledger.transition('bind-2', unknown.revision, reconcile))).toMatchObject({
        rule: 'attempt-mismatch',
      });
    });

    it.each([
      ['a prepared send fails only as not-started', { type: 'fail', cause, effect: 'not-applied' }, 'effect'],
      [
        'a prepared send has no attempt to name',
        { type: 'fail', attemptId: 'a1', cause, effect: 'not-started' },
        'attempt-mismatch',
      ],
    ] as const)('%s', async (_, transition, rule) => {
      const record = await ledger.create(intent(`prepared-${rule}`));
      expect(await refusal(ledger.transition(record.id, 0, transition))).toMatchObject({
        reason: 'invalid-transition',
        rule,
      });
    });

    it('refuses a stale expected revision and lets exactly one of two racing writers win', async () => {
      const record = await recordIn(ledger, 'executing', 'stale-1');
      const commit = transitionOf('commit', record);
      expect(await refusal(ledger.transition(record.id, record.revision - 1, commit))).toMatchObject({
        reason: 'stale-revision',
      });
      const results = await Promise.allSettled([
        ledger.transition(record.id, record.revision, commit),
        ledger.transition(record.id, record.revision, transitionOf('unknown', record)),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const loser = results.find((result) => result.status === 'rejected');
      expect(loser?.status === 'rejected' && loser.reason).toMatchObject({ reason: 'stale-revision' });
      expect(await ledger.history(record.id)).toHaveLength(record.revision + 2);
      expect(await refusal(ledger.create(intent('stale-1')))).toMatchObject({
        reason: 'stale-revision',
        rule: 'exists',
      });
      expect(await refusal(ledger.transition('absent', 0, commit))).toMatchObject({ reason: 'not-found' });
    });

    it('retries a failure only with retryAfterMs, after the delay, with a fresh attempt id and messageId', async () => {
      // Ahead of every revision written so far: the ledger's clock never runs backwards.
      const start = Date.now() + 86_400_000;
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(start);
      const executing = await recordIn(ledger, 'executing', 'retry-1');
      const failed = await ledger.transition('retry-1', executing.revision, {
        type: 'fail',
        attemptId: attemptOf(executing),
        cause: notStartedCause,
        effect: 'not-started',
        retryAfterMs: 250,
      });
      const again = (attemptId: string, messageId: string) =>
        ledger.transition('retry-1', failed.revision, { type: 'start', attemptId, messageId });
      expect(await refusal(again('a2', 'm2'))).toMatchObject({ rule: 'retry-too-early' });
      vi.setSystemTime(start + 250);
      expect(await refusal(again(attemptOf(executing), 'm2'))).toMatchObject({ reason: 'reused-attempt' });
      expect(await refusal(again('a2', executing.attempts[0]?.messageId ?? ''))).toMatchObject({
        rule: 'message-id-reused',
      });
      const retried = await again('a2', 'm2');
      expect(retried.state).toEqual({ status: 'executing', attemptId: 'a2', messageId: 'm2' });
      expect(retried.attempts.map((attempt) => attempt.attemptId)).toEqual([attemptOf(executing), 'a2']);
      expect((await verifyHistory(await ledger.history('retry-1'))).ok).toBe(true);
    });

    it('keeps the messageId of a message-id-deduplicated send on every attempt', async () => {
      const record = await ledger.create(intent('dedup-1', 'message-id-deduplicated'));
      const start = { type: 'start', attemptId: 'a1', messageId: 'another' } as const;
      expect(await refusal(ledger.transition(record.id, 0, start))).toMatchObject({
        rule: 'message-id-mismatch',
      });
      const executing = await ledger.transition(record.id, 0, {
        ...start,
        messageId: 'm-dedup-1',
        contextId: 'ctx-opaque',
      });
      expect(attemptMessage(executing, 'a1')).toEqual({ ...record.message, contextId: 'ctx-opaque' });
      expect(attemptMessage(executing, 'a9')).toBeUndefined();
    });

    it('probes an unknown send no sooner than the last not-before time and within one hour', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 2 * 86_400_000);
      const unknown = await recordIn(ledger, 'unknown', 'probe-1');
      const attemptId = attemptOf(unknown);
      const now = Date.now();
      expect(
        await refusal(
          ledger.transition('probe-1', unknown.revision, {
            type: 'pending',
            attemptId,
            notBefore: now + 3_600_001,
          }),
        ),
      ).toMatchObject({ rule: 'pending-delay' });
      expect(
        await refusal(
          ledger.transition('probe-1', unknown.revision, { type: 'pending', attemptId, notBefore: now }),
        ),
      ).toMatchObject({ rule: 'pending-delay' });
      const first = await ledger.transition('probe-1', unknown.revision, {
        type: 'pending',
        attemptId,
        notBefore: now + 1000,
      });
      expect(first.state).toMatchObject({ status: 'unknown', pending: { notBefore: now + 1000, probes: 1 } });
      const second = { type: 'pending', attemptId, notBefore: now + 2000 } as const;
      expect(await refusal(ledger.transition('probe-1', first.revision, second))).toMatchObject({
        rule: 'not-before',
      });
      vi.setSystemTime(now + 1000);
      const probed = await ledger.transition('probe-1', first.revision, second);
      expect(probed.state).toMatchObject({ pending: { probes: 2 } });
      const given = await ledger.transition('probe-1', probed.revision, {
        type: 'unresolved',
        attemptId,
        reason: 'no-evidence',
      });
      expect(given.state).toMatchObject({
        status: 'unknown',
        reason: 'no-evidence',
        cause,
        pending: { probes: 2 },
      });
    });

    it('refuses malformed input without writing anything', async () => {
      const cases: [unknown, string][] = [
        [{ ...intent('bad-1'), delivery: 'keyed' }, 'idempotency-key'],
        [{ ...intent('bad-2'), idempotencyKey: 'key-0123456789abcdef' }, 'idempotency-key'],
        [{ ...intent('bad-3'), agent: { ...intent('bad-3').agent, cardDigest: 'sha256:abc' } }, 'digest'],
        [{ ...intent('bad-4'), message: { ...intent('bad-4').message, role: 'ROLE_AGENT' } }, 'role'],
        [
          { ...intent('bad-5'), message: { ...intent('bad-5').message, unknownMember: 1 } },
          'message-not-canonical',
        ],
        [{ ...intent('bad-6'), extra: true }, 'unrecognized_keys'],
        // A trace context is a bounded label (ledger/intent.ts): never a line break, never past 512 bytes.
        [{ ...intent('bad-8'), traceparent: '00-a\r\nauthorization: x' }, 'control-character'],
        [{ ...intent('bad-9'), traceparent: 'x', tracestate: 'k='.padEnd(513, 'v') }, 'max-bytes'],
      ];
      for (const [input, rule] of cases) {
        expect(await refusal(ledger.create(input as SendIntent))).toMatchObject({
          reason: 'invalid-input',
          rule,
        });
      }
      const record = await ledger.create(intent('bad-7'));
      const bogus = {
        type: 'start',
        attemptId: 'a1',
        messageId: 'm1',
        extra: 1,
      } as unknown as LedgerTransition;
      expect(await refusal(ledger.transition(record.id, 0, bogus))).toMatchObject({
        reason: 'invalid-input',
      });
      expect(await ledger.history(record.id)).toHaveLength(1);
      expect((await ledger.list()).map((listed) => listed.id)).not.toContain('bad-1');
    });

    it('drops undefined members, as JSON does, before validating and digesting', async () => {
      const record = await ledger.create({
        ...intent('undefined-1'),
        idempotencyKey: undefined,
      } as unknown as SendIntent);
      expect(record).not.toHaveProperty('idempotencyKey');
      const start = { type: 'start', attemptId: 'a1', messageId: 'm1', contextId: undefined };
      const next = await ledger.transition(record.id, 0, start as unknown as LedgerTransition);
      expect(next.state).toEqual({ status: 'executing', attemptId: 'a1', messageId: 'm1' });
      expect((await verifyHistory(await ledger.history(record.id))).ok).toBe(true);
    });
  });

  describe.each(backends)('the $name ledger, list and subscribe', (backend) => {
    it('lists records in creation order, by state', async () => {
      const ledger = await backend.openLedger({ name: freshName(backend) });
      const ids = ['list-a', 'list-b', 'list-c', 'list-d'];
      await recordIn(ledger, 'prepared', ids[0] as string);
      await recordIn(ledger, 'unknown', ids[1] as string);
      await recordIn(ledger, 'committed', ids[2] as string);
      await recordIn(ledger, 'unknown', ids[3] as string);
      expect((await ledger.list()).map((record) => record.id)).toEqual(ids);
      expect((await ledger.list({ states: ['unknown'] })).map((record) => record.id)).toEqual([
        'list-b',
        'list-d',
      ]);
      expect((await ledger.list({ states: ['prepared', 'committed'] })).map((record) => record.id)).toEqual([
        'list-a',
        'list-c',
      ]);
      expect(await ledger.list({ states: [] })).toEqual([]);
      await ledger.close();
    });

    it('lists in the order records were created, whatever their clocks say, and again after a reopen', async () => {
      const name = freshName(backend);
      const ledger = await backend.openLedger({ name });
      // Twelve records in one millisecond (`h-10` sorts before `h-9` as text), then two whose clock went
      // back.
      const ids = [...Array.from({ length: 12 }, (_, index) => `h-${index}`), 'late-b', 'late-a'];
      // Times near now: a reopen prunes settled records past the retention window.
      const now = Date.now();
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(now);
        for (const id of ids.slice(0, 12)) {
          await recordIn(ledger, id.endsWith('1') ? 'unknown' : 'committed', id);
        }
        vi.setSystemTime(now - 1000);
        await recordIn(ledger, 'committed', 'late-b');
        vi.setSystemTime(now - 2000);
        await recordIn(ledger, 'prepared', 'late-a');
      } finally {
        vi.useRealTimers();
      }
      const listed = async (from: Ledger, states?: LedgerStatus[]) =>
        (await from.list(states === undefined ? undefined : { states })).map((record) => record.id);
      expect(await listed(ledger)).toEqual(ids);
      expect(await listed(ledger, ['unknown'])).toEqual(['h-1', 'h-11']);
      expect(await listed(ledger, ['committed', 'prepared'])).toEqual(
        ids.filter((id) => id !== 'h-1' && id !== 'h-11'),
      );
      await ledger.close();
      if (backend.name !== 'memory') {
        const reopened = await backend.openLedger({ name });
        expect(await listed(reopened)).toEqual(ids);
        await reopened.close();
      }
    });

    it('tells every subscriber of each committed change, in order, and nothing of refused ones', async () => {
      const ledger = await backend.openLedger({ name: freshName(backend) });
      const seen: LedgerChange[] = [];
      const unsubscribe = ledger.subscribe((change) => seen.push(change));
      ledger.subscribe(() => {
        throw new Error('a broken listener');
      });
      const committed = await recordIn(ledger, 'committed', 'sub-1');
      await refusal(ledger.transition('sub-1', committed.revision, transitionOf('start', committed)));
      expect(
        seen.map((change) => [change.revision.revision, change.record.state.status, change.origin]),
      ).toEqual([
        [0, 'prepared', 'local'],
        [1, 'executing', 'local'],
        [2, 'committed', 'local'],
      ]);
      expect(seen.at(-1)?.record).toEqual(committed);
      expect(seen.map((change) => change.revision)).toEqual(await ledger.history('sub-1'));
      unsubscribe();
      await ledger.create(intent('sub-2'));
      expect(seen).toHaveLength(3);
      await ledger.close();
    });

    it('refuses every call once closed', async () => {
      const ledger = await backend.openLedger({ name: freshName(backend) });
      await ledger.close();
      await ledger.close();
      for (const call of [
        ledger.create(intent('closed-1')),
        ledger.get('closed-1'),
        ledger.list(),
        ledger.history('x'),
      ]) {
        expect(await refusal(call)).toMatchObject({ reason: 'closed' });
      }
    });
  });

  describe.each(durableBackends)('the $name ledger, across a close', (backend) => {
    it('keeps every record and its verified history', async () => {
      const name = freshName(backend);
      const first = await backend.openLedger({ name });
      const before = [
        await recordIn(first, 'committed', 'keep-1'),
        await recordIn(first, 'unresolved', 'keep-2'),
        await recordIn(first, 'failed', 'keep-3'),
        await recordIn(first, 'prepared', 'keep-4'),
      ];
      const histories = await Promise.all(before.map((record) => first.history(record.id)));
      await first.close();
      const second = await backend.openLedger({ name });
      expect(await second.list()).toEqual(before);
      for (const [index, record] of before.entries()) {
        const history = await second.history(record.id);
        expect(history).toEqual(histories[index]);
        expect(await verifyHistory(history)).toEqual({ ok: true, record });
      }
      await second.close();
    });

    it("keeps a send's trace context through its transitions and a reopen, beside a record written without one", async () => {
      const name = freshName(backend);
      const first = await backend.openLedger({ name });
      const context = {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
      };
      const traced = await first.create(
        { ...intent('trace-1'), ...context },
        { attemptId: 'a1', messageId: 'm-trace-1' },
      );
      const unknown = await first.transition(traced.id, traced.revision, {
        type: 'unknown',
        attemptId: 'a1',
        reason: 'ambiguous-outcome',
      });
      const plain = await first.create(intent('trace-2'));
      expect(unknown).toMatchObject(context);
      expect(plain).not.toHaveProperty('traceparent');
      expect(plain).not.toHaveProperty('tracestate');
      await first.close();
      const second = await backend.openLedger({ name });
      expect(await second.get('trace-1')).toEqual(unknown);
      expect(await second.get('trace-2')).toEqual(plain);
      const [created] = await second.history('trace-1');
      expect(created?.transition).toMatchObject({ type: 'create', intent: context });
      expect(await verifyHistory(await second.history('trace-1'))).toEqual({ ok: true, record: unknown });
      await second.close();
    });

    it('turns a record left executing into unknown (crashed-while-executing) on open, never into a new attempt', async () => {
      const name = freshName(backend);
      const first = await backend.openLedger({ name });
      const executing = await recordIn(first, 'executing', 'crash-1');
      await first.close();
      const second = await backend.openLedger({ name });
      const recovered = await second.get('crash-1');
      expect(recovered?.state).toEqual({
        status: 'unknown',
        attemptId: attemptOf(executing),
        reason: 'crashed-while-executing',
      });
      expect(recovered?.attempts).toEqual(executing.attempts);
      const history = await second.history('crash-1');
      expect(history.at(-1)).toMatchObject({
        revision: executing.revision + 1,
        transition: { type: 'unknown' },
      });
      expect((await verifyHistory(history)).ok).toBe(true);
      await second.close();
    });
  });

  describe.each(backends)('the $name ledger, create with a first attempt', (backend) => {
    it('commits prepared and executing in one write, announces both, and keeps the rules of create + start', async () => {
      const ledger = await backend.openLedger({ name: freshName(backend) });
      const changes: [number, LedgerStatus][] = [];
      ledger.subscribe((change) => changes.push([change.revision.revision, change.record.state.status]));
      const record = await ledger.create(intent('cs-1'), { attemptId: 'a-1', messageId: 'm-a-1' });
      expect(record).toMatchObject({ revision: 1, state: { status: 'executing', attemptId: 'a-1' } });
      expect(Object.isFrozen(record)).toBe(true);
      expect(changes).toEqual([
        [0, 'prepared'],
        [1, 'executing'],
      ]);
      const history = await ledger.history('cs-1');
      expect(history.map((revision) => revision.transition.type)).toEqual(['create', 'start']);
      expect(await verifyHistory(history)).toEqual({ ok: true, record });
      // The same refusals as two separate writes, and nothing is written when one applies.
      expect(
        await refusal(ledger.create(intent('cs-1'), { attemptId: 'a-2', messageId: 'm-a-2' })),
      ).toMatchObject({
        reason: 'stale-revision',
      });
      const deduplicated = { ...intent('cs-2'), delivery: 'message-id-deduplicated' } as const;
      expect(
        await refusal(ledger.create(deduplicated, { attemptId: 'a-3', messageId: 'other' })),
      ).toMatchObject({
        reason: 'invalid-transition',
        rule: 'message-id-mismatch',
      });
      expect(
        await refusal(ledger.create(intent('cs-3'), { attemptId: '', messageId: 'm' } as never)),
      ).toMatchObject({ reason: 'invalid-input' });
      expect(await ledger.get('cs-2')).toBeUndefined();
      expect(await ledger.get('cs-3')).toBeUndefined();
      await ledger.close();
    });
  });

  describe.each(backends)('the $name ledger, retention', (backend) => {
    it('drops settled records past the window and never an open one', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(10_000_000);
        const name = freshName(backend);
        const ledger = await backend.openLedger({ name, retentionMs: 1000 });
        const settled = await ledger.create(intent('r-old'), { attemptId: 'a-old', messageId: 'm-a-old' });
        await ledger.transition('r-old', settled.revision, {
          type: 'commit',
          attemptId: 'a-old',
          result: task,
        });
        await ledger.create(intent('r-open'));
        vi.setSystemTime(10_000_000 + 5000);
        // Enough writes for every store to prune as it goes (the file store prunes when it compacts; each of
        // two tabs after 256 writes of its own).
        const burst = backend.name === 'idb, two tabs' ? 520 : 260;
        await Promise.all(
          Array.from({ length: burst }, (_, index) => ledger.create(intent(`r-new-${index}`))),
        );
        await backend.compact?.(ledger);
        expect(await ledger.get('r-old')).toBeUndefined();
        expect(await ledger.history('r-old')).toEqual([]);
        expect((await ledger.get('r-open'))?.state.status).toBe('prepared');
        expect(await ledger.list()).toHaveLength(burst + 1);
        await ledger.close();
        if (backend.name !== 'memory') {
          const reopened = await backend.openLedger({ name, retentionMs: 1000 });
          expect(await reopened.get('r-old')).toBeUndefined();
          expect((await reopened.get('r-open'))?.state.status).toBe('prepared');
          await reopened.close();
        }
      } finally {
        vi.useRealTimers();
      }
    }, 30_000);

    it.each([0, -5, 2.5])('refuses a retention of %s', async (retentionMs) => {
      expect(await refusal(backend.openLedger({ name: freshName(backend), retentionMs }))).toMatchObject({
        reason: 'invalid-input',
        rule: 'retention',
      });
    });
  });

  describe.each(backends)('the $name ledger, claims for probes (docs/durable-send.md#leases)', (backend) => {
    it('claims each due record once, soonest first, until it moves or is released', async () => {
      const ledger = await backend.openLedger({ name: freshName(backend) });
      const unknown = await recordIn(ledger, 'unknown', 'claim-1');
      await recordIn(ledger, 'committed', 'claim-2');
      await recordIn(ledger, 'unresolved', 'claim-3');
      await recordIn(ledger, 'executing', 'claim-4');
      const later = await recordIn(ledger, 'unknown', 'claim-5');
      const waiting = await ledger.transition(later.id, later.revision, transitionOf('pending', later));
      const other = await recordIn(ledger, 'unknown', 'claim-6');
      expect((await ledger.claimDue({ limit: 1 })).map((record) => record.id)).toEqual([unknown.id]);
      expect(await ledger.claim(unknown.id)).toBeUndefined();
      expect(await ledger.claim(waiting.id)).toBeUndefined();
      expect((await ledger.claimDue({ exclude: [other.id] })).map((record) => record.id)).toEqual([]);
      expect((await ledger.claimDue()).map((record) => record.id)).toEqual([other.id]);
      expect(await ledger.claimDue()).toEqual([]);
      await ledger.release(unknown.id);
      const again = await ledger.claim(unknown.id);
      expect(again).toEqual(unknown);
      // A transition ends the claim: the record is due again only once its probe's not-before time passes.
      const pending = await ledger.transition(unknown.id, unknown.revision, transitionOf('pending', unknown));
      expect(await ledger.claimDue()).toEqual([]);
      expect(await ledger.claim(pending.id)).toBeUndefined();
      await ledger.close();
    });

    it('claims only the records of the agent, delivery and context asked for, and refuses a bad limit', async () => {
      const ledger = await backend.openLedger({ name: freshName(backend) });
      const mine = await recordIn(ledger, 'unknown', 'agent-1');
      const agent = mine.agent;
      expect(await ledger.claimDue({ agent: { ...agent, tenant: 'elsewhere' } })).toEqual([]);
      // A keyed replay cannot probe an at-most-once send, nor a scan an attempt that carried no recovery
      // context.
      expect(await ledger.claimDue({ delivery: ['keyed'] })).toEqual([]);
      expect(await ledger.claimDue({ contextual: true })).toEqual([]);
      expect((await ledger.claimDue({ agent })).map((record) => record.id)).toEqual([mine.id]);
      for (const limit of [0, 1025, 1.5]) {
        expect(await refusal(ledger.claimDue({ limit }))).toMatchObject({
          reason: 'invalid-input',
          rule: 'limit',
        });
      }
      await ledger.close();
    });
  });
}
