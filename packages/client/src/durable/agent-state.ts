/**
@module
What one durable agent holds (`AgentState`): its resolved options, the interface its records are sent through,
its event feed and the audit of its commits; and the one way every operation of the agent writes to the
ledger, announcing each change on the feed once it is durable (durable/events.ts).
*/
import type { AgentIdentity, LedgerRecord, LedgerTransition } from '../ledger/ledger.js';
import { createAuditor } from './audit.js';
import { createDurableEventHub, type DurableEventHub } from './events.js';
import { agentIdentity } from './identity.js';
import {
  type DurableAgentOptions,
  type ResolvedDurableAgentOptions,
  resolveDurableAgentOptions,
} from './options.js';

/** The state of one durable agent, shared by its send path (`send.ts`), its listings and its reconciler. */
export type AgentState = ResolvedDurableAgentOptions & {
  /** The interface the client is pinned to, which the agent's records carry (durable/identity.ts). */
  readonly identity: AgentIdentity;
  readonly hub: DurableEventHub;
  /** The audit scan after a commit (docs/durable-send.md#the-audit), writing through {@link write}. */
  readonly auditCommit: (record: LedgerRecord) => Promise<LedgerRecord>;
};

/**
The state of a new agent: its options resolved (an `OptionsError` for one that breaks a rule), the client's
interface, a fresh event feed and its auditor.

@example
```ts
const state = agentState({ client, ledger });
await send(state, { role: 'ROLE_USER', parts: [{ text: 'book it' }] });
```
*/
export function agentState(options: DurableAgentOptions): AgentState {
  const resolved = resolveDurableAgentOptions(options);
  const { client, ledger, recovery, skill } = resolved;
  const identity = agentIdentity(client);
  const hub = createDurableEventHub();
  const state: AgentState = {
    ...resolved,
    identity,
    hub,
    auditCommit: createAuditor({
      client,
      recovery,
      skill,
      emit: hub.emit,
      write: (record, transition) => write(state, record, transition),
      reread: (id) => ledger.get(id),
    }),
  };
  return state;
}

/** Tells the feed of a move the ledger made durable: `from` is `null` for a creation. */
export function announce(
  state: AgentState,
  from: LedgerRecord['state']['status'] | null,
  to: Pick<LedgerRecord, 'id' | 'state' | 'revision'>,
  cause: 'create' | LedgerTransition['type'],
): void {
  const { state: recordState } = to;
  state.hub.emit({
    type: 'transition',
    id: to.id,
    from,
    to: recordState.status,
    cause,
    ...(recordState.status === 'unknown' ? { reason: recordState.reason } : {}),
    ...(cause === 'pending' && recordState.status === 'unknown' && recordState.pending !== undefined
      ? { notBefore: recordState.pending.notBefore }
      : {}),
    revision: to.revision,
    time: Date.now(),
  });
}

/** Appends `transition` to the record's head and announces it. */
export async function write(
  state: AgentState,
  record: LedgerRecord,
  transition: LedgerTransition,
): Promise<LedgerRecord> {
  const next = await state.ledger.transition(record.id, record.revision, transition);
  announce(state, record.state.status, next, transition.type);
  return next;
}
