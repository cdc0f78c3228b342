/**
@module
The options of a durable agent (docs/durable-send.md#the-promise; docs/durable-send.md#binding-a-client,
docs/durable-send.md#delivery-modes, docs/durable-send.md#recovery-modes): how a send is delivered, how an
unknown outcome is reconciled, and the operator's attestation where one is needed, validated and merged in one
place (CONTRIBUTING.md#options). Every refusal is an `OptionsError` naming the option, thrown when the agent
is built, before anything is sent.
*/
import type { A2aClient } from '../client/client.js';
import { OptionsError } from '../core/errors.js';
import type { DeliveryMode } from '../ledger/intent.js';
import type { Ledger } from '../ledger/ledger.js';
import { maxDelayMs } from '../ledger/record.js';
import { contractBounds } from '../protocol/bounds.js';
import { labelRule } from '../protocol/text.js';
import { currentEnvironment, type DurableEnvironment } from './environment.js';

/**
An operator's written word that the peer deduplicates `messageId` durably
(docs/durable-send.md#delivery-modes): A2A itself does not require a receiver to, so `message-id-deduplicated`
delivery and `message-id-replay` recovery are never inferred from a card. The fields are what an audit asks
for (docs/durable-send.md#delivery-modes): who vouches, where the evidence is, and how long the peer keeps a
messageId, which must cover the ledger's retention and disaster-recovery window.

@example
```ts
const attestation: DeduplicationAttestation = {
  owner: 'payments-platform',
  evidence: 'https://wiki.example/adr/0042-partner-dedup',
  retentionMs: 30 * 24 * 3_600_000,
};
```
*/
export type DeduplicationAttestation = {
  /** Who vouches: a team or a person. */
  readonly owner: string;
  /** Where the evidence lives: a contract, a test run, a runbook. */
  readonly evidence: string;
  /** How long the peer keeps a messageId deduplicated, in milliseconds. */
  readonly retentionMs: number;
};

/**
How an unknown outcome is reconciled (docs/durable-send.md#recovery-modes). Without one (`disabled`), an
unknown send stays unknown for a person: no probe ever leaves.

- `keyed`: re-send the identical keyed message; a peer that honours keys answers with the task the first
  attempt created, or runs it now if it never arrived. Needs `keyed` delivery.
- `context-history`: the original send carried a one-way opaque contextId; scan `ListTasks` of that context,
  at most `maxPages` pages of 100 tasks with the last `historyLength` messages each, for exactly one task
  whose history holds the message unchanged. Never re-sends. The peer must keep client-supplied contextIds and
  the user message in its history (the operator's word, as in StateKnot's client:
  docs/durable-send.md#the-stateknot-profile).
- `message-id-replay`: re-send the exact original under the operator's attestation that the peer deduplicates
  its messageId. Needs `message-id-deduplicated` delivery.

`retryAfterMs` is the wait before the next probe when one found nothing or failed transiently, 1 ms to 1 h;
after `maxProbes` such probes the record stays unknown with the reason `no-evidence`.

@example
```ts
const recovery: RecoveryStrategy = { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 1000 };
```
*/
export type RecoveryStrategy =
  | { readonly kind: 'disabled' }
  | {
      readonly kind: 'keyed';
      /** @default 1000 */
      readonly retryAfterMs?: number;
      /** @default 10 */
      readonly maxProbes?: number;
    }
  | {
      readonly kind: 'context-history';
      /** Pages of 100 tasks a probe may read, 1 to 16. */
      readonly maxPages: number;
      /** History messages asked for per task, 1 to 256. */
      readonly historyLength: number;
      /** 1 ms to 1 h. */
      readonly retryAfterMs: number;
      /** @default 10 */
      readonly maxProbes?: number;
      /** Ask for the tasks' artifacts too. @default false */
      readonly includeArtifacts?: boolean;
    }
  | {
      readonly kind: 'message-id-replay';
      readonly attestation: DeduplicationAttestation;
      /** @default 1000 */
      readonly retryAfterMs?: number;
      /** @default 10 */
      readonly maxProbes?: number;
    };

