import { LedgerError } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger/memory';
import { describe, expect, it } from 'vitest';
import { intentOf, lostSend, reconciledSend } from './ledger-fixtures.js';
import {
  describeError,
  describeRefusal,
  duplicatedSends,
  inbox,
  isDuplicated,
  ownerNote,
  reconcileReport,
  sendRow,
  timeline,
  traceIdOf,
  withRecord,
} from './sends.js';

describe('timeline: a send’s history as steps with their causes', () => {
  it('shows executing → unknown → committed for a lost answer found by reconciliation', async () => {
    const ledger = await openLedger({ name: 'sends' });
    await reconciledSend(ledger, 'send-1');
    const steps = timeline(await ledger.history('send-1'));
    expect(steps.map((step) => [step.status, step.cause])).toEqual([
      ['prepared', 'create'],
      ['executing', 'start'],
      ['unknown', 'unknown'],
      ['committed', 'reconcile-commit'],
    ]);
    expect(steps[2]?.detail).toBe('ambiguous-outcome: TransportError (transport/network, dispatched)');
    expect(steps[3]?.detail).toBe('task task-send-1');
    expect(steps[0]?.detail).toBe('at-most-once');
  });

  it('shows a pending step with its next probe time, and the key of a keyed send', async () => {
    const ledger = await openLedger({ name: 'sends' });
    const unknown = await lostSend(ledger, 'send-2', true);
    const notBefore = Date.now() + 2000;
    await ledger.transition('send-2', unknown.revision, {
      type: 'pending',
      attemptId: 'attempt-send-2',
      notBefore,
    });
    const steps = timeline(await ledger.history('send-2'));
    expect(steps.at(-1)).toMatchObject({
      status: 'pending',
      detail: `next probe not before ${new Date(notBefore).toISOString().slice(11, 23)}`,
    });
    expect(steps[0]?.detail).toBe('keyed, key key-send-2-0123456789');
  });
});

describe('a send that ran twice (docs/durable-send.md#duplicated)', () => {
  it('shows the duplicate step and row, and raises it among the duplicated sends', async () => {
    const ledger = await openLedger({ name: 'sends' });
    const unknown = await lostSend(ledger, 'send-3');
    const duplicated = await ledger.transition('send-3', unknown.revision, {
      type: 'duplicate',
      attemptId: 'attempt-send-3',
      taskIds: ['task-a', 'task-b'],
    });
    const steps = timeline(await ledger.history('send-3'));
    expect(steps.at(-1)).toMatchObject({
      status: 'duplicated',
      cause: 'duplicate',
      detail: 'ran 2 times: tasks task-a, task-b',
    });
    expect(sendRow(duplicated, Date.now())).toMatchObject({
      status: 'duplicated',
      detail: 'ran 2 times: tasks task-a, task-b',
    });
    const committed = await reconciledSend(ledger, 'send-4');
    expect(duplicatedSends([committed, duplicated])).toEqual([
      {
        id: 'send-3',
        text: duplicated.message.parts.map((part) => ('text' in part ? part.text : '')).join(' '),
        taskIds: ['task-a', 'task-b'],
      },
    ]);
    expect(inbox([duplicated], Date.now())).toEqual([]);
  });
});

