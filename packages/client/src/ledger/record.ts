/**
@module
The schemas of the durable pending-send ledger (docs/durable-send.md#transitions): the intent, its states, its transitions and its revisions. Every record or revision read back from IndexedDB or a journal file is decoded with them, because storage is an edge too (CONTRIBUTING.md#schemas-and-types): a value that fails is a corrupt entry, never skipped and never repaired. The objects are strict, so an unknown member is refused rather than stripped: stripping would change a stored value silently.
*/
import * as z from 'zod/mini';
import { contractBounds } from '../protocol/bounds.js';
import { Message } from '../protocol/message.js';
import { int32 } from '../protocol/scalars.js';
import { Id, isAbsoluteUrl, Label, labelRule, Url, utf8Length, withinBytes } from '../protocol/text.js';

/** Pushes a ledger rule break; the message is the rule name, never the input. */
function fail(payload: z.core.ParsePayload, rule: string, path: readonly PropertyKey[] = []): void {
  payload.issues.push({
    code: 'custom',
    input: payload.value,
    message: rule,
    params: { rule },
    path: [...path],
  });
}

/** A non-negative safe integer. */
function whole(min = 0, max = Number.MAX_SAFE_INTEGER): z.ZodMiniNumber<number> {
  return z.number().check((payload) => {
    if (!Number.isSafeInteger(payload.value)) {
      fail(payload, 'integer');
    } else if (payload.value < min || payload.value > max) {
      fail(payload, 'range');
    }
  });
}

/** Milliseconds since the Unix epoch, as `Date.now()` gives them. */
const Millis = whole();

/** The longest wait a `retryAfterMs` or a pending probe may name: one hour (docs/durable-send.md#recovery-modes, `retry_after` ≤ 1 h). */
export const maxDelayMs = 3_600_000;

const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A SHA-256 digest as `sha256:` and 64 lowercase hex digits, the form `cardDigest` produces. */
const Sha256Digest = z.string().check((payload) => {
  if (!SHA256_DIGEST.test(payload.value)) {
    fail(payload, 'digest');
  }
});

/**
How a send may be delivered again (docs/durable-send.md#delivery-modes): `at-most-once` never repeats an uncertain attempt and gives each attempt a fresh messageId; `keyed` carries an idempotency key the peer honours; `message-id-deduplicated` reuses the message's own messageId under an operator's attestation that the peer deduplicates it.
*/
export const DeliveryMode = z.enum(['at-most-once', 'keyed', 'message-id-deduplicated']);
/** How a send may be delivered again. */
export type DeliveryMode = z.infer<typeof DeliveryMode>;

/** The agent a send goes to, as discovered and pinned: the card's digest, the selected interface's binding and URL, and the pin's tenant. */
export const AgentIdentity = z.strictObject({
  cardDigest: Sha256Digest,
  binding: z.enum(['JSONRPC', 'HTTP+JSON']),
  url: Url,
  tenant: z.optional(Id),
});
/** The agent a send goes to. */
export type AgentIdentity = z.infer<typeof AgentIdentity>;

/** True when `left` and `right` are the same JSON value, member order aside; `undefined` anywhere is not JSON and never equal. */
function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) {
    return left !== undefined;
  }
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) {
    return false;
  }
  if (Array.isArray(left) || Array.isArray(right)) {
    return (
      Array.isArray(left) &&
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, index) => sameJson(item, right[index]))
    );
  }
  const leftKeys = Object.keys(left);
  const rightMembers = right as Record<string, unknown>;
  return (
    leftKeys.length === Object.keys(right).length &&
    leftKeys.every(
      (key) =>
        Object.hasOwn(rightMembers, key) &&
        sameJson((left as Record<string, unknown>)[key], rightMembers[key]),
    )
  );
}

// A valid outbound message (role user), kept exactly as given: decoding it must not change it, or the stored message would no longer be the one that was sent.
const ExactMessage = z.custom<Message>().check((payload) => {
  const decoded = z.safeParse(Message, payload.value);
  if (!decoded.success) {
    fail(payload, 'message');
  } else if (decoded.data.role !== 'ROLE_USER') {
    fail(payload, 'role');
  } else if (!sameJson(decoded.data, payload.value)) {
    fail(payload, 'message-not-canonical');
  }
});

const intentShape = {
  /** The invocation id: the logical send, stable across attempts. */
  id: Id,
  /** A local tenant label (never sent). */
  tenant: Label,
  /** A local run label (never sent). */
  run: Label,
  agent: AgentIdentity,
  /** The message as built by the caller; each attempt sends it with its own `messageId` and `contextId` (see `attemptMessage`). */
  message: ExactMessage,
  delivery: DeliveryMode,
  /** The idempotency key, present exactly when `delivery` is `keyed`. */
  idempotencyKey: z.optional(Id),
};

