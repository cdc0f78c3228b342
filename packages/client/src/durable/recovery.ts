/**
@module
Reconciliation evidence (docs/durable-send.md#recovery-modes; docs/idempotency.md#replays): the one-way opaque
contextId a context-history send carries, the comparison of a sent message with its echo in a task's history,
the bounded context-history scan, and the replay of the exact original message (keyed, or under a message-id
attestation). Each probe returns a {@link ProbeReport}; `durable.ts` turns it into a ledger transition.

What "unchanged" means here. `client.listTasks` returns decoded values, not raw JSON, and decoding drops
members the protocol does not define (A2A spec §5.7: unknown fields are ignored), so a server that adds an
unknown member to a stored message cannot be seen, and carries no A2A meaning either. Every member the
protocol does define is compared: `messageId`, `contextId`, `role`, every part (its content, `mediaType`,
`filename`, `metadata`), `metadata`, `extensions` and `referenceTaskIds`, by their RFC 8785 canonical JSON
(docs/durable-send.md#recovery-modes: so member order and number spelling never matter). The server may add
exactly one thing, `taskId`, and only this task's id (docs/durable-send.md#recovery-modes, scan step 3); to a
message sent without a context (which no recovery send is) it may also add the task's `contextId`, as A2A spec
§3.4.1 has it assign one. Both sides are decoded messages, so a default a ProtoJSON printer emits or omits (an
empty list, `""`) is absent on both (docs/protocol-checks.md#protojson). Anything else that differs is a
different payload, and the scan fails closed.
*/
import type { CallOptions } from '../client/call.js';
import type { A2aClient } from '../client/client.js';
import { canonicalJson } from '../core/canonical-json.js';
import { optionalMembers } from '../core/optional-members.js';
import { sha256Hex } from '../core/sha256.js';
import type { Attempt, ErrorSummary, ResultSummary } from '../ledger/ledger.js';
import { maxDuplicateTasks } from '../ledger/record.js';
import { contractBounds } from '../protocol/bounds.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { Message } from '../protocol/message.js';
import type { ListTasksResponse } from '../protocol/requests.js';
import type { SendMessageResponse } from '../protocol/send-message.js';
import type { DurableEvent, ProbeKind, ProbeResult, ProbeRule } from './events.js';
import { classifyProbeFailure } from './outcome.js';

/** The prefix of every opaque recovery contextId: 13 characters, then 64 lowercase hex digits. */
export const recoveryContextPrefix = 'surecall-ctx-';

// The domain the digest is separated by, so it can never equal another surecall digest of the same ids.
const RECOVERY_CONTEXT_NAMESPACE = 'surecall.durable.recovery-context.v1';

/** The durable identities a recovery contextId is derived from. */
export type RecoveryContextInput = {
  /** The record (the logical send). */
  readonly recordId: string;
  /** The physical attempt that carries the contextId. */
  readonly attemptId: string;
  /** The digest of the card the client was built from. */
  readonly cardDigest: string;
};

/**
The one-way opaque contextId of one attempt (docs/durable-send.md#recovery-modes, the one-way opaque ID):
`surecall-ctx-` and the lowercase hex SHA-256 of the namespace `surecall.durable.recovery-context.v1`, the
record id, the attempt id and the card digest, each followed by a NUL byte. Ids are labels and hold no control
character, so the NUL separators make the input unambiguous. It names a context only this attempt uses, and
reveals none of its inputs; a new attempt or another card gives another context. Hashed by `core/sha256.ts`
(Node's synchronous hash under Node, WebCrypto elsewhere), so it runs in browsers and Node.

@example
```ts
await recoveryContextId({ recordId, attemptId, cardDigest: client.cardDigest }); // 'surecall-ctx-3f1c…' (77 characters)
```
*/
export async function recoveryContextId(input: RecoveryContextInput): Promise<string> {
  const text = `${RECOVERY_CONTEXT_NAMESPACE}\0${input.recordId}\0${input.attemptId}\0${input.cardDigest}\0`;
  const hex = sha256Hex(text);
  if (hex === undefined) {
    throw new TypeError('surecall: WebCrypto (crypto.subtle) is unavailable; a secure context is required');
  }
  return `${recoveryContextPrefix}${await hex}`;
}

