/**
How many business actions the agent ran: the proof of what a retry did. A business action starts when a user
message starts work: a new task, a direct reply, or the continuation of a task waiting for input. A replayed
send, a read, a cancel or a refused request starts none.

@example
```ts
const agent = createAgent();
await agent.handle(keyedSend); // runs
await agent.handle(keyedSend); // replays the first task
expect(agent.executions.of(messageId)).toBe(1);
```
*/
export type Executions = {
  /** Business actions run in total. */
  total(): number;
  /** Business actions run for one messageId (of a tenant; '' = no tenant). */
  of(messageId: string, tenant?: string): number;
  /** Forget every count. */
  reset(): void;
};

/** The agent's side of {@link Executions}: the counter plus the call that records one action. */
export type ExecutionCounter = Executions & {
  /** Count one business action started by `messageId` of `tenant`. */
  record(tenant: string, messageId: string): void;
};

/**
A fresh counter. Counts are kept per `(tenant, messageId)`; the same messageId under two tenants is two
different messages.

@example
```ts
const counter = createExecutionCounter();
counter.record('', 'm-1');
counter.of('m-1'); // 1
```
*/
export function createExecutionCounter(): ExecutionCounter {
  // Keyed by tenant first, so no separator can make two (tenant, messageId) pairs collide.
  const byTenant = new Map<string, Map<string, number>>();
  let total = 0;
  return {
    total: () => total,
    of: (messageId, tenant = '') => byTenant.get(tenant)?.get(messageId) ?? 0,
    reset: () => {
      byTenant.clear();
      total = 0;
    },
    record: (tenant, messageId) => {
      let counts = byTenant.get(tenant);
      if (counts === undefined) {
        counts = new Map();
        byTenant.set(tenant, counts);
      }
      counts.set(messageId, (counts.get(messageId) ?? 0) + 1);
      total += 1;
    },
  };
}
