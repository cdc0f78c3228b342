import { type A2aClient, type DurableAgent, defaultLimits } from '@surecall/client';
import type { Ledger } from '@surecall/client/ledger';
import { useState } from 'react';
import { useCallLog } from '../hooks/use-call-log.js';
import { useDurableSend } from '../hooks/use-durable-send.js';
import { useEventCount } from '../hooks/use-event-count.js';
import { useFeed } from '../hooks/use-feed.js';
import { usePanelNavigation } from '../hooks/use-panel-navigation.js';
import { useRecovery } from '../hooks/use-recovery.js';
import { useSendBox } from '../hooks/use-send-box.js';
import { useSends } from '../hooks/use-sends.js';
import type { ConnectionFacts } from '../model/agent-view.js';
import type { DevtoolsDelivery, LedgerRole } from '../model/durable-setup.js';
import type { MeterLimits } from '../model/meters.js';
import { latestTaskId } from '../model/send.js';
import { isDuplicated } from '../model/sends.js';
import { AgentPanel } from './agent-panel.js';
import { AppShell } from './app-shell.js';
import { CallsPanel } from './calls-panel.js';
import { FaultsPanel } from './faults-panel.js';
import { FeedStatus } from './feed-status.js';
import { RecoveryPanel } from './recovery-panel.js';
import { SendBox } from './send-box.js';
import { SendsPanel } from './sends-panel.js';
import { StreamsPanel } from './streams-panel.js';
import { TasksPanel } from './tasks-panel.js';

/**
Props of {@link SurecallDevtools}. Only `client` is needed; each other source adds what it can show.
*/
export type SurecallDevtoolsProps = {
  /** The client to watch and drive. The devtools read its public fields and `client.events`, nothing else. */
  readonly client: A2aClient;
  /**
  What the client was built from that it does not publish: card URL, pin, security, requested extensions.
  */
  readonly connection?: ConnectionFacts;
  /** The card's JSON as fetched (what the digest covers); the client's decoded card is shown without it. */
  readonly rawCard?: unknown;
  /** The origin of a mock agent's control routes (`/__faults`, `/__executions`): shows the Faults panel. */
  readonly faultLab?: string;
  /**
  The control token a loopback mock agent demands on those routes (`x-surecall-mock-token`;
  docs/interop.md#loopback-server-security). The embedded mock needs none.
  */
  readonly faultLabToken?: string;
  /** The bounds the client was built with, for the stream meters. @default defaultLimits */
  readonly limits?: MeterLimits;
  /**
  A durable agent: the send box's “Durable send”, the inbox's reconcile actions, and its `events` for the
  Recovery panel.
  */
  readonly agent?: DurableAgent;
  /**
  The pending-send ledger the agent writes: the Sends panel reads it through `list`, `history` and
  `subscribe`.
  */
  readonly ledger?: Ledger;
  /**
  Whether this tab writes the ledger or follows the tab that does (IndexedDB, Web Locks), for the status line.
  */
  readonly ledgerRole?: LedgerRole;
  /**
  Lets a person choose the agent's delivery mode among those the peer allows; the host rebuilds the agent.
  */
  readonly delivery?: DeliveryControl;
  /**
  The trace id of a call by its `callId`: a client's tracing's `traceIdOf` (`@surecall/client/otel`,
  docs/tracing.md#devtools). The Streams panel shows each traced stream's. A plain function, so the devtools
  load nothing of OpenTelemetry.
  */
  readonly traceIdOf?: (callId: number) => string | undefined;
};

/**
The delivery modes on offer and the current one, with the acknowledgement at-most-once needs in a browser
(docs/interop.md#browsers).
*/
export type DeliveryControl = {
  readonly choices: readonly DevtoolsDelivery[];
  readonly current: DevtoolsDelivery;
  onChoose(delivery: DevtoolsDelivery): void;
  /** Whether a person acknowledged that the browser may send an at-most-once message twice. */
  readonly acknowledged?: boolean;
  onAcknowledge?(acknowledged: boolean): void;
  /**
  Why no durable agent could be built for the current choice; the Durable send button waits for it to clear.
  */
  readonly refusal?: string | undefined;
};