function checkIntent(
  payload: z.core.ParsePayload<{ delivery: DeliveryMode; idempotencyKey?: string | undefined }>,
) {
  if ((payload.value.delivery === 'keyed') !== (payload.value.idempotencyKey !== undefined)) {
    fail(payload, 'idempotency-key', ['idempotencyKey']);
  }
}

/**
Everything needed to send, and later to reconcile, one logical send, committed before anything leaves.

@example
```ts
const intent: SendIntent = {
  id: crypto.randomUUID(),
  tenant: 'acme',
  run: 'nightly-42',
  agent: { cardDigest: 'sha256:9f86…', binding: 'JSONRPC', url: 'https://partner.example/a2a' },
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'book it' }] },
  delivery: 'at-most-once',
};
```
*/
export const SendIntent = z.strictObject(intentShape).check(checkIntent);
/** Everything needed to send, and later to reconcile, one logical send. */
export type SendIntent = z.infer<typeof SendIntent>;

/** A string `Id` accepts: a label of at most `idBytes` (protocol/text.ts). */
function isId(value: unknown): value is string {
  return typeof value === 'string' && labelRule(value, contractBounds.idBytes) === undefined;
}

/** A string `Label` accepts. */
function isLabel(value: unknown): value is string {
  return typeof value === 'string' && labelRule(value, contractBounds.labelBytes) === undefined;
}

/** An object literal, a `JSON.parse` result or a null-prototype object, every member of it named in `names`: no class instance, whose prototype may bring accessors and members of its own. */
function plainWith(value: unknown, names: ReadonlySet<string>): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return false;
  }
  for (const name in value) {
    if (!names.has(name)) {
      return false;
    }
  }
  return true;
}

const intentNames = new Set(Object.keys(intentShape));
const agentNames = new Set(Object.keys(AgentIdentity.def.shape));
const messageNames = new Set(['messageId', 'contextId', 'taskId', 'role', 'parts']);
const textPartNames = new Set(['text']);

/** A user message with text parts only, copied, or `undefined` for any other (see {@link plainIntent}). */
function plainMessage(value: unknown): Message | undefined {
  if (!plainWith(value, messageNames)) {
    return undefined;
  }
  const { messageId, contextId, taskId, role, parts } = value;
  if (
    !isId(messageId) ||
    role !== 'ROLE_USER' ||
    !Array.isArray(parts) ||
    parts.length === 0 ||
    parts.length > contractBounds.partsPerMessage ||
    ('contextId' in value && !isId(contextId)) ||
    ('taskId' in value && !isId(taskId))
  ) {
    return undefined;
  }
  const copied: { text: string }[] = [];
  for (const part of parts as unknown[]) {
    if (!plainWith(part, textPartNames)) {
      return undefined;
    }
    const text: unknown = part['text'];
    if (typeof text !== 'string' || !withinBytes(text, contractBounds.partBytes)) {
      return undefined;
    }
    copied.push({ text });
  }
  // In the caller's member order, as the schema path's JSON copy keeps it, and from the values checked above: a member is read once.
  const members: Readonly<Record<string, unknown>> = { messageId, contextId, taskId, role, parts: copied };
  const message: Record<string, unknown> = {};
  for (const name in value) {
    message[name] = members[name];
  }
  return message as Message;
}