/** The task a stored message belongs to: the ids a server may add to a message it stores. */
export type MessageOwner = { readonly id: string; readonly contextId: string };

/**
A message as the comparison sees it, as canonical JSON: given its task, no `taskId` when it is that task's,
and no `contextId` when the server added it. `undefined` when it names another task or context, or has no
canonical form. Both sides are decoded messages, so ProtoJSON defaults (an empty list, `""`) are absent on
both.
*/
function comparable(
  message: Message,
  owner: MessageOwner | undefined,
  contextAdded: boolean,
): string | undefined {
  const { taskId, contextId, ...rest } = message;
  if (owner !== undefined && taskId !== undefined && taskId !== owner.id) {
    return undefined;
  }
  if (contextAdded && contextId !== undefined && contextId !== owner?.contextId) {
    return undefined;
  }
  const shaped = {
    ...rest,
    ...(owner === undefined && taskId !== undefined ? { taskId } : {}),
    ...(contextAdded || contextId === undefined ? {} : { contextId }),
  };
  try {
    return canonicalJson(shaped as unknown as JsonValue);
  } catch {
    // A lone surrogate has no canonical form: such a message can equal nothing.
    return undefined;
  }
}

/**
Whether `found`, a message stored with the task `owner`, is `sent` unchanged but for the ids the server may
add (see the module comment for what is compared): the task's own `taskId`, and the task's `contextId` when
`sent` carried none (A2A spec §3.4.1: the server assigns a context to a message without one). A recovery send
always carries its context, so for the scan only `taskId` may be added. A `taskId` or an added `contextId`
naming another task or context is a change.

@example
```ts
sameSentMessage({ ...sent, taskId: 'task-1' }, sent, task); // true
sameSentMessage({ ...sent, parts: [{ text: 'book two' }] }, sent, task); // false: same id, another payload
```
*/
export function sameSentMessage(found: Message, sent: Message, owner: MessageOwner): boolean {
  const contextAdded = sent.contextId === undefined;
  const left = comparable(found, owner, contextAdded);
  return left !== undefined && left === comparable(sent, owner, contextAdded);
}

/**
Whether two messages are the same, `taskId` included, by the comparison of {@link sameSentMessage}.

@example
```ts
sameMessage(parseMessage({ ...sent, extensions: [] }), sent); // true: decoded, an empty list is absent
```
*/
export function sameMessage(left: Message, right: Message): boolean {
  const canonical = comparable(left, undefined, false);
  return canonical !== undefined && canonical === comparable(right, undefined, false);
}

/**
Whether an answer to a send is consistent with the message sent: a task's history may hold the message's id at
most once, and then unchanged. A direct message has no history to check. An answer that fails this is no
evidence of what the peer stored, so the send is unknown rather than committed.

@example
```ts
answerEchoes({ task }, sent); // false when the task's history holds `sent.messageId` with another text
```
*/
export function answerEchoes(answer: SendMessageResponse, sent: Message): boolean {
  if (!('task' in answer)) {
    return true;
  }
  const { task } = answer;
  const echoes = task.history.filter((message) => message.messageId === sent.messageId);
  return echoes.length <= 1 && echoes.every((message) => sameSentMessage(message, sent, task));
}

/**
The summary a ledger keeps of an answer (docs/durable-send.md#what-a-task-commits): a task's durable handle
(its id and context), or a direct message's ids, where it has them.

@example
```ts
resultSummary({ task }); // { kind: 'task', taskId: task.id, contextId: task.contextId }
```
*/
export function resultSummary(answer: SendMessageResponse): ResultSummary {
  if ('task' in answer) {
    return { kind: 'task', taskId: answer.task.id, contextId: answer.task.contextId };
  }
  const { taskId, contextId } = answer.message;
  return {
    kind: 'message',
    ...optionalMembers({ taskId, contextId }),
  };
}

/** What one probe found, with its counters for the devtools. */
export type ProbeReport = {
  readonly result: ProbeResult;
  readonly rule?: ProbeRule;
  /** The error a failed probe received, public-safe. */
  readonly cause?: ErrorSummary;
  /**
  For a `match`: the answer that proves the send, a replay's answer or `{ task }` for the task the scan found.
  */
  readonly answer?: SendMessageResponse;
  /** For `duplicated`: the tasks holding the message, 2 to 16, in the order found. */
  readonly taskIds?: readonly string[];
  readonly pagesScanned: number;
  readonly tasksExamined: number;
  readonly matches: number;
};

