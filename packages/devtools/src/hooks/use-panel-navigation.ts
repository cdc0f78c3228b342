import { useState } from 'react';
import { devtoolsTabs, type Sources, shownTab, type Tab } from '../model/tabs.js';

/** The devtools' tabs, the one shown, and the task the Tasks panel was asked to show. */
export type PanelNavigation = {
  readonly tabs: readonly Tab[];
  /** The chosen tab while its source is there, else `agent`. */
  readonly current: string;
  select(tab: string): void;
  /** The task a person opened from the send box, until another is opened. */
  readonly focusTask: string | undefined;
  /** Shows `taskId` in the Tasks panel. */
  openTask(taskId: string): void;
};

/**
Which panel of the devtools is shown, among the tabs the given sources allow ({@link devtoolsTabs}), and which
task the Tasks panel was asked to show.

@example
```ts
const navigation = usePanelNavigation({ faultLab: true, ledger: true, agent: true });
navigation.openTask('task-7'); // the Tasks tab, on task-7
```
*/
export function usePanelNavigation(sources: Sources): PanelNavigation {
  const tabs = devtoolsTabs(sources);
  const [tab, setTab] = useState('agent');
  const [focusTask, setFocusTask] = useState<string | undefined>(undefined);
  return {
    tabs,
    current: shownTab(tabs, tab),
    select: setTab,
    focusTask,
    openTask: (taskId) => {
      setFocusTask(taskId);
      setTab('tasks');
    },
  };
}
