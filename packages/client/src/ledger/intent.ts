/**
@module
The intent of a durable send (docs/durable-send.md#transitions): the agent it goes to, how it may be delivered
again, and the message exactly as the caller built it, decoded by its schema, or by `plainIntent`, the same
rules without the schemas, for the common shape.
*/
import * as z from 'zod/mini';
import { contractBounds } from '../protocol/bounds.js';
import { Message } from '../protocol/message.js';
import { Id, isAbsoluteUrl, Label, labelRule, Url, withinBytes } from '../protocol/text.js';
import { fail, Sha256Digest, sha256DigestPattern } from './decoding.js';

/**
How a send may be delivered again (docs/durable-send.md#delivery-modes): `at-most-once` never repeats an
uncertain attempt and gives each attempt a fresh messageId; `keyed` carries an idempotency key the peer
honours; `message-id-deduplicated` reuses the message's own messageId under an operator's attestation that the
peer deduplicates it.
*/
export const DeliveryMode = z.enum(['at-most-once', 'keyed', 'message-id-deduplicated']);
/** How a send may be delivered again. */
export type DeliveryMode = z.infer<typeof DeliveryMode>;

/**
The agent a send goes to, as discovered and pinned: the card's digest, the selected interface's binding and
URL, and the pin's tenant.
*/
export const AgentIdentity = z.strictObject({
  cardDigest: Sha256Digest,
  binding: z.enum(['JSONRPC', 'HTTP+JSON', 'GRPC']),
  url: Url,
  tenant: z.optional(Id),
});
/** The agent a send goes to. */
export type AgentIdentity = z.infer<typeof AgentIdentity>;

/**
True when `left` and `right` are the same JSON value, member order aside; `undefined` anywhere is not JSON and
never equal.
*/
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

// A valid outbound message (role user), kept exactly as given: decoding it must not change it, or the stored
// message would no longer be the one that was sent.
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

export const intentShape = {
  /** The invocation id: the logical send, stable across attempts. */
  id: Id,
  /** A local tenant label (never sent). */
  tenant: Label,
  /** A local run label (never sent). */
  run: Label,
  agent: AgentIdentity,
  /**
  The message as built by the caller; each attempt sends it with its own `messageId` and `contextId` (see
  `attemptMessage`).
  */
  message: ExactMessage,
  delivery: DeliveryMode,
  /** The idempotency key, present exactly when `delivery` is `keyed`. */
  idempotencyKey: z.optional(Id),
  /**
  The W3C Trace Context `traceparent` of the send, where tracing was on (docs/tracing.md#durable-sends), and
  its `tracestate` when it had one: each a label of at most 512 bytes, the `tracestate` length W3C Trace
  Context §3.3.1.5 asks every vendor to propagate. The ledger keeps them as bounded labels;
  `@surecall/client/otel`, which writes them, reads them back through the propagator, which refuses a context
  that is not W3C Trace Context, so a later reconciliation links to a well-formed one or to none. Nothing else
  of the carrier is kept: no header, no token.
  */
  traceparent: z.optional(Label),
  /** The send's `tracestate`, beside its `traceparent`. */
  tracestate: z.optional(Label),
};

export function checkIntent(
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

/**
An object literal, a `JSON.parse` result or a null-prototype object, every member of it named in `names`: no
class instance, whose prototype may bring accessors and members of its own.
*/
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

// The intent's members but its trace context: an intent with one is the schema's to decide.
const intentNames = new Set(['id', 'tenant', 'run', 'agent', 'message', 'delivery', 'idempotencyKey']);
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
  // In the caller's member order, as the schema path's JSON copy keeps it, and from the values checked above:
  // a member is read once.
  const members: Readonly<Record<string, unknown>> = { messageId, contextId, taskId, role, parts: copied };
  const message: Record<string, unknown> = {};
  for (const name in value) {
    message[name] = members[name];
  }
  return message as Message;
}

/**
The intent most callers write, checked by the very rules of {@link SendIntent} without running the schemas,
and copied: plain objects, every member defined, an agent identity, and a user message whose parts are all
text. It returns `undefined` for anything else (metadata, other parts, an explicit `undefined`, a class
instance, any rule broken), which the schema then decides, with its error. An intent it accepts is one the
schema accepts and decodes to an equal value (`record.test.ts` checks both ways on generated intents); it
exists because the schema path cost a file ledger about a seventh of its commits per second with 256 writers.
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
    !sha256DigestPattern.test(cardDigest) ||
    (binding !== 'JSONRPC' && binding !== 'HTTP+JSON' && binding !== 'GRPC') ||
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
