/**
@module
The tab list of the devtools (WAI-ARIA APG, tabs pattern with automatic activation): which tabs exist for the
sources given, and where the arrow keys move. Later panels (Sends, Recovery) join by adding an entry.
*/

/** One tab. */
export type Tab = { readonly id: string; readonly label: string };

/**
The tab a navigation key selects from `current`: Left/Right move and wrap, Home and End go to the ends.
`undefined` for any other key.

@example
```ts
tabKey(tabs, 'agent', 'ArrowRight'); // 'tasks'
```
*/
export function tabKey(tabs: readonly Tab[], current: string, key: string): string | undefined {
  if (tabs.length === 0) {
    return undefined;
  }
  const index = Math.max(
    0,
    tabs.findIndex((tab) => tab.id === current),
  );
  const at = (position: number): string | undefined => tabs[(position + tabs.length) % tabs.length]?.id;
  switch (key) {
    case 'ArrowRight':
      return at(index + 1);
    case 'ArrowLeft':
      return at(index - 1);
    case 'Home':
      return at(0);
    case 'End':
      return at(tabs.length - 1);
    default:
      return undefined;
  }
}

/** Which sources the devtools were given. */
export type Sources = {
  readonly faultLab: boolean;
  /** A ledger is given: the Sends panel. */
  readonly ledger?: boolean;
  /** A durable agent is given: the Recovery panel. */
  readonly agent?: boolean;
};

/**
The tabs for the sources given: Agent, Tasks, Streams and Calls always (they need only the client), Sends with
a ledger, Recovery with a durable agent, Faults when a fault lab is reachable.

@example
```ts
devtoolsTabs({ faultLab: true }).map((tab) => tab.id); // ['agent', 'tasks', 'streams', 'calls', 'faults']
```
*/
export function devtoolsTabs(sources: Sources): Tab[] {
  return [
    { id: 'agent', label: 'Agent' },
    { id: 'tasks', label: 'Tasks' },
    { id: 'streams', label: 'Streams' },
    { id: 'calls', label: 'Calls' },
    ...(sources.ledger === true ? [{ id: 'sends', label: 'Sends' }] : []),
    ...(sources.agent === true ? [{ id: 'recovery', label: 'Recovery' }] : []),
    ...(sources.faultLab ? [{ id: 'faults', label: 'Faults' }] : []),
  ];
}

/**
The tab to show: the one chosen while it is among `tabs`, else the Agent tab (a source that went away takes
its tab with it).

@example
```ts
shownTab(devtoolsTabs({ faultLab: false }), 'faults'); // 'agent'
```
*/
export function shownTab(tabs: readonly Tab[], chosen: string): string {
  return tabs.some((entry) => entry.id === chosen) ? chosen : 'agent';
}
