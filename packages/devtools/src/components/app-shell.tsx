import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import { type Tab, tabKey } from '../model/tabs.js';

/** Props of {@link AppShell}. */
export type AppShellProps = {
  readonly tabs: readonly Tab[];
  readonly current: string;
  onSelect(id: string): void;
  /** A one-line status beside the tabs. */
  readonly status?: ReactNode;
  /**
  Each tab's panel, by tab id. All stay mounted, the others hidden, so a panel keeps its filters and scroll
  when a person looks elsewhere.
  */
  readonly panels: Readonly<Record<string, ReactNode>>;
};

/**
The tab strip and the panels it controls (WAI-ARIA APG tabs, automatic activation): one tab stop,
Left/Right/Home/End move and select.

@example
```tsx
<AppShell tabs={tabs} current={tab} onSelect={setTab} panels={{ agent: <AgentPanel … /> }} />
```
*/
export function AppShell({ tabs, current, onSelect, status, panels }: AppShellProps) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const next = tabKey(tabs, current, event.key);
    if (next === undefined) {
      return;
    }
    event.preventDefault();
    onSelect(next);
    list.current?.querySelector<HTMLElement>(`[data-tab="${CSS.escape(next)}"]`)?.focus();
  };
  return (
    <div className="app-shell">
      <div className="app-shell-bar">
        <div className="tabs" role="tablist" aria-label="Panels" ref={list} onKeyDown={onKeyDown}>
          {tabs.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`${base}-tab-${tab.id}`}
              data-tab={tab.id}
              aria-selected={tab.id === current}
              aria-controls={`${base}-panel-${tab.id}`}
              tabIndex={tab.id === current ? 0 : -1}
              onClick={() => onSelect(tab.id)}
            >
              {tab.label}
            </button>
          ))}
        </div>
        {status === undefined ? null : <div className="app-shell-status">{status}</div>}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          className="panel"
          role="tabpanel"
          id={`${base}-panel-${tab.id}`}
          aria-labelledby={`${base}-tab-${tab.id}`}
          hidden={tab.id !== current}
        >
          {panels[tab.id]}
        </div>
      ))}
    </div>
  );
}