/**
Which probe a span reports: the record, its original attempt, the recovery, and whether it is the audit after
a commit.
*/
export type ProbeSpan = {
  readonly id: string;
  readonly attemptId: string;
  readonly recovery: ProbeKind;
  readonly audit?: true;
};

/**
Runs `probe` between its `probe-start` and `probe` events, so a reconciliation and the audit report their
scans alike (docs/durable-send.md#reconciling-an-unknown).

@example
```ts
const report = await reportedProbe(emit, { id, attemptId, recovery: 'keyed' }, () => replaySend(input, sendOnce));
```
*/
export async function reportedProbe(
  emit: (event: DurableEvent) => void,
  span: ProbeSpan,
  probe: () => Promise<ProbeReport>,
): Promise<ProbeReport> {
  const startedAt = Date.now();
  const started = performance.now();
  emit({ type: 'probe-start', ...span, time: startedAt });
  const report = await probe();
  emit({
    type: 'probe',
    ...span,
    pagesScanned: report.pagesScanned,
    tasksExamined: report.tasksExamined,
    matches: report.matches,
    result: report.result,
    ...optionalMembers({ rule: report.rule }),
    startedAt,
    durationMs: performance.now() - started,
  });
  return report;
}

/**
What a probe needs: the client, the per-call options (signal, skill, the original attempt's identity) and the
message that attempt sent.
*/
export type ProbeInput = {
  readonly client: A2aClient;
  readonly callOptions: CallOptions;
  /** The exact message of the original attempt (`attemptMessage`). */
  readonly sent: Message;
  /**
  Told of each ListTasks page a context-history scan read, once it was examined (the devtools show the scan
  step by step).
  */
  readonly onPage?: (page: ScanPage) => void;
};

/** One page of a context-history scan, as examined: counts only, no task or message content. */
export type ScanPage = {
  /** 1-based. */
  readonly page: number;
  /** Tasks looked at on this page (fewer than the page held when a conflict stopped the scan there). */
  readonly tasksExamined: number;
  /** Tasks on this page holding the sent message. */
  readonly matches: number;
  /** Whether the page carried a next-page token. */
  readonly nextPageToken: boolean;
};

/**
A client error becomes a failed report; anything else, or an error after the caller gave up, is rethrown:
neither is evidence.
*/
function failed(
  error: unknown,
  input: ProbeInput,
  counts: Pick<ProbeReport, 'pagesScanned' | 'tasksExamined' | 'matches'>,
): ProbeReport {
  const failure = classifyProbeFailure(error);
  if (failure === undefined || input.callOptions.signal?.aborted === true) {
    throw error;
  }
  return { ...failure, ...counts };
}

/** The bounds of one context-history scan. */
export type ScanBounds = {
  readonly maxPages: number;
  readonly historyLength: number;
  readonly includeArtifacts: boolean;
};