/**
The intent most callers write, checked by the very rules of {@link SendIntent} without running the schemas, and copied: plain objects, every member defined, an agent identity, and a user message whose parts are all text. It returns `undefined` for anything else (metadata, other parts, an explicit `undefined`, a class instance, any rule broken), which the schema then decides, with its error. An intent it accepts is one the schema accepts and decodes to an equal value (`record.test.ts` checks both ways on generated intents); it exists because the schema path cost a file ledger about a seventh of its commits per second with 256 writers.
*/
export function plainIntent(input: unknown): SendIntent | undefined {
  if (!plainWith(input, intentNames)) {
    return undefined;
  }
  const { id, tenant, run, agent, message, delivery, idempotencyKey } = input;
  const keyed = 'idempotencyKey' in input;
  if (
    !isId(id) ||
    !isLabel(tenant) ||
    !isLabel(run) ||
    (delivery !== 'at-most-once' && delivery !== 'keyed' && delivery !== 'message-id-deduplicated') ||
    (keyed && !isId(idempotencyKey)) ||
    (delivery === 'keyed') !== keyed ||
    !plainWith(agent, agentNames)
  ) {
    return undefined;
  }
  const { cardDigest, binding, url, tenant: pin } = agent;
  const pinned = 'tenant' in agent;
  if (
    typeof cardDigest !== 'string' ||
    !SHA256_DIGEST.test(cardDigest) ||
    (binding !== 'JSONRPC' && binding !== 'HTTP+JSON') ||
    typeof url !== 'string' ||
    labelRule(url, contractBounds.urlBytes) !== undefined ||
    !isAbsoluteUrl(url) ||
    (pinned && !isId(pin))
  ) {
    return undefined;
  }
  const copied = plainMessage(message);
  if (copied === undefined) {
    return undefined;
  }
  return {
    id,
    tenant,
    run,
    agent: pinned ? { cardDigest, binding, url, tenant: pin as string } : { cardDigest, binding, url },
    message: copied,
    delivery,
    ...(keyed ? { idempotencyKey: idempotencyKey as string } : {}),
  };
}

/**
A public-safe summary of an error: the `toJSON()` fields of a client error, nothing else. It is all a record keeps of a failure, so no remote text, body, token or URL can reach the ledger.
*/
export const ErrorSummary = z.strictObject({
  name: Label,
  kind: Label,
  reason: Label,
  dispatched: z.boolean(),
  httpStatus: z.optional(whole(100, 599)),
  remoteCode: z.optional(int32()),
  violation: z.optional(
    z.strictObject({ rule: Label, offset: z.optional(whole()), path: z.optional(Label) }),
  ),
});
/** A public-safe summary of an error. */
export type ErrorSummary = z.infer<typeof ErrorSummary>;

// Marks a path cut short to fit its field.
const cut = '…';

/** A violation path shortened to the label bound: whole segments (`.name`, `[3]`, `[*]`) from the start, then `…`. */
function fitPath(path: string): string {
  const room = contractBounds.labelBytes - utf8Length(cut);
  let end = 0;
  let bytes = 0;
  for (const char of path) {
    bytes += utf8Length(char);
    if (bytes > room) {
      break;
    }
    end += char.length;
  }
  const boundary = Math.max(path.lastIndexOf('.', end), path.lastIndexOf('[', end));
  return `${path.slice(0, boundary > 0 && boundary <= end ? boundary : end)}${cut}`;
}

function isInteger(value: unknown, min: number, max: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
}

/**
The summary as a record can always keep it (docs/durable-send.md#after-dispatch): after dispatch nothing may stop a record from leaving `executing`, and part of a summary comes from the peer (how deep its answer nested, which status it sent). A violation path over the label bound is cut to whole segments and marked `…`; a label or number the schema would refuse is dropped (an optional field) or replaced by `unnamed` (a required one). A summary the schema accepts is returned as it is.

@example
```ts
fitErrorSummary({ name: 'InvalidResponseError', kind: 'invalid-response', reason: 'json', dispatched: true, violation: { rule: 'depth', path: '$' + '[0]'.repeat(300) } }).violation?.path; // '$[0][0]…[0]…', 512 bytes at most
```
*/
export function fitErrorSummary(summary: ErrorSummary): ErrorSummary {
  if (z.safeParse(ErrorSummary, summary).success) {
    return summary;
  }
  const label = (text: unknown): string | undefined =>
    typeof text !== 'string'
      ? undefined
      : labelRule(text, contractBounds.labelBytes) === undefined
        ? text
        : undefined;
  const { violation, httpStatus, remoteCode } = summary;
  let path: string | undefined;
  if (typeof violation?.path === 'string') {
    path = label(violation.path) ?? label(fitPath(violation.path));
  }
  return {
    name: label(summary.name) ?? 'unnamed',
    kind: label(summary.kind) ?? 'unnamed',
    reason: label(summary.reason) ?? 'unnamed',
    dispatched: summary.dispatched === true,
    ...(isInteger(httpStatus, 100, 599) ? { httpStatus } : {}),
    ...(isInteger(remoteCode, -2_147_483_648, 2_147_483_647) ? { remoteCode } : {}),
    ...(violation === undefined
      ? {}
      : {
          violation: {
            rule: label(violation.rule) ?? 'unnamed',
            ...(isInteger(violation.offset, 0, Number.MAX_SAFE_INTEGER) ? { offset: violation.offset } : {}),
            ...(path === undefined ? {} : { path }),
          },
        }),
  };
}

