/**
@module
The Recovery panel's model: each reconciliation as a span, folded from a durable agent's events. `probe-start`
opens it, each `probe-page` adds a step (a context-history scan, page by page), `probe` closes it with its
counts and result, and the transition that follows names the outcome: committed, pending until a time, or the
reason it failed closed.
*/
import type { DurableEvent, ProbeKind, ProbeResult, ProbeRule } from '@surecall/client';

/** One page of a scan. */
export type ScanStep = {
  readonly page: number;
  readonly tasksExamined: number;
  readonly matches: number;
  readonly nextPageToken: boolean;
  readonly time: number;
};

/** Where a reconciliation ended. */
export type SpanOutcome =
  | { readonly kind: 'running' }
  | { readonly kind: 'committed' }
  | { readonly kind: 'pending'; readonly notBefore: number | undefined }
  | { readonly kind: 'unresolved'; readonly reason: string }
  | { readonly kind: 'duplicated'; readonly taskIds: readonly string[] }
  | { readonly kind: 'probed' };

/** One reconciliation of one record. */
export type RecoverySpan = {
  /** The record. */
  readonly id: string;
  readonly attemptId: string;
  readonly recovery: ProbeKind;
  /** The audit scan after a commit (docs/durable-send.md#the-audit), not a reconciliation. */
  readonly audit: boolean;
  readonly startedAt: number;
  readonly durationMs: number | undefined;
  readonly steps: readonly ScanStep[];
  readonly pagesScanned: number;
  readonly tasksExamined: number;
  readonly matches: number;
  readonly result: ProbeResult | undefined;
  readonly rule: ProbeRule | undefined;
  readonly outcome: SpanOutcome;
};

function update(
  spans: readonly RecoverySpan[],
  id: string,
  change: (span: RecoverySpan) => RecoverySpan,
): RecoverySpan[] {
  // The record's latest span: a record is probed again only after its previous probe ended.
  const index = spans.findLastIndex((span) => span.id === id);
  if (index === -1) {
    return [...spans];
  }
  return spans.map((span, position) => (position === index ? change(span) : span));
}

/**
The spans after `event`, oldest first. A `probe` without a `probe-start` seen (the panel mounted mid-probe)
still makes a span, without steps; a transition closes only a span whose probe ended and whose outcome is
still open.

@example
```ts
const spans = events.reduce(recoverySpans, []);
```
*/
export function recoverySpans(spans: readonly RecoverySpan[], event: DurableEvent): RecoverySpan[] {
  switch (event.type) {
    case 'probe-start':
      return [
        ...spans,
        {
          id: event.id,
          attemptId: event.attemptId,
          recovery: event.recovery,
          audit: event.audit === true,
          startedAt: event.time,
          durationMs: undefined,
          steps: [],
          pagesScanned: 0,
          tasksExamined: 0,
          matches: 0,
          result: undefined,
          rule: undefined,
          outcome: { kind: 'running' },
        },
      ];
    case 'probe-page':
      return update(spans, event.id, (span) =>
        span.result === undefined
          ? {
              ...span,
              steps: [
                ...span.steps,
                {
                  page: event.page,
                  tasksExamined: event.tasksExamined,
                  matches: event.matches,
                  nextPageToken: event.nextPageToken,
                  time: event.time,
                },
              ],
              pagesScanned: span.pagesScanned + 1,
              tasksExamined: span.tasksExamined + event.tasksExamined,
              matches: span.matches + event.matches,
            }
          : span,
      );
    case 'probe': {
      const closed = {
        durationMs: event.durationMs,
        pagesScanned: event.pagesScanned,
        tasksExamined: event.tasksExamined,
        matches: event.matches,
        result: event.result,
        rule: event.rule,
        outcome: { kind: 'probed' } as const,
      };
      const open = spans.findLast((span) => span.id === event.id && span.result === undefined);
      if (open === undefined) {
        return [
          ...spans,
          {
            id: event.id,
            attemptId: event.attemptId,
            recovery: event.recovery,
            audit: event.audit === true,
            startedAt: event.startedAt,
            steps: [],
            ...closed,
          },
        ];
      }
      return update(spans, event.id, (span) => ({ ...span, ...closed }));
    }
    case 'transition':
      return update(spans, event.id, (span) => {
        if (span.outcome.kind !== 'probed') {
          return span;
        }
        switch (event.cause) {
          case 'reconcile-commit':
            return { ...span, outcome: { kind: 'committed' } };
          case 'pending':
            return { ...span, outcome: { kind: 'pending', notBefore: event.notBefore } };
          case 'unresolved':
            return { ...span, outcome: { kind: 'unresolved', reason: event.reason ?? 'unresolved' } };
          default:
            return span;
        }
      });
    case 'duplicated':
      // Follows the `duplicate` transition and names the tasks: the span that found them ends duplicated.
      return update(spans, event.id, (span) =>
        span.outcome.kind === 'probed' || span.outcome.kind === 'running'
          ? { ...span, outcome: { kind: 'duplicated', taskIds: event.taskIds } }
          : span,
      );
  }
}

/**
One line for a span's outcome, with the fail-closed rule when there was one.

@example
```ts
describeOutcome(span); // 'committed' | 'pending until 10:00:01.000' | 'unresolved: conflicting-evidence (ambiguous-match)' | 'duplicated: task-1, task-2'
```
*/
export function describeOutcome(span: RecoverySpan): string {
  const rule = span.rule === undefined ? '' : ` (${span.rule})`;
  switch (span.outcome.kind) {
    case 'running':
      return 'running';
    case 'committed':
      return 'committed';
    case 'pending':
      return span.outcome.notBefore === undefined
        ? `pending${rule}`
        : `pending until ${new Date(span.outcome.notBefore).toISOString().slice(11, 23)}${rule}`;
    case 'unresolved':
      return `unresolved: ${span.outcome.reason}${rule}`;
    case 'duplicated':
      return `duplicated: ${span.outcome.taskIds.join(', ')}`;
    case 'probed':
      return `${span.result ?? 'probed'}${rule}`;
  }
}

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
What a span's probe looked at, in words that fit its recovery: a context-history scan counts its pages, the
tasks it examined and its matches; a replay (keyed, or by attested message id) sent the message once and
found its task in the answer, or not (docs/durable-send.md#recovery-modes).

@example
```ts
describeCounts(scanSpan); // '1 page scanned · 1 task examined · 1 match'
describeCounts(keyedSpan); // 'one keyed replay: the answer holds the task'
```
*/
export function describeCounts(span: RecoverySpan): string {
  if (span.recovery === 'context-history') {
    return [
      counted(span.pagesScanned, 'page scanned', 'pages scanned'),
      counted(span.tasksExamined, 'task examined', 'tasks examined'),
      counted(span.matches, 'match', 'matches'),
    ].join(' · ');
  }
  const replay = span.recovery === 'keyed' ? 'one keyed replay' : 'one replay by message id';
  if (span.result === undefined) {
    return `${replay}, under way`;
  }
  return `${replay}: ${span.matches > 0 ? 'the answer holds the task' : 'no task in the answer'}`;
}