describe('sendRow', () => {
  it('gives the status the agent reports, the key, attempts, age and why the outcome is unknown', async () => {
    const ledger = await openLedger({ name: 'sends' });
    const record = await lostSend(ledger, 'send-3', true);
    const row = sendRow(record, record.createdAt + 1500);
    expect(row).toMatchObject({
      id: 'send-3',
      status: 'unknown',
      delivery: 'keyed',
      key: 'key-send-3-0123456789',
      attempts: 1,
      ageMs: 1500,
      text: 'task book it',
      detail: 'ambiguous-outcome: TransportError (transport/network, dispatched)',
    });
  });

  it('gives the trace id of a traced send (docs/tracing.md#durable-sends), and none for an untraced one', async () => {
    const ledger = await openLedger({ name: 'sends' });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const traced = await ledger.create({ ...intentOf('send-traced'), traceparent });
    expect(sendRow(traced, traced.createdAt).traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    const plain = await lostSend(ledger, 'send-plain');
    expect(sendRow(plain, plain.createdAt).traceId).toBeUndefined();
  });

  it.each([
    ['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', '4bf92f3577b34da6a3ce929d0e0e4736'],
    ['01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00', '4bf92f3577b34da6a3ce929d0e0e4736'],
    ['00-00000000000000000000000000000000-00f067aa0ba902b7-01', undefined],
    ['00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', undefined],
    ['00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01', undefined],
    ['a label, not a traceparent', undefined],
    [undefined, undefined],
  ])('traceIdOf(%j) is %j', (traceparent, traceId) => {
    expect(traceIdOf(traceparent)).toBe(traceId);
  });

  it('never shows a negative age for a clock that lags the record', async () => {
    const ledger = await openLedger({ name: 'sends' });
    const record = await lostSend(ledger, 'send-4');
    expect(sendRow(record, record.createdAt - 10).ageMs).toBe(0);
  });
});

describe('ownerNote: which tab holds a send (docs/durable-send.md#tabs)', () => {
  it('names this tab or another, sending an executing record and probing an unknown one, and nobody else', async () => {
    const ledger = await openLedger({ name: 'sends' });
    const lost = await lostSend(ledger, 'send-owner-1');
    const intent = intentOf('send-owner-2');
    const executing = await ledger.create(intent, {
      attemptId: 'a-owner-2',
      messageId: intent.message.messageId,
    });
    const other = { tab: '9c41d2e8a0b7', thisTab: false };
    expect(ownerNote(executing, other)).toBe('sent by tab 9c41d2…');
    expect(ownerNote(executing, { ...other, thisTab: true })).toBe('sent by this tab');
    expect(ownerNote(lost, other)).toBe('probed by tab 9c41d2…');
    expect(ownerNote(lost, undefined)).toBeUndefined();
    // A store no tabs share holds nobody.
    expect(await ledger.ownerOf('send-owner-2')).toBeUndefined();
  });
});

describe('reconcileReport: what a reconcile click left', () => {
  it.each([
    [['committed'], 'Reconciled 1: 1 committed'],
    [['committed', 'unknown', 'unknown'], 'Reconciled 3: 1 committed · 2 unknown'],
    [['unknown', 'unresolved', 'unknown'], 'Reconciled 3: 2 unknown · 1 unresolved'],
  ] as const)('%j reads %s', (statuses, line) => {
    expect(reconcileReport(statuses)).toBe(line);
  });
});

describe('withRecord', () => {
  it('keeps the later revision of a record whatever order changes arrive in, newest send first', async () => {
    const ledger = await openLedger({ name: 'sends' });
    const first = await lostSend(ledger, 'a');
    const later = await reconciledSend(ledger, 'b');
    const older = (await ledger.history('b'))[2];
    expect(older?.revision).toBe(2);
    let held = withRecord([], later);
    held = withRecord(held, first);
    // An older revision of b (heard late) does not replace the committed one.
    held = withRecord(held, { ...later, revision: 2 });
    expect(held.map((record) => [record.id, record.revision])).toEqual([
      ['b', 3],
      ['a', 2],
    ]);
  });
});

describe('inbox: the unknown outcomes', () => {
  it('holds only unknown records, due unless a probe is scheduled later or a person must decide', async () => {
    const ledger = await openLedger({ name: 'sends' });
    await reconciledSend(ledger, 'done');
    const now = Date.now();
    await lostSend(ledger, 'due');
    const later = await lostSend(ledger, 'later');
    await ledger.transition('later', later.revision, {
      type: 'pending',
      attemptId: 'attempt-later',
      notBefore: now + 60_000,
    });
    const person = await lostSend(ledger, 'person');
    await ledger.transition('person', person.revision, {
      type: 'unresolved',
      attemptId: 'attempt-person',
      reason: 'conflicting-evidence',
    });
    const entries = inbox(await ledger.list(), now + 1000);
    expect(entries.map((entry) => [entry.id, entry.status, entry.due])).toEqual([
      ['due', 'unknown', true],
      ['later', 'pending', false],
      ['person', 'unresolved', false],
    ]);
    expect(inbox(await ledger.list(), now + 61_000).find((entry) => entry.id === 'later')?.due).toBe(true);
  });
});

describe('describeError', () => {
  it.each([
    [
      { name: 'TransportError', kind: 'transport', reason: 'network', dispatched: false },
      'TransportError (transport/network, not dispatched)',
    ],
    [
      { name: 'HttpProtocolError', kind: 'http', reason: 'status', dispatched: true, httpStatus: 502 },
      'HttpProtocolError (http/status, dispatched, HTTP 502)',
    ],
    [
      { name: 'RemoteError', kind: 'remote', reason: 'a2a-error', dispatched: true, remoteCode: -32001 },
      'RemoteError (remote/a2a-error, dispatched, code -32001)',
    ],
  ])('%o → %s', (error, text) => {
    expect(describeError(error)).toBe(text);
  });
});

describe('isDuplicated', () => {
  it.each([
    [{ type: 'duplicated', id: 's-1', taskIds: ['t-1', 't-2'] }, true],
    [{ type: 'committed', id: 's-1' }, false],
    [{ type: 'duplicated-ish' }, false],
    [null, false],
    ['duplicated', false],
  ] as const)('%j → %s', (event, expected) => {
    expect(isDuplicated(event)).toBe(expected);
  });
});

describe('describeRefusal', () => {
  it('names the refusal’s reason and nothing else of the error', () => {
    expect(describeRefusal(new LedgerError('invalid-input'))).toBe(
      'The durable send was refused: invalid-input',
    );
    expect(describeRefusal(new Error('secret text'))).toBe('The durable send was refused: unexpectedly');
    expect(describeRefusal('thrown string')).toBe('The durable send was refused: unexpectedly');
  });
});