/**
What `durableAgent` takes. The client should be built without a retry policy: a durable send is sent once and
reconciled, never retried behind the ledger's back (the agent stops any retry the client starts, see
`durable.ts`).

@example
```ts
const agent = durableAgent({
  client,
  ledger: await openLedger({ name: 'sends' }),
  recovery: { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 1000 },
});
```
*/
export type DurableAgentOptions = {
  readonly client: A2aClient;
  readonly ledger: Ledger;
  /**
  How a send may be delivered again (docs/durable-send.md#delivery-modes). `keyed` needs a peer that honours
  keys (`client.honoursIdempotency`); `message-id-deduplicated` needs `message-id-replay` recovery and its
  attestation; `at-most-once` in a browser needs `acknowledgeBrowserResend`. @default 'keyed' where the peer
  honours keys, else 'at-most-once'
  */
  readonly delivery?: DeliveryMode;
  /**
  @default `{ kind: 'keyed' }` for keyed delivery, {@link defaultContextHistory} for at-most-once; none for
    message-id-deduplicated, which needs its attested replay
  */
  readonly recovery?: RecoveryStrategy;
  /**
  The caller's acknowledgement that a browser may send an `at-most-once` message twice by itself
  (docs/interop.md#browsers: Chromium re-sends a POST whose reused connection closed without an answer), so
  such a send can run twice. Without it, `at-most-once` delivery is refused in a browser. Only `true` is
  accepted.
  */
  readonly acknowledgeBrowserResend?: true;
  /**
  After each commit, scan the send's recovery context once (the recovery's bounds) and turn the record
  `duplicated` when a second task holds the message (docs/durable-send.md#the-audit). Needs context-history
  recovery. @default true for at-most-once delivery in a browser under context-history recovery, else false
  */
  readonly audit?: boolean;
  /** The local tenant label written on every record (never sent). @default 'default' */
  readonly tenant?: string;
  /** The local run label written on every record (never sent). @default 'default' */
  readonly run?: string;
  /**
  A skill id of the card whose security requirements choose the token's scopes, for sends and probes alike.
  */
  readonly skill?: string;
};

/** {@link RecoveryStrategy} after validation: every default applied. */
export type ResolvedRecovery =
  | { readonly kind: 'disabled' }
  | { readonly kind: 'keyed'; readonly retryAfterMs: number; readonly maxProbes: number }
  | {
      readonly kind: 'context-history';
      readonly maxPages: number;
      readonly historyLength: number;
      readonly retryAfterMs: number;
      readonly maxProbes: number;
      readonly includeArtifacts: boolean;
    }
  | {
      readonly kind: 'message-id-replay';
      readonly attestation: DeduplicationAttestation;
      readonly retryAfterMs: number;
      readonly maxProbes: number;
    };

/** {@link DurableAgentOptions} after validation: nothing is optional but the skill. */
export type ResolvedDurableAgentOptions = {
  readonly client: A2aClient;
  readonly ledger: Ledger;
  readonly delivery: DeliveryMode;
  readonly recovery: ResolvedRecovery;
  readonly audit: boolean;
  readonly tenant: string;
  readonly run: string;
  readonly skill: string | undefined;
};

/**
The recovery an at-most-once agent gets when none is given: a scan of the send's own context, 4 pages of 100
tasks with their last 64 messages, probed again after 1 s, at most 10 times
(docs/durable-send.md#recovery-modes).
*/
export const defaultContextHistory = Object.freeze({
  kind: 'context-history',
  maxPages: 4,
  historyLength: 64,
  retryAfterMs: 1000,
  maxProbes: 10,
  includeArtifacts: false,
} as const);

/** No recovery: the value of `{ kind: 'disabled' }` once resolved. */
const disabledRecovery = Object.freeze({ kind: 'disabled' } as const);

/**
The fixed defaults of a durable agent's optional options; the delivery, recovery and audit defaults depend on
the peer and the environment (see {@link DurableAgentOptions}).
*/
export const defaultDurableAgentOptions = Object.freeze({
  tenant: 'default',
  run: 'default',
  retryAfterMs: 1000,
  maxProbes: 10,
} as const);

/**
The ceilings of the recovery options. `maxPages` and `historyLength` are those of StateKnot's A2A client
(docs/durable-send.md#the-stateknot-profile; docs/durable-send.md#recovery-modes: 16 pages, 256 messages, the
latter also the client's history bound); `retryAfterMs` is the ledger's longest pending delay (1 h);
`maxProbes` bounds how long a record can keep a probe scheduled.
*/
export const recoveryCeilings = Object.freeze({
  maxPages: 16,
  historyLength: contractBounds.historyMessages,
  retryAfterMs: maxDelayMs,
  maxProbes: 1000,
});