/**
The devtools as one embeddable panel: a send box, then the Agent, Tasks and Streams panels, Sends (with a
ledger), Recovery (with a durable agent) and Faults (with a fault lab). It reads the client only through its
public fields and events (CONTRIBUTING.md#devtools); mount it before the calls you want to see.

@example
```tsx
import { SurecallDevtools } from '@surecall/devtools';

<SurecallDevtools client={client} agent={agent} ledger={ledger} faultLab="http://127.0.0.1:4100" />
```
*/
export function SurecallDevtools({
  client,
  connection,
  rawCard,
  faultLab,
  faultLabToken,
  limits = defaultLimits,
  agent,
  ledger,
  ledgerRole,
  delivery,
  traceIdOf,
}: SurecallDevtoolsProps) {
  const [feed, dispatch] = useFeed(client);
  const calls = useCallLog(client);
  const box = useSendBox(client);
  const navigation = usePanelNavigation({
    faultLab: faultLab !== undefined,
    ledger: ledger !== undefined,
    agent: agent !== undefined,
  });
  const agentEvents = useEventCount(agent?.events);
  const duplicates = useEventCount(agent?.events, isDuplicated);
  const ledgerChanges = useEventCount(ledger);
  const sends = useSends(ledger);
  const spans = useRecovery(agent?.events);
  const durable = useDurableSend(agent, () => navigation.select('sends'));
  // The durable send whose executions a person asked for from the Sends panel.
  const [focusRecord, setFocusRecord] = useState<string | undefined>(undefined);

  return (
    <div className="surecall-devtools">
      <SendBox
        box={box}
        streaming={client.card.capabilities.streaming}
        {...(durable.send === undefined && delivery === undefined
          ? {}
          : {
              durable: {
                ...(durable.send === undefined ? {} : { send: durable.send }),
                ...(delivery === undefined ? {} : { delivery }),
              },
            })}
        onOpenTask={navigation.openTask}
      />
      <AppShell
        tabs={navigation.tabs}
        current={navigation.current}
        onSelect={navigation.select}
        status={
          <FeedStatus
            feed={feed}
            agentEvents={agentEvents}
            duplicates={duplicates}
            ledgerChanges={ledgerChanges}
            ledgerRole={ledgerRole}
          />
        }
        panels={{
          agent: <AgentPanel client={client} connection={connection} rawCard={rawCard ?? client.card} />,
          tasks: (
            <TasksPanel
              client={client}
              tasks={feed.tasks}
              dispatch={dispatch}
              focusTaskId={navigation.focusTask ?? latestTaskId(box.sends)}
            />
          ),
          streams: <StreamsPanel streams={feed.streams} limits={limits} traceIdOf={traceIdOf} />,
          calls: <CallsPanel log={calls} />,
          ...(ledger === undefined
            ? {}
            : {
                sends: (
                  <SendsPanel
                    sends={sends}
                    {...(agent === undefined ? {} : { agent })}
                    problem={durable.problem}
                    {...(faultLab === undefined
                      ? {}
                      : {
                          onShowExecutions: (recordId: string) => {
                            setFocusRecord(recordId);
                            navigation.select('faults');
                          },
                        })}
                  />
                ),
              }),
          ...(agent === undefined ? {} : { recovery: <RecoveryPanel spans={spans} /> }),
          ...(faultLab === undefined
            ? {}
            : {
                faults: (
                  <FaultsPanel
                    origin={faultLab}
                    {...(faultLabToken === undefined ? {} : { token: faultLabToken })}
                    client={client}
                    sends={box.sends}
                    records={sends.records}
                    focusRecord={focusRecord}
                  />
                ),
              }),
        }}
      />
    </div>
  );
}
