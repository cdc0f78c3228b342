import { type A2aClient, type DurableAgent, defaultLimits } from '@surecall/client';
import type { Ledger } from '@surecall/client/ledger';
import { useState } from 'react';
import { useEventCount } from '../hooks/use-event-count.js';
import { useFeed } from '../hooks/use-feed.js';
import { useRecovery } from '../hooks/use-recovery.js';
import { useSendBox } from '../hooks/use-send-box.js';
import { useSends } from '../hooks/use-sends.js';
import type { ConnectionFacts } from '../model/agent-view.js';
import type { DevtoolsDelivery, LedgerRole } from '../model/durable-setup.js';
import type { MeterLimits } from '../model/meters.js';
import { devtoolsTabs } from '../model/tabs.js';
import { AgentPanel } from './agent-panel.js';
import { AppShell } from './app-shell.js';
import { FaultsPanel } from './faults-panel.js';
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
  /** What the client was built from that it does not publish: card URL, pin, security, requested extensions. */
  readonly connection?: ConnectionFacts;
  /** The card's JSON as fetched (what the digest covers); the client's decoded card is shown without it. */
  readonly rawCard?: unknown;
  /** The origin of a mock agent's control routes (`/__faults`, `/__executions`): shows the Faults panel. */
  readonly faultLab?: string;
  /** The control token a loopback mock agent demands on those routes (`x-surecall-mock-token`; docs/interop.md#loopback-server-security). The embedded mock needs none. */
  readonly faultLabToken?: string;
  /** The bounds the client was built with, for the stream meters. @default defaultLimits */
  readonly limits?: MeterLimits;
  /** A durable agent: the send box's “Durable send”, the inbox's reconcile actions, and its `events` for the Recovery panel. */
  readonly agent?: DurableAgent;
  /** The pending-send ledger the agent writes: the Sends panel reads it through `list`, `history` and `subscribe`. */
  readonly ledger?: Ledger;
  /** Whether this tab writes the ledger or follows the tab that does (IndexedDB, Web Locks), for the status line. */
  readonly ledgerRole?: LedgerRole;
  /** Lets a person choose the agent's delivery mode among those the peer allows; the host rebuilds the agent. */
  readonly delivery?: DeliveryControl;
};

/** The delivery modes on offer and the current one, with the acknowledgement at-most-once needs in a browser (docs/interop.md#browsers). */
export type DeliveryControl = {
  readonly choices: readonly DevtoolsDelivery[];
  readonly current: DevtoolsDelivery;
  onChoose(delivery: DevtoolsDelivery): void;
  /** Whether a person acknowledged that the browser may send an at-most-once message twice. */
  readonly acknowledged?: boolean;
  onAcknowledge?(acknowledged: boolean): void;
  /** Why no durable agent could be built for the current choice; the Durable send button waits for it to clear. */
  readonly refusal?: string | undefined;
};

/** A durable event that says a send ran more than once (docs/durable-send.md#duplicated). */
function isDuplicated(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'duplicated';
}

/**
The devtools as one embeddable panel: a send box, then the Agent, Tasks and Streams panels, Sends (with a ledger), Recovery (with a durable agent) and Faults (with a fault lab). It reads the client only through its public fields and events (CONTRIBUTING.md#devtools); mount it before the calls you want to see.

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
}: SurecallDevtoolsProps) {
  const [feed, dispatch] = useFeed(client);
  const box = useSendBox(client);
  const tabs = devtoolsTabs({
    faultLab: faultLab !== undefined,
    ledger: ledger !== undefined,
    agent: agent !== undefined,
  });
  const [tab, setTab] = useState('agent');
  const [focusTask, setFocusTask] = useState<string | undefined>(undefined);
  const agentEvents = useEventCount(agent?.events);
  const duplicates = useEventCount(agent?.events, isDuplicated);
  const ledgerChanges = useEventCount(ledger);
  const sends = useSends(ledger);
  const spans = useRecovery(agent?.events);
  const [durableProblem, setDurableProblem] = useState<string | undefined>(undefined);
  const durableSend = async (text: string): Promise<void> => {
    if (agent === undefined) {
      return;
    }
    setDurableProblem(undefined);
    setTab('sends');
    try {
      await agent.send({ role: 'ROLE_USER', parts: [{ text }] });
    } catch (error) {
      // A refusal before anything left (a follower tab's ledger, invalid input): public-safe names only.
      setDurableProblem(
        `The durable send was refused: ${error instanceof Error && 'reason' in error ? String(error.reason) : 'unexpectedly'}`,
      );
    }
  };
  const current = tabs.some((entry) => entry.id === tab) ? tab : 'agent';
  const latestTask = box.sends.find((send) => send.taskId !== undefined)?.taskId;

  const status = (
    <span data-testid="feed-status">
      client: {feed.events} events · {feed.calls} calls · {feed.failures} failed
      {agentEvents === undefined ? '' : ` · durable agent: ${agentEvents} events`}
      {duplicates === undefined || duplicates === 0 ? null : (
        <span data-testid="duplicated-count"> · {duplicates} duplicated</span>
      )}
      {ledgerChanges === undefined ? '' : ` · ledger: ${ledgerChanges} changes`}
      {ledgerRole === undefined ? null : (
        <span data-testid="ledger-role">
          {ledgerRole === 'writer'
            ? ' · this tab writes the ledger'
            : ' · this tab follows the ledger (another tab writes)'}
        </span>
      )}
    </span>
  );

  return (
    <div className="surecall-devtools">
      <SendBox
        box={box}
        streaming={client.card.capabilities.streaming}
        {...(agent === undefined && delivery === undefined
          ? {}
          : {
              durable: {
                ...(agent === undefined ? {} : { send: (text: string) => void durableSend(text) }),
                ...(delivery === undefined ? {} : { delivery }),
              },
            })}
        onOpenTask={(taskId) => {
          setFocusTask(taskId);
          setTab('tasks');
        }}
      />
      <AppShell
        tabs={tabs}
        current={current}
        onSelect={setTab}
        status={status}
        panels={{
          agent: <AgentPanel client={client} connection={connection} rawCard={rawCard ?? client.card} />,
          tasks: (
            <TasksPanel
              client={client}
              tasks={feed.tasks}
              dispatch={dispatch}
              focusTaskId={focusTask ?? latestTask}
            />
          ),
          streams: <StreamsPanel streams={feed.streams} limits={limits} />,
          ...(ledger === undefined
            ? {}
            : {
                sends: (
                  <SendsPanel
                    sends={sends}
                    {...(agent === undefined ? {} : { agent })}
                    problem={durableProblem}
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
                  />
                ),
              }),
        }}
      />
    </div>
  );
}
