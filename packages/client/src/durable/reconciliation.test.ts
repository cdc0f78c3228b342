import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerRecord, LedgerState } from '../ledger/ledger.js';
import { applyTransition } from '../ledger/state-machine.js';
import { statusOf } from '../ledger/status.js';
import { probeKind, probeTransition } from './reconciliation.js';
import type { ProbeReport } from './recovery.js';

function recordIn(state: LedgerState, delivery: LedgerRecord['delivery'] = 'at-most-once'): LedgerRecord {
  return {
    id: 'send-1',
    tenant: 't',
    run: 'r',
    agent: { cardDigest: `sha256:${'c'.repeat(64)}`, binding: 'JSONRPC', url: 'https://agent.test/a2a' },
    message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] },
    delivery,
    ...(delivery === 'keyed' ? { idempotencyKey: 'k'.repeat(16) } : {}),
    state,
    attempts: [{ attemptId: 'a-1', messageId: 'm', startedAt: 0 }],
    revision: 2,
    digest: `sha256:${'0'.repeat(64)}`,
    createdAt: 0,
    updatedAt: 1_000,
  };
}

const unknown = (probes?: number): LedgerState => ({
  status: 'unknown',
  attemptId: 'a-1',
  reason: 'ambiguous-outcome',
  ...(probes === undefined ? {} : { pending: { notBefore: 500, probes } }),
});
const counts = { pagesScanned: 1, tasksExamined: 1, matches: 0 };
const cause = { name: 'TransportError', kind: 'transport', reason: 'network', dispatched: true };
const v03Refusal = {
  name: 'RequestError',
  kind: 'request',
  reason: 'invalid-params',
  dispatched: false,
  violation: { rule: 'no-list-tasks', path: '$' },
};
const otherRefusal = { ...v03Refusal, violation: { rule: 'page-size', path: '$.pageSize' } };
const scan = {
  kind: 'context-history',
  maxPages: 2,
  historyLength: 16,
  retryAfterMs: 250,
  maxProbes: 3,
  includeArtifacts: false,
} as const;

afterEach(() => {
  vi.useRealTimers();
});

describe('probeTransition (docs/durable-send.md#probe-failures, docs/durable-send.md#reconciling-an-unknown)', () => {
  it.each<[string, LedgerState, ProbeReport, unknown]>([
    [
      'a match commits under the original attempt',
      unknown(),
      {
        result: 'match',
        answer: {
          task: { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' }, history: [] },
        },
        ...counts,
        matches: 1,
      },
      {
        type: 'reconcile-commit',
        attemptId: 'a-1',
        result: { kind: 'task', taskId: 't-1', contextId: 'c-1' },
      },
    ],
    [
      'a conflict leaves it to a person, never as failed',
      unknown(),
      { result: 'conflict', rule: 'ambiguous-match', ...counts },
      { type: 'unresolved', attemptId: 'a-1', reason: 'conflicting-evidence' },
    ],
    [
      'a refusal leaves it to a person, with the cause',
      unknown(),
      { result: 'refused', rule: 'permission-denied', cause, ...counts },
      { type: 'unresolved', attemptId: 'a-1', reason: 'no-evidence', cause },
    ],
    [
      'a ListTasks the v0.3 binding refused before sending: no scan can run against a v0.3 peer',
      unknown(),
      {
        result: 'refused',
        rule: 'operation-unsupported',
        cause: v03Refusal,
        pagesScanned: 0,
        tasksExamined: 0,
        matches: 0,
      },
      { type: 'unresolved', attemptId: 'a-1', reason: 'no-list-tasks', cause: v03Refusal },
    ],
    [
      'another request refusal is no evidence, whatever its rule',
      unknown(),
      { result: 'refused', rule: 'operation-unsupported', cause: otherRefusal, ...counts },
      { type: 'unresolved', attemptId: 'a-1', reason: 'no-evidence', cause: otherRefusal },
    ],
    [
      'the first empty probe schedules the next',
      unknown(),
      { result: 'none', ...counts },
      { type: 'pending', attemptId: 'a-1', notBefore: 10_250 },
    ],
    [
      'a transient failure schedules the next too',
      unknown(1),
      { result: 'transient-error', rule: 'dependency-unavailable', cause, ...counts },
      { type: 'pending', attemptId: 'a-1', notBefore: 10_250 },
    ],
    [
      'the last allowed empty probe gives up: no evidence',
      unknown(2),
      { result: 'none', ...counts },
      { type: 'unresolved', attemptId: 'a-1', reason: 'no-evidence' },
    ],
  ])('%s', (_name, state, report, transition) => {
    vi.useFakeTimers({ toFake: ['Date'], now: 10_000 });
    expect(probeTransition(recordIn(state), scan, report)).toEqual(transition);
  });

  it('measures the delay from the record’s last write when the clock is behind it', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 100 });
    expect(probeTransition(recordIn(unknown()), scan, { result: 'none', ...counts })).toMatchObject({
      notBefore: 1_250,
    });
  });

  it('refuses a record that is not unknown', () => {
    expect(() =>
      probeTransition(recordIn({ status: 'prepared' }), scan, { result: 'none', ...counts }),
    ).toThrow(/probe-from-prepared/);
  });
});

