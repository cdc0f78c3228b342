import type { A2aClient } from '@surecall/client';
import type { LedgerRecord } from '@surecall/client/ledger';
import { useFaultLab } from '../hooks/use-fault-lab.js';
import { useSwitchSettings } from '../hooks/use-switch-settings.js';
import { executionMessageIds, executionTable } from '../model/executions.js';
import type { SendRecord } from '../model/send.js';
import { ArmedFaults } from './armed-faults.js';
import { ExecutionCounter } from './execution-counter.js';
import { FaultLabUnavailable } from './fault-lab-unavailable.js';
import { FaultSwitches } from './fault-switches.js';

/** Props of {@link FaultsPanel}. */
export type FaultsPanelProps = {
  /** The origin of the mock agent's control routes. */
  readonly origin: string;
  /** The loopback mock agent's control token (`x-surecall-mock-token`), when it demands one. */
  readonly token?: string;
  readonly client: Pick<A2aClient, 'events'>;
  /** The send box's sends, whose executions the counter reports. */
  readonly sends: readonly SendRecord[];
  /** The ledger's durable sends, whose attempts' executions the counter reports too. */
  readonly records?: readonly LedgerRecord[];
  /** The durable send a person asked to see the executions of. */
  readonly focusRecord?: string | undefined;
};

/**
The mock agent's fault lab: switches per operation (lost responses, slow and broken streams, malformed
answers), the armed faults, and the execution counter, which shows that a lost answer's work still happened.

@example
```tsx
<FaultsPanel origin={location.origin} client={client} sends={sends} />
```
*/
export function FaultsPanel({ origin, token, client, sends, records = [], focusRecord }: FaultsPanelProps) {
  const lab = useFaultLab(origin, client, executionMessageIds(sends, records), token);
  const settings = useSwitchSettings(lab);
  const { state } = lab;

  if (state.status === 'loading') {
    return <p className="empty">Reaching the fault lab at {origin}…</p>;
  }
  if (state.status === 'unavailable') {
    return <FaultLabUnavailable origin={origin} reason={state.reason} onRetry={() => void lab.refresh()} />;
  }
  return (
    <div className="faults-panel columns">
      <div>
        <ExecutionCounter
          table={executionTable(sends, records, state.executions)}
          focusRecord={focusRecord}
          onRefresh={() => void lab.refresh()}
          onReset={() => void lab.resetExecutions()}
        />
        <ArmedFaults
          faults={state.faults}
          problem={state.problem}
          onDisarm={(faultId) => void lab.disarm([faultId])}
          onDisarmAll={() => void lab.disarmAll()}
        />
      </div>
      <FaultSwitches faults={state.faults} settings={settings} />
    </div>
  );
}