/** A whole-number option within `min..max`, else the `OptionsError` naming it. */
export function wholeOption(option: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new OptionsError(option, 'not-a-whole-number');
  }
  if (value < min) {
    throw new OptionsError(option, 'below-minimum', min);
  }
  if (value > max) {
    throw new OptionsError(option, 'above-ceiling', max);
  }
  return value;
}

function label(option: string, value: unknown): string {
  if (typeof value !== 'string' || labelRule(value, contractBounds.labelBytes) !== undefined) {
    throw new OptionsError(option, 'malformed');
  }
  return value;
}

/** An options object as it may arrive from JavaScript: each named member is present or not, of any type. */
type Loose<K extends string> = { readonly [P in K]?: unknown };

function object<K extends string>(option: string, value: unknown): Loose<K> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OptionsError(option, 'malformed');
  }
  return value as Loose<K>;
}

type RecoveryFields =
  | 'kind'
  | 'maxPages'
  | 'historyLength'
  | 'retryAfterMs'
  | 'maxProbes'
  | 'includeArtifacts'
  | 'attestation';

function attestationOf(value: unknown): DeduplicationAttestation {
  const given = object<keyof DeduplicationAttestation>('recovery.attestation', value);
  return Object.freeze({
    owner: label('recovery.attestation.owner', given.owner),
    evidence: label('recovery.attestation.evidence', given.evidence),
    retentionMs: wholeOption(
      'recovery.attestation.retentionMs',
      given.retentionMs,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
  });
}

function probing(given: Loose<RecoveryFields>, retryRequired: boolean) {
  const retryAfterMs = given.retryAfterMs;
  if (retryRequired && retryAfterMs === undefined) {
    throw new OptionsError('recovery.retryAfterMs', 'malformed');
  }
  return {
    retryAfterMs: wholeOption(
      'recovery.retryAfterMs',
      retryAfterMs ?? defaultDurableAgentOptions.retryAfterMs,
      1,
      recoveryCeilings.retryAfterMs,
    ),
    maxProbes: wholeOption(
      'recovery.maxProbes',
      given.maxProbes ?? defaultDurableAgentOptions.maxProbes,
      1,
      recoveryCeilings.maxProbes,
    ),
  };
}

/**
The recovery a delivery gets when none is given: the keyed replay for keyed sends, the context scan for
at-most-once ones; a message-id-deduplicated send has no default, its replay needs the operator's attestation.
*/
function defaultRecovery(delivery: DeliveryMode): RecoveryStrategy {
  switch (delivery) {
    case 'keyed':
      return { kind: 'keyed' };
    case 'at-most-once':
      return defaultContextHistory;
    case 'message-id-deduplicated':
      return disabledRecovery;
  }
}

function resolveRecovery(value: unknown): ResolvedRecovery {
  const given = object<RecoveryFields>('recovery', value);
  switch (given.kind) {
    case 'disabled':
      return disabledRecovery;
    case 'keyed':
      return Object.freeze({ kind: 'keyed', ...probing(given, false) });
    case 'message-id-replay':
      return Object.freeze({
        kind: 'message-id-replay',
        attestation: attestationOf(given.attestation),
        ...probing(given, false),
      });
    case 'context-history': {
      const includeArtifacts = given.includeArtifacts ?? false;
      if (typeof includeArtifacts !== 'boolean') {
        throw new OptionsError('recovery.includeArtifacts', 'malformed');
      }
      return Object.freeze({
        kind: 'context-history',
        maxPages: wholeOption('recovery.maxPages', given.maxPages, 1, recoveryCeilings.maxPages),
        historyLength: wholeOption(
          'recovery.historyLength',
          given.historyLength,
          1,
          recoveryCeilings.historyLength,
        ),
        ...probing(given, true),
        includeArtifacts,
      });
    }
    default:
      throw new OptionsError('recovery.kind', 'unsupported');
  }
}

/**
Validates a durable agent's options and applies the defaults. Throws `OptionsError` naming the option:

- `client` or `ledger` missing (`malformed`); `tenant`, `run` or `skill` not a label (`malformed`);
- `delivery` not a delivery mode (`unsupported`); `keyed` delivery to a peer that does not honour keys
  (`not-satisfied`: a foreign peer would run a re-sent message again);
- `recovery.kind` unknown (`unsupported`); `maxPages` outside 1–16, `historyLength` outside 1–256,
  `retryAfterMs` outside 1 ms–1 h, `maxProbes` outside 1–1000 (`below-minimum`, `above-ceiling`,
  `not-a-whole-number`); `retryAfterMs` missing for context-history (`malformed`); an attestation whose owner
  or evidence is not a label or whose retention is not a positive whole number;
- `recovery` that does not fit the delivery (`inconsistent`, docs/durable-send.md#binding-a-client): `keyed`
  recovery without `keyed` delivery; `message-id-replay` without `message-id-deduplicated` delivery, and the
  reverse (that delivery exists only for the attested replay);
- in a browser, `at-most-once` delivery without `acknowledgeBrowserResend: true` (`acknowledgeBrowserResend`,
  `not-satisfied`; docs/interop.md#browsers); `acknowledgeBrowserResend` anything but `true` (`malformed`);
- `audit` not a boolean (`malformed`), or `true` without context-history recovery (`inconsistent`: the audit
  scans the send's recovery context).

@example
```ts
resolveDurableAgentOptions({ client, ledger, delivery: 'keyed' }); // OptionsError('delivery', 'not-satisfied') when the card does not advertise keys
resolveDurableAgentOptions({ client, ledger, delivery: 'at-most-once' }, { browser: true }); // OptionsError('acknowledgeBrowserResend', 'not-satisfied')
```
*/
export function resolveDurableAgentOptions(
  options: DurableAgentOptions,
  environment: DurableEnvironment = currentEnvironment(),
): ResolvedDurableAgentOptions {
  const given = object<keyof DurableAgentOptions>('options', options);
  object('client', options.client);
  object('ledger', options.ledger);
  // docs/durable-send.md#delivery-modes: keyed wherever the peer honours keys, since its key index turns any
  // re-send, a browser's own included, into a replay.
  const delivery = given.delivery ?? (options.client.honoursIdempotency ? 'keyed' : 'at-most-once');
  if (delivery !== 'at-most-once' && delivery !== 'keyed' && delivery !== 'message-id-deduplicated') {
    throw new OptionsError('delivery', 'unsupported');
  }
  // docs/idempotency.md#honouring-peers: the card is the only evidence; a peer that never heard of keys runs
  // a re-sent message again.
  if (delivery === 'keyed' && !options.client.honoursIdempotency) {
    throw new OptionsError('delivery', 'not-satisfied');
  }
  const acknowledged = given.acknowledgeBrowserResend;
  if (acknowledged !== undefined && acknowledged !== true) {
    throw new OptionsError('acknowledgeBrowserResend', 'malformed');
  }
  // docs/interop.md#browsers: a browser re-sends a POST whose reused connection closed without an answer, and
  // an unkeyed message then runs twice; only the caller can accept that.
  if (environment.browser && delivery === 'at-most-once' && acknowledged !== true) {
    throw new OptionsError('acknowledgeBrowserResend', 'not-satisfied');
  }
  const recovery = resolveRecovery(given.recovery ?? defaultRecovery(delivery));
  if (recovery.kind === 'keyed' && delivery !== 'keyed') {
    throw new OptionsError('recovery', 'inconsistent');
  }
  // docs/durable-send.md#binding-a-client, RecoveryDeliveryMismatch: the replay is safe only for the
  // deduplicated messageId, and that delivery serves only the attested replay.
  if ((recovery.kind === 'message-id-replay') !== (delivery === 'message-id-deduplicated')) {
    throw new OptionsError('recovery', 'inconsistent');
  }
  const audit =
    given.audit ??
    (environment.browser && delivery === 'at-most-once' && recovery.kind === 'context-history');
  if (typeof audit !== 'boolean') {
    throw new OptionsError('audit', 'malformed');
  }
  if (audit && recovery.kind !== 'context-history') {
    throw new OptionsError('audit', 'inconsistent');
  }
  const skill = given.skill === undefined ? undefined : label('skill', given.skill);
  return Object.freeze({
    client: options.client,
    ledger: options.ledger,
    delivery,
    recovery,
    audit,
    tenant: label('tenant', given.tenant ?? defaultDurableAgentOptions.tenant),
    run: label('run', given.run ?? defaultDurableAgentOptions.run),
    skill,
  });
}