describe('probeKind: a recovery probes only the records sent its way', () => {
  it.each<
    [
      string,
      Parameters<typeof probeKind>[0],
      LedgerRecord['delivery'],
      string | undefined,
      string | undefined,
    ]
  >([
    ['disabled', { kind: 'disabled' }, 'at-most-once', 'ctx', undefined],
    ['keyed, keyed record', { kind: 'keyed', retryAfterMs: 1, maxProbes: 1 }, 'keyed', undefined, 'keyed'],
    [
      'keyed, unkeyed record',
      { kind: 'keyed', retryAfterMs: 1, maxProbes: 1 },
      'at-most-once',
      undefined,
      undefined,
    ],
    ['scan, attempt with a recovery context', scan, 'at-most-once', 'ctx', 'context-history'],
    ['scan, attempt without one', scan, 'at-most-once', undefined, undefined],
    [
      'replay, deduplicated record',
      {
        kind: 'message-id-replay',
        attestation: { owner: 'o', evidence: 'e', retentionMs: 1 },
        retryAfterMs: 1,
        maxProbes: 1,
      },
      'message-id-deduplicated',
      undefined,
      'message-id-replay',
    ],
    [
      'replay, at-most-once record',
      {
        kind: 'message-id-replay',
        attestation: { owner: 'o', evidence: 'e', retentionMs: 1 },
        retryAfterMs: 1,
        maxProbes: 1,
      },
      'at-most-once',
      undefined,
      undefined,
    ],
  ])('%s', (_name, recovery, delivery, contextId, kind) => {
    expect(probeKind(recovery, recordIn(unknown(), delivery), contextId)).toBe(kind);
  });
});

describe("docs/durable-send.md#reconciling-an-unknown's table of probe results", () => {
  const page = readFileSync(new URL('../../../../docs/durable-send.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('\n## Reconciling an unknown\n'));
  const rows = section
    .slice(section.indexOf('| probe result'))
    .split('\n')
    .filter((_, index, lines) => lines.slice(0, index + 1).every((above) => above.startsWith('|')))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
  const reports: Readonly<Record<string, ProbeReport>> = {
    match: {
      result: 'match',
      answer: { task: { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' }, history: [] } },
      ...counts,
      matches: 1,
    },
    none: { result: 'none', ...counts },
    'transient-error': { result: 'transient-error', rule: 'dependency-unavailable', cause, ...counts },
    refused: { result: 'refused', rule: 'permission-denied', cause, ...counts },
    conflict: { result: 'conflict', rule: 'ambiguous-match', ...counts },
    duplicated: { result: 'duplicated', taskIds: ['t-1', 't-2'], ...counts, matches: 2 },
  };

  it('has a row for every probe result, each with its three cells', () => {
    expect(rows.length).toBe(6);
    for (const row of rows) {
      expect(row, row.join(' | ')).toHaveLength(3);
    }
    expect(new Set(rows.flatMap(([result = '']) => names(result)))).toEqual(
      new Set([...Object.keys(reports), 'maxProbes']),
    );
  });

  it('says what probeTransition writes and the status the ledger reports after it', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 10_000 });
    let previous: readonly string[] = [];
    for (const [result = '', transition = '', after = ''] of rows) {
      // "the same, on the `maxProbes`-th probe": the results of the row above, the last probe allowed.
      const last = result.startsWith('the same');
      const results = last ? previous : names(result);
      previous = results;
      const [type, ...rest] = names(transition);
      for (const name of results) {
        const report = reports[name];
        expect(report, name).toBeDefined();
        const record = recordIn(unknown(last ? scan.maxProbes - 1 : undefined));
        const written = probeTransition(record, scan, report as ProbeReport);
        expect(written.type, result).toBe(type);
        if (written.type === 'unresolved') {
          // The reason the cell names after the word "reason".
          expect(rest, result).toContain(written.reason);
        }
        const next = applyTransition(record, {
          id: record.id,
          revision: record.revision + 1,
          expectedRevision: record.revision,
          at: Date.now(),
          previousDigest: record.digest,
          transition: written,
          digest: `sha256:${'1'.repeat(64)}`,
        });
        expect(statusOf(next), result).toBe(names(after)[0]);
      }
    }
  });
});