/**
One bounded context-history probe (docs/durable-send.md#recovery-modes, the scan algorithm). Reads `ListTasks`
of the attempt's opaque context, 100 tasks a page, at most `maxPages` pages, each task with its last
`historyLength` messages; every page also passes the client's own page checks (context filter, order, unique
ids, history bound). Then:

- a task id seen on an earlier page: `conflict` / `duplicate-task`;
- a history message with the sent messageId that is not the sent message (payload substitution): `conflict` /
  `message-mismatch`;
- the message twice in one task: `conflict` / `ambiguous-match`;
- the message, unchanged, in two or more tasks: `duplicated`, with their ids (at most 16, in the order found):
  the send ran more than once (docs/durable-send.md#duplicated). The scan goes on to its end, so a later
  conflict still wins; a last page with a next token does not undo what was found;
- a last allowed page that still has a next token: `conflict` / `scan-limit`; a match on an early page still
  needs the whole scan, to rule a second one out;
- exactly one task holding the message, once: `match`, with `{ task }`;
- none: `none`.

It never sends the message again.

@example
```ts
const report = await scanContextHistory({ client, callOptions: { attempt }, sent }, attempt, { maxPages: 4, historyLength: 64, includeArtifacts: false });
```
*/
export async function scanContextHistory(
  input: ProbeInput,
  attempt: Attempt,
  bounds: ScanBounds,
): Promise<ProbeReport> {
  const { client, callOptions, sent } = input;
  const contextId = attempt.contextId as string;
  const seen = new Set<string>();
  let found: SendMessageResponse | undefined;
  const holders: string[] = [];
  let pagesScanned = 0;
  let tasksExamined = 0;
  let matches = 0;
  const counts = () => ({ pagesScanned, tasksExamined, matches });
  const conflict = (rule: ProbeRule): ProbeReport => ({ result: 'conflict', rule, ...counts() });
  const duplicated = (): ProbeReport => ({ result: 'duplicated', taskIds: [...holders], ...counts() });
  let pageToken: string | undefined;
  for (;;) {
    let page: ListTasksResponse;
    try {
      page = await client.listTasks(
        {
          contextId,
          pageSize: contractBounds.taskPageSize,
          historyLength: bounds.historyLength,
          ...(bounds.includeArtifacts ? { includeArtifacts: true } : {}),
          ...optionalMembers({ pageToken }),
        },
        callOptions,
      );
    } catch (error) {
      return failed(error, input, counts());
    }
    pagesScanned += 1;
    const before = { tasksExamined, matches };
    let verdict: ProbeReport | undefined;
    for (const task of page.tasks) {
      tasksExamined += 1;
      if (seen.has(task.id)) {
        verdict = conflict('duplicate-task');
        break;
      }
      seen.add(task.id);
      const echoes = task.history.filter((message) => message.messageId === sent.messageId);
      if (echoes.some((message) => !sameSentMessage(message, sent, task))) {
        verdict = conflict('message-mismatch');
        break;
      }
      if (echoes.length === 0) {
        continue;
      }
      matches += 1;
      if (echoes.length > 1) {
        verdict = conflict('ambiguous-match');
        break;
      }
      // A second task holding the unchanged message is a second execution (docs/durable-send.md#duplicated):
      // kept, and the scan goes on.
      found ??= { task };
      if (holders.length < maxDuplicateTasks) {
        holders.push(task.id);
      }
    }
    input.onPage?.({
      page: pagesScanned,
      tasksExamined: tasksExamined - before.tasksExamined,
      matches: matches - before.matches,
      nextPageToken: page.nextPageToken !== '',
    });
    if (verdict !== undefined) {
      return verdict;
    }
    // A2A spec §3.1.4: an empty nextPageToken is the last page.
    if (page.nextPageToken === '') {
      break;
    }
    if (pagesScanned >= bounds.maxPages) {
      // Two tasks already prove more than one execution, whatever the unread pages hold.
      return holders.length > 1 ? duplicated() : conflict('scan-limit');
    }
    pageToken = page.nextPageToken;
  }
  if (holders.length > 1) {
    return duplicated();
  }
  return found === undefined
    ? { result: 'none', ...counts() }
    : { result: 'match', answer: found, ...counts() };
}

/**
One replay probe: sends the exact original message once more, through `send`, which must make exactly one
attempt (`durable.ts` stops the client's retry policy). Used by `keyed` recovery, where a peer that honours
keys answers with the task the first attempt created (docs/idempotency.md#replays), and by
`message-id-replay`, under the operator's attestation that the peer deduplicates the messageId
(docs/durable-send.md#recovery-modes, replay). An answer is a `match` when it echoes the message consistently;
an answer whose history holds the message's id with another payload is a `conflict` (`message-mismatch`); a
failure is classified by `classifyProbeFailure`.

@example
```ts
const report = await replaySend({ client, callOptions: { attempt }, sent }, (message, options) => client.sendMessage({ message, configuration: { returnImmediately: true } }, options));
```
*/
export async function replaySend(
  input: ProbeInput,
  send: (message: Message, options: CallOptions) => Promise<SendMessageResponse>,
): Promise<ProbeReport> {
  const counts = { pagesScanned: 0, tasksExamined: 0, matches: 0 };
  let answer: SendMessageResponse;
  try {
    answer = await send(input.sent, input.callOptions);
  } catch (error) {
    return failed(error, input, counts);
  }
  if (!answerEchoes(answer, input.sent)) {
    return { result: 'conflict', rule: 'message-mismatch', ...counts };
  }
  return { result: 'match', answer, ...counts, matches: 1 };
}
