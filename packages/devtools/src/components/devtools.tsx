import { type A2aClient, defaultLimits } from '@surecall/client';
import { useState } from 'react';
import { type Feed, useEventCount } from '../hooks/use-event-count.js';
import { useFeed } from '../hooks/use-feed.js';
import { useSendBox } from '../hooks/use-send-box.js';
import type { ConnectionFacts } from '../model/agent-view.js';
import type { MeterLimits } from '../model/meters.js';
import { devtoolsTabs } from '../model/tabs.js';
import { AgentPanel } from './agent-panel.js';
import { AppShell } from './app-shell.js';
import { FaultsPanel } from './faults-panel.js';
import { SendBox } from './send-box.js';
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
  /** The bounds the client was built with, for the stream meters. @default defaultLimits */
  readonly limits?: MeterLimits;
  /** A durable agent: its `events` feed the Sends and Recovery panels. */
  readonly agent?: { readonly events: Feed };
  /** The pending-send ledger, read through `subscribe` only. */
  readonly ledger?: Feed;
};

/**
The devtools as one embeddable panel: a send box, then the Agent, Tasks, Streams and (with a fault lab) Faults panels. It reads the client only through its public fields and events (house-style rule 23); mount it before the calls you want to see.

@example
```tsx
import { SurecallDevtools } from '@surecall/devtools';

<SurecallDevtools client={client} faultLab="http://127.0.0.1:4100" />
```
*/
export function SurecallDevtools({
  client,
  connection,
  rawCard,
  faultLab,
  limits = defaultLimits,
  agent,
  ledger,
}: SurecallDevtoolsProps) {
  const [feed, dispatch] = useFeed(client);
  const box = useSendBox(client);
  const tabs = devtoolsTabs({ faultLab: faultLab !== undefined });
  const [tab, setTab] = useState('agent');
  const [focusTask, setFocusTask] = useState<string | undefined>(undefined);
  const agentEvents = useEventCount(agent?.events);
  const ledgerChanges = useEventCount(ledger);
  const current = tabs.some((entry) => entry.id === tab) ? tab : 'agent';
  const latestTask = box.sends.find((send) => send.taskId !== undefined)?.taskId;

  const status = (
    <span data-testid="feed-status">
      client: {feed.events} events · {feed.calls} calls · {feed.failures} failed
      {agentEvents === undefined ? '' : ` · durable agent: ${agentEvents} events`}
      {ledgerChanges === undefined ? '' : ` · ledger: ${ledgerChanges} changes`}
    </span>
  );

  return (
    <div className="surecall-devtools">
      <SendBox
        box={box}
        streaming={client.card.capabilities.streaming}
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
          ...(faultLab === undefined
            ? {}
            : { faults: <FaultsPanel origin={faultLab} client={client} sends={box.sends} /> }),
        }}
      />
    </div>
  );
}
