import type { A2aClient } from '@surecall/client';
import type { ActiveFault, FaultSpec } from '@surecall/mocks';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createFaultLabClient, FaultLabError } from '../fault-lab.js';
import type { ExecutionCount } from '../model/faults.js';

/** What the Faults panel shows of the lab. */
export type FaultLabState =
  | { readonly status: 'loading' }
  | { readonly status: 'unavailable'; readonly reason: string }
  | {
      readonly status: 'ready';
      readonly faults: readonly ActiveFault[];
      readonly executions: ExecutionCount;
      /** The last action's failure, if it failed. */
      readonly problem: string | undefined;
    };

/** The lab and what can be done with it. */
export type FaultLab = {
  readonly state: FaultLabState;
  arm(spec: FaultSpec): Promise<void>;
  disarm(ids: readonly string[]): Promise<void>;
  disarmAll(): Promise<void>;
  resetExecutions(): Promise<void>;
  refresh(): Promise<void>;
};

function reasonOf(error: unknown): string {
  return error instanceof FaultLabError ? error.message : 'The fault lab failed';
}

/**
The mock agent's fault lab at `origin` (reached with `token` when the agent is a loopback one that demands
it): its armed faults and execution counter, refreshed after every action and whenever a client call ends (a
fault is spent by the call it hits), and the actions of the Faults panel.

@example
```ts
const lab = useFaultLab(origin, client, sends.map((send) => send.messageId));
await lab.arm({ kind: 'drop-after', operation: 'SendMessage' });
```
*/
export function useFaultLab(
  origin: string,
  client: Pick<A2aClient, 'events'>,
  messageIds: readonly string[],
  token?: string,
): FaultLab {
  const lab = useMemo(() => createFaultLabClient(origin, token), [origin, token]);
  const [state, setState] = useState<FaultLabState>({ status: 'loading' });
  const ids = useRef(messageIds);
  ids.current = messageIds;
  const refresh = useCallback(
    async (problem?: string) => {
      try {
        const [faults, executions] = await Promise.all([lab.list(), lab.executions(ids.current)]);
        setState({ status: 'ready', faults, executions, problem });
      } catch (error) {
        setState({ status: 'unavailable', reason: reasonOf(error) });
      }
    },
    [lab],
  );
  const act = useCallback(
    async (action: () => Promise<unknown>) => {
      let problem: string | undefined;
      try {
        await action();
      } catch (error) {
        problem = reasonOf(error);
      }
      await refresh(problem);
    },
    [refresh],
  );
  const idList = messageIds.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the joined ids stand for the list, so a new array with the same ids does not refetch.
  useEffect(() => {
    void refresh();
  }, [refresh, idList]);
  useEffect(
    () =>
      client.events.subscribe((event) => {
        if (event.type === 'response' || event.type === 'error' || event.type === 'stream-end') {
          void refresh();
        }
      }),
    [client.events, refresh],
  );
  return {
    state,
    arm: (spec) => act(() => lab.arm(spec)),
    disarm: (faultIds) => act(() => Promise.all(faultIds.map((id) => lab.disarm(id)))),
    disarmAll: () => act(() => lab.disarm()),
    resetExecutions: () => act(() => lab.resetExecutions()),
    refresh: () => refresh(),
  };
}