/** What a committed send proved: a task (with its durable handle) or a direct message (A2A spec §3.1.1: the answer is a Task or a Message). */
export const ResultSummary = z
  .strictObject({ kind: z.enum(['task', 'message']), taskId: z.optional(Id), contextId: z.optional(Id) })
  .check((payload) => {
    if (
      payload.value.kind === 'task' &&
      (payload.value.taskId === undefined || payload.value.contextId === undefined)
    ) {
      fail(payload, 'task-handle');
    }
  });
/** What a committed send proved. */
export type ResultSummary = z.infer<typeof ResultSummary>;

/** What a known failure did to the peer: nothing was sent, or the peer rejected it before applying it (docs/durable-send.md#classifying-a-failure). */
export const FailureEffect = z.enum(['not-started', 'not-applied']);
/** What a known failure did to the peer. */
export type FailureEffect = z.infer<typeof FailureEffect>;

/** Why a record is unknown: an ambiguous outcome after dispatch, a crash while executing, no evidence after the allowed probes, or evidence that contradicts itself (duplicates, a same-id message with another payload, an exhausted scan). */
export const UnknownReason = z.enum([
  'ambiguous-outcome',
  'crashed-while-executing',
  'no-evidence',
  'conflicting-evidence',
]);
/** Why a record is unknown. */
export type UnknownReason = z.infer<typeof UnknownReason>;

const Delay = whole(1, maxDelayMs);

/** The most task ids a `duplicated` record names: enough to show every copy a browser's re-send or a person's retry can make, small enough for a record. */
export const maxDuplicateTasks = 16;

/** The tasks that hold one send's message (docs/durable-send.md#duplicated): 2 to 16 distinct task ids, in the order the scan found them. */
const DuplicateTasks = z.array(Id).check((payload) => {
  const ids = payload.value;
  if (ids.length < 2 || ids.length > maxDuplicateTasks) {
    fail(payload, 'task-count');
  } else if (new Set(ids).size !== ids.length) {
    fail(payload, 'task-repeated');
  }
});

/** The state of a record (docs/durable-send.md#states-and-revisions). */
export const LedgerState = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('prepared') }),
  z.strictObject({ status: z.literal('executing'), attemptId: Id, messageId: Id, contextId: z.optional(Id) }),
  z.strictObject({ status: z.literal('committed'), attemptId: Id, result: ResultSummary }),
  z.strictObject({
    status: z.literal('failed'),
    attemptId: z.optional(Id),
    cause: ErrorSummary,
    effect: FailureEffect,
    retryAfterMs: z.optional(Delay),
  }),
  z.strictObject({
    status: z.literal('unknown'),
    attemptId: Id,
    cause: z.optional(ErrorSummary),
    reason: UnknownReason,
    pending: z.optional(z.strictObject({ notBefore: Millis, probes: whole(1) })),
  }),
  // docs/durable-send.md#duplicated: the message was found in two or more tasks; terminal, never committed.
  z.strictObject({ status: z.literal('duplicated'), attemptId: Id, taskIds: DuplicateTasks }),
]);
/** The state of a record, discriminated by `status`. */
export type LedgerState = z.infer<typeof LedgerState>;
/** The status names. */
export type LedgerStatus = LedgerState['status'];

/** One physical dispatch of the send. */
export const Attempt = z.strictObject({
  attemptId: Id,
  messageId: Id,
  contextId: z.optional(Id),
  startedAt: Millis,
});
/** One physical dispatch of the send. */
export type Attempt = z.infer<typeof Attempt>;

/** The transitions a caller appends (docs/durable-send.md#transitions); `create` is revision 0's and comes from `Ledger.create`. */
export const LedgerTransition = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('start'), attemptId: Id, messageId: Id, contextId: z.optional(Id) }),
  z.strictObject({ type: z.literal('commit'), attemptId: Id, result: ResultSummary }),
  z.strictObject({
    type: z.literal('fail'),
    attemptId: z.optional(Id),
    cause: ErrorSummary,
    effect: FailureEffect,
    retryAfterMs: z.optional(Delay),
  }),
  z.strictObject({
    type: z.literal('unknown'),
    attemptId: Id,
    cause: z.optional(ErrorSummary),
    reason: z.enum(['ambiguous-outcome', 'crashed-while-executing']),
  }),
  z.strictObject({ type: z.literal('pending'), attemptId: Id, notBefore: Millis }),
  z.strictObject({
    type: z.literal('unresolved'),
    attemptId: Id,
    cause: z.optional(ErrorSummary),
    reason: z.enum(['no-evidence', 'conflicting-evidence']),
  }),
  z.strictObject({ type: z.literal('reconcile-commit'), attemptId: Id, result: ResultSummary }),
  z.strictObject({
    type: z.literal('reconcile-fail'),
    attemptId: Id,
    cause: ErrorSummary,
    effect: FailureEffect,
  }),
  z.strictObject({ type: z.literal('duplicate'), attemptId: Id, taskIds: DuplicateTasks }),
]);
/** A transition a caller appends, discriminated by `type`. */
export type LedgerTransition = z.infer<typeof LedgerTransition>;

