import { expect, it } from 'vitest';
import { TransportError } from '../core/errors.js';
import {
  errorSummary,
  type LedgerRecord,
  type LedgerTransition,
  type SendIntent,
  verifyHistory,
} from './ledger.js';
import { openLedger } from './memory.js';

// docs/durable-send.md#duplicated: the `duplicate` transition and the terminal `duplicated` state.

const intent: SendIntent = {
  id: 'send-1',
  tenant: 'acme',
  run: 'run-1',
  agent: { cardDigest: `sha256:${'c'.repeat(64)}`, binding: 'JSONRPC', url: 'https://agent.example/a2a' },
  message: { messageId: 'surecall-send-send-1', role: 'ROLE_USER', parts: [{ text: 'book it' }] },
  delivery: 'at-most-once',
};

async function executing() {
  const ledger = await openLedger({ name: 'duplicate' });
  const prepared = await ledger.create(intent);
  const record = await ledger.transition(prepared.id, 0, {
    type: 'start',
    attemptId: 'attempt-1',
    messageId: 'surecall-attempt-attempt-1',
  });
  return { ledger, record };
}

it('takes a committed record to duplicated with the task ids, and nothing leaves duplicated', async () => {
  const { ledger, record } = await executing();
  const committed = await ledger.transition(record.id, record.revision, {
    type: 'commit',
    attemptId: 'attempt-1',
    result: { kind: 'task', taskId: 'task-2', contextId: 'ctx-1' },
  });
  const duplicated: LedgerRecord = await ledger.transition(committed.id, committed.revision, {
    type: 'duplicate',
    attemptId: 'attempt-1',
    taskIds: ['task-1', 'task-2'],
  });
  expect(duplicated.state).toEqual({
    status: 'duplicated',
    attemptId: 'attempt-1',
    taskIds: ['task-1', 'task-2'],
  });
  const after: LedgerTransition[] = [
    { type: 'reconcile-commit', attemptId: 'attempt-1', result: { kind: 'message' } },
    { type: 'duplicate', attemptId: 'attempt-1', taskIds: ['task-1', 'task-3'] },
    { type: 'start', attemptId: 'attempt-2', messageId: 'surecall-attempt-attempt-2' },
  ];
  for (const transition of after) {
    await expect(ledger.transition(duplicated.id, duplicated.revision, transition)).rejects.toMatchObject({
      reason: 'invalid-transition',
      rule: `${transition.type}-from-duplicated`,
    });
  }
  const verified = await verifyHistory(await ledger.history(duplicated.id));
  expect(verified).toMatchObject({ ok: true, record: { state: { status: 'duplicated' } } });
});

it('takes an unknown record to duplicated, bound to the original attempt', async () => {
  const { ledger, record } = await executing();
  const unknown = await ledger.transition(record.id, record.revision, {
    type: 'unknown',
    attemptId: 'attempt-1',
    reason: 'ambiguous-outcome',
    cause: errorSummary(new TransportError('network', { dispatched: true })),
  });
  await expect(
    ledger.transition(unknown.id, unknown.revision, {
      type: 'duplicate',
      attemptId: 'attempt-9',
      taskIds: ['task-1', 'task-2'],
    }),
  ).rejects.toMatchObject({ reason: 'invalid-transition', rule: 'attempt-mismatch' });
  const duplicated = await ledger.transition(unknown.id, unknown.revision, {
    type: 'duplicate',
    attemptId: 'attempt-1',
    taskIds: ['task-1', 'task-2', 'task-3'],
  });
  expect(duplicated.state.status).toBe('duplicated');
});

it.each<[string, readonly string[], string]>([
  ['one task', ['task-1'], 'task-count'],
  ['seventeen tasks', Array.from({ length: 17 }, (_, index) => `task-${index}`), 'task-count'],
  ['a task named twice', ['task-1', 'task-1'], 'task-repeated'],
])('refuses a duplicate naming %s, writing nothing', async (_name, taskIds, rule) => {
  const { ledger, record } = await executing();
  await expect(
    ledger.transition(record.id, record.revision, {
      type: 'duplicate',
      attemptId: 'attempt-1',
      taskIds: [...taskIds],
    }),
  ).rejects.toMatchObject({ reason: 'invalid-input', rule });
  expect((await ledger.get(record.id))?.revision).toBe(record.revision);
});

it('refuses a duplicate of an executing record: only a scan after the outcome can find one', async () => {
  const { ledger, record } = await executing();
  await expect(
    ledger.transition(record.id, record.revision, {
      type: 'duplicate',
      attemptId: 'attempt-1',
      taskIds: ['task-1', 'task-2'],
    }),
  ).rejects.toMatchObject({ reason: 'invalid-transition', rule: 'duplicate-from-executing' });
});
