/**
@module
Which records belong to a durable agent (docs/durable-send.md#whose-record-it-is): a record belongs to the
interface it was sent through, its binding, URL and tenant, the three things that decide where a probe goes.
The card's digest is kept on the record as evidence of what the card said then, and does not decide: an
agent's card changes with every redeploy (a version bump, a new skill), and a send made before it must stay
reconcilable after it.
*/
import type { A2aClient } from '../client/client.js';
import { LedgerError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { type AgentIdentity, type LedgerRecord, sameInterface } from '../ledger/ledger.js';

/**
The identity written on every record a client sends: the pinned interface (`client.pin`: binding, URL, tenant)
and, as evidence, the digest of the card the client was built from.

@example
```ts
agentIdentity(client); // { cardDigest: 'sha256:…', binding: 'JSONRPC', url: 'https://agent.example/a2a' }
```
*/
export function agentIdentity(client: A2aClient): AgentIdentity {
  const { binding, url, tenant } = client.pin;
  return { cardDigest: client.cardDigest, binding, url, ...optionalMembers({ tenant }) };
}

/**
Which part of the interface differs, in the order a probe depends on them: the binding, the URL, the tenant.
*/
export type InterfaceMismatch = 'binding-mismatch' | 'url-mismatch' | 'tenant-mismatch';

/**
How `record`'s interface differs from `identity`'s, or `undefined` when it is the same interface (the card
digests may differ: that is a redeploy, not another agent).

@example
```ts
interfaceMismatch(record.agent, agentIdentity(client)); // undefined after a card edit; 'url-mismatch' for another agent
```
*/
export function interfaceMismatch(
  recorded: AgentIdentity,
  identity: AgentIdentity,
): InterfaceMismatch | undefined {
  if (recorded.binding !== identity.binding) {
    return 'binding-mismatch';
  }
  if (recorded.url !== identity.url) {
    return 'url-mismatch';
  }
  if (recorded.tenant !== identity.tenant) {
    return 'tenant-mismatch';
  }
  return undefined;
}

/**
True when `record` was sent through the interface `identity` names: such an agent may probe it, and lists it
among its own.

@example
```ts
(await ledger.list({ states: ['unknown'] })).filter((record) => sentThrough(record, agentIdentity(client)));
```
*/
export function sentThrough(record: Pick<LedgerRecord, 'agent'>, identity: AgentIdentity): boolean {
  return sameInterface(record.agent, identity);
}

/**
Throws unless `record` was sent through `identity`'s interface: `LedgerError('invalid-input')` whose rule says
which part differs (`binding-mismatch`, `url-mismatch`, `tenant-mismatch`). A probe through another interface
would look in the wrong place, or run the send there.

@example
```ts
assertSentThrough(record, agentIdentity(client)); // LedgerError: surecall ledger: invalid-input: url-mismatch
```
*/
export function assertSentThrough(record: Pick<LedgerRecord, 'agent'>, identity: AgentIdentity): void {
  const mismatch = interfaceMismatch(record.agent, identity);
  if (mismatch !== undefined) {
    throw new LedgerError('invalid-input', { rule: mismatch });
  }
}