const CreateTransition = z.strictObject({ type: z.literal('create'), intent: SendIntent });
/** Revision 0's transition: the intent itself. */
export type CreateTransition = z.infer<typeof CreateTransition>;

/**
One immutable entry of a record's history. Revision 0 carries the `create` transition and no predecessor; revision n names the revision it expected (n − 1) and the digest of that revision, and its own `digest` is SHA-256 over the canonical JSON of the id, the revision, the time, the previous digest and the transition.
*/
export const LedgerRevision = z
  .strictObject({
    id: Id,
    revision: whole(),
    expectedRevision: z.optional(whole()),
    at: Millis,
    previousDigest: z.optional(Sha256Digest),
    transition: z.union([CreateTransition, LedgerTransition]),
    digest: Sha256Digest,
  })
  .check((payload) => {
    const { revision, expectedRevision, previousDigest, transition } = payload.value;
    const first = revision === 0;
    if (first !== (transition.type === 'create')) {
      fail(payload, 'create-first', ['transition']);
    } else if (first !== (expectedRevision === undefined) || (!first && expectedRevision !== revision - 1)) {
      fail(payload, 'expected-revision', ['expectedRevision']);
    } else if (first !== (previousDigest === undefined)) {
      fail(payload, 'previous-digest', ['previousDigest']);
    } else if (transition.type === 'create' && transition.intent.id !== payload.value.id) {
      fail(payload, 'intent-id', ['transition']);
    }
  });
/** One immutable entry of a record's history. */
export type LedgerRevision = z.infer<typeof LedgerRevision>;

/** The statuses whose state names the last attempt. */
function attemptOf(state: LedgerState): string | undefined {
  return state.status === 'prepared' ? undefined : state.attemptId;
}

/**
A record: the intent's fields, the current state, every attempt in order, and the head of its history (`revision`, `digest`). It is what replaying its revisions gives; stores keep it for fast reads and decode it on every read.
*/
export const LedgerRecord = z
  .strictObject({
    ...intentShape,
    state: LedgerState,
    attempts: z.array(Attempt),
    revision: whole(),
    digest: Sha256Digest,
    createdAt: Millis,
    updatedAt: Millis,
  })
  .check((payload) => {
    checkIntent(payload);
    const { state, attempts } = payload.value;
    // A state names the latest attempt; prepared, and a failure before any attempt, name none and have none.
    if (attemptOf(state) !== attempts.at(-1)?.attemptId) {
      fail(payload, 'attempt', ['state']);
    }
  });
/** A record of one logical send. */
export type LedgerRecord = z.infer<typeof LedgerRecord>;

/** A decoding failure: the rule and a path made of this module's member names and array indexes only. */
export type LedgerDecodeFailure = { readonly rule: string; readonly path: string };

/**
Decodes a stored ledger value without throwing: `{ ok: true, value }` or `{ ok: false, error: { rule, path } }`.

@example
```ts
const result = decodeLedger(LedgerRecord, await store.get(id));
if (!result.ok) { throw new LedgerError('corrupt', { rule: result.error.rule }); }
```
*/
export function decodeLedger<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
):
  | { readonly ok: true; readonly value: z.output<S>; readonly error?: never }
  | { readonly ok: false; readonly error: LedgerDecodeFailure; readonly value?: never } {
  const result = z.safeParse(schema, value);
  if (result.success) {
    return { ok: true, value: result.data };
  }
  const issue = result.error.issues[0];
  const { rule: custom } = issue?.code === 'custom' ? (issue.params ?? {}) : {};
  const rule = typeof custom === 'string' ? custom : (issue?.code ?? 'invalid');
  let path = '$';
  for (const key of issue?.path ?? []) {
    path += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return { ok: false, error: { rule, path } };
}

/** One line of the file ledger's journal: a revision and the fencing counter of the writer that appended it. */
export const JournalLine = z.strictObject({ fence: whole(1), revision: LedgerRevision });
/** One line of the file ledger's journal. */
export type JournalLine = z.infer<typeof JournalLine>;
