import type { DurableEvent } from '@surecall/client';
import { describe, expect, it } from 'vitest';
import { describeCounts, describeOutcome, type RecoverySpan, recoverySpans } from './recovery.js';

const start = (id: string, time = 1000): DurableEvent => ({
  type: 'probe-start',
  id,
  attemptId: `attempt-${id}`,
  recovery: 'context-history',
  time,
});
const page = (id: string, number: number, tasks: number, matches: number, next: boolean): DurableEvent => ({
  type: 'probe-page',
  id,
  page: number,
  tasksExamined: tasks,
  matches,
  nextPageToken: next,
  time: 1000 + number,
});
const probe = (
  id: string,
  result: 'match' | 'none' | 'conflict',
  counts: number[],
  rule?: 'scan-limit',
): DurableEvent => ({
  type: 'probe',
  id,
  attemptId: `attempt-${id}`,
  recovery: 'context-history',
  pagesScanned: counts[0] ?? 0,
  tasksExamined: counts[1] ?? 0,
  matches: counts[2] ?? 0,
  result,
  ...(rule === undefined ? {} : { rule }),
  startedAt: 1000,
  durationMs: 12,
});
const transition = (
  id: string,
  cause: 'reconcile-commit' | 'pending' | 'unresolved',
  extra = {},
): DurableEvent => ({
  type: 'transition',
  id,
  from: 'unknown',
  to: cause === 'reconcile-commit' ? 'committed' : 'unknown',
  cause,
  revision: 3,
  time: 1020,
  ...extra,
});

const fold = (events: readonly DurableEvent[]): RecoverySpan[] => events.reduce(recoverySpans, []);

describe('recoverySpans: each reconciliation as a span, a scan step by step', () => {
  it('opens on probe-start, adds each page as a step, closes with the probe, and ends committed', () => {
    const spans = fold([
      start('s1'),
      page('s1', 1, 100, 0, true),
      page('s1', 2, 3, 1, false),
      probe('s1', 'match', [2, 103, 1]),
      transition('s1', 'reconcile-commit'),
    ]);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({
      id: 's1',
      pagesScanned: 2,
      tasksExamined: 103,
      matches: 1,
      result: 'match',
      durationMs: 12,
      outcome: { kind: 'committed' },
    });
    expect(
      spans[0]?.steps.map((step) => [step.page, step.tasksExamined, step.matches, step.nextPageToken]),
    ).toEqual([
      [1, 100, 0, true],
      [2, 3, 1, false],
    ]);
    expect(describeOutcome(spans[0] as RecoverySpan)).toBe('committed');
  });

  it('shows a running span before the probe ends', () => {
    const spans = fold([start('s1'), page('s1', 1, 4, 0, true)]);
    expect(spans[0]).toMatchObject({ outcome: { kind: 'running' }, pagesScanned: 1, tasksExamined: 4 });
    expect(describeOutcome(spans[0] as RecoverySpan)).toBe('running');
  });

  it('names the pending time and the fail-closed reason with its rule', () => {
    const notBefore = Date.UTC(2030, 0, 1, 10, 0, 1);
    const spans = fold([
      start('p'),
      probe('p', 'none', [1, 0, 0]),
      transition('p', 'pending', { notBefore, reason: 'ambiguous-outcome' }),
      start('c'),
      probe('c', 'conflict', [4, 400, 0], 'scan-limit'),
      transition('c', 'unresolved', { reason: 'conflicting-evidence' }),
    ]);
    expect(spans.map(describeOutcome)).toEqual([
      'pending until 10:00:01.000',
      'unresolved: conflicting-evidence (scan-limit)',
    ]);
  });

  it('keeps one span per reconciliation of the same record, and ignores a transition no probe led to', () => {
    const spans = fold([
      transition('r', 'pending', { notBefore: 5 }),
      start('r'),
      probe('r', 'none', [1, 0, 0]),
      transition('r', 'pending', { notBefore: 5 }),
      start('r', 3000),
      page('r', 1, 1, 1, false),
      probe('r', 'match', [1, 1, 1]),
      transition('r', 'reconcile-commit'),
    ]);
    expect(spans.map((span) => [span.outcome.kind, span.steps.length])).toEqual([
      ['pending', 0],
      ['committed', 1],
    ]);
  });

  it('makes a span from a probe whose start it did not see', () => {
    const spans = fold([probe('late', 'match', [1, 2, 1]), transition('late', 'reconcile-commit')]);
    expect(spans[0]).toMatchObject({
      id: 'late',
      steps: [],
      tasksExamined: 2,
      outcome: { kind: 'committed' },
    });
  });
});

describe('recoverySpans: the audit and a duplicated send (docs/durable-send.md#duplicated)', () => {
  it('marks the audit scan, and ends the span that found two tasks duplicated, naming them', () => {
    const spans = fold([
      {
        type: 'probe-start',
        id: 's9',
        attemptId: 'attempt-s9',
        recovery: 'context-history',
        audit: true,
        time: 1000,
      },
      page('s9', 1, 2, 2, false),
      {
        type: 'probe',
        id: 's9',
        attemptId: 'attempt-s9',
        recovery: 'context-history',
        audit: true,
        pagesScanned: 1,
        tasksExamined: 2,
        matches: 2,
        result: 'duplicated',
        startedAt: 1000,
        durationMs: 9,
      },
      {
        type: 'transition',
        id: 's9',
        from: 'committed',
        to: 'duplicated',
        cause: 'duplicate',
        revision: 4,
        time: 1010,
      },
      {
        type: 'duplicated',
        id: 's9',
        attemptId: 'attempt-s9',
        taskIds: ['task-1', 'task-2'],
        found: 'audit',
        time: 1011,
      },
    ]);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({
      audit: true,
      result: 'duplicated',
      outcome: { kind: 'duplicated', taskIds: ['task-1', 'task-2'] },
    });
    expect(spans.map(describeOutcome)).toEqual(['duplicated: task-1, task-2']);
    expect(fold([start('s1')])[0]?.audit).toBe(false);
  });
});

describe('describeCounts: what a probe looked at, in the words of its recovery', () => {
  it.each<[string, DurableEvent[], string]>([
    [
      'a scan, with plurals',
      [start('s1'), probe('s1', 'match', [2, 103, 1])],
      '2 pages scanned · 103 tasks examined · 1 match',
    ],
    [
      'a scan of one page',
      [start('s1'), probe('s1', 'none', [1, 1, 0])],
      '1 page scanned · 1 task examined · 0 matches',
    ],
    [
      'a keyed replay that found its task',
      [
        { ...start('k1'), recovery: 'keyed' } as DurableEvent,
        { ...probe('k1', 'match', [0, 0, 1]), recovery: 'keyed' } as DurableEvent,
      ],
      'one keyed replay: the answer holds the task',
    ],
    [
      'a replay by message id under way',
      [{ ...start('r1'), recovery: 'message-id-replay' } as DurableEvent],
      'one replay by message id, under way',
    ],
  ])('%s', (_, events, words) => {
    expect(describeCounts(fold(events)[0] as RecoverySpan)).toBe(words);
  });
});
