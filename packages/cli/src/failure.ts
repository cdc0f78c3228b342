/**
@module
An error in words a person can act on, and the exit code it means. Every library error's message is already
public-safe (ARCHITECTURE.md#errors: constants, rule ids, never remote text, a body, a token or a URL); an
error of any other kind is named by its class only.
*/
import { isClientError } from '@surecall/client';
import { UsageError } from './args.js';
import { SetupError } from './connect.js';
import { discoveryText } from './discovery-failure.js';
import { type ExitCode, exitCodes } from './exit-code.js';

/** What a failure means for the caller: the words, and the exit code. */
export type Failure = { readonly code: ExitCode; readonly text: string; readonly usage: boolean };

type Named = {
  readonly name?: unknown;
  readonly detail?: unknown;
  readonly httpStatus?: unknown;
  readonly kind?: unknown;
  readonly reason?: unknown;
  readonly rule?: unknown;
  readonly message?: unknown;
};

// docs/durable-send.md#classifying-a-failure: the A2A codes an agent answers before applying anything.
const notAppliedCodes: ReadonlySet<number> = new Set([
  -32700, -32600, -32602, -32601, -32004, -32005, -32008, -32009,
]);

const hints: Readonly<Record<string, string>> = {
  transport: 'the connection failed or a deadline passed',
  'http-protocol': 'the peer answered, but not in A2A',
  remote: 'the agent answered with an A2A error',
  'invalid-response': "the agent's answer broke the protocol",
  request: 'the request broke a rule before it left',
  authorization: 'no credentials could be obtained',
  capability: "the agent's card does not declare what this needs",
};

const ledgerHints: Readonly<Record<string, string>> = {
  locked:
    'another process holds the ledger file (a send or a reconciliation under way); try again when it ends',
  corrupt: 'the ledger file does not verify: keep it for a person to examine',
  'agent-mismatch': 'the record was sent to another agent, or to this one under another card',
  // A reading command opens the PostgreSQL ledger read-only, so it neither creates nor migrates its schema.
  schema: 'no surecall ledger in that PostgreSQL schema yet: the first send or reconcile creates it',
  // A durable send given the id of a record that holds another message
  // (docs/durable-send.md#ledger-identities).
  exists:
    'the ledger already holds a record with this id, for another message: an id names one message; give this send a new id, or look at the record with `surecall sends show <id>`',
  'schema-version':
    "the ledger's PostgreSQL schema is at another version: a send or reconcile of this version migrates it",
};

/**
The failure `error` means. A client error that left (`dispatched`) and was not refused before it applied
anything is an unknown outcome (exit 3): the send may have run.

@example
```ts
failureOf(new TransportError('network', { dispatched: true })).code; // 3
```
*/
export function failureOf(error: unknown): Failure {
  if (error instanceof UsageError) {
    return { code: exitCodes.usage, text: error.message, usage: true };
  }
  if (error instanceof SetupError) {
    return { code: exitCodes.usage, text: error.message, usage: false };
  }
  if (isClientError(error)) {
    const hint = hints[error.kind] ?? error.kind;
    const refused =
      error.kind === 'remote' && error.remoteCode !== undefined && notAppliedCodes.has(error.remoteCode);
    // The agent's own words, already inert: escaped, cut and the token masked by the client
    // (ARCHITECTURE.md#errors), so they print as they are, on this one line.
    const said =
      error.kind === 'remote' && error.remote !== undefined
        ? `; the agent said: ${error.remote.message}`
        : '';
    if (error.dispatched && !refused) {
      return {
        code: exitCodes.unknown,
        text: `${hint} after the request left, so it may have run: do not resend it blindly (${error.message})${said}`,
        usage: false,
      };
    }
    return {
      code: exitCodes.failed,
      text: `${hint}; nothing was applied (${error.message})${said}`,
      usage: false,
    };
  }
  const named = (typeof error === 'object' && error !== null ? error : {}) as Named;
  const message = typeof named.message === 'string' ? named.message : '';
  switch (named.kind) {
    case 'options':
      return { code: exitCodes.usage, text: message, usage: false };
    case 'discovery':
      return { code: exitCodes.failed, text: discoveryText(named), usage: false };
    case 'ledger':
      return {
        code: exitCodes.failed,
        text: `${ledgerHints[String(named.rule)] ?? ledgerHints[String(named.reason)] ?? 'the ledger refused'}: ${message}`,
        usage: false,
      };
  }
  return {
    code: exitCodes.failed,
    text: `unexpected ${typeof named.name === 'string' ? named.name : 'error'}`,
    usage: false,
  };
}
