import { describe, expect, it } from 'vitest';
import { devtoolsTabs, shownTab, tabKey } from './tabs.js';

describe('devtoolsTabs', () => {
  it('shows the Faults tab only with a fault lab', () => {
    expect(devtoolsTabs({ faultLab: false }).map((tab) => tab.id)).toEqual([
      'agent',
      'tasks',
      'streams',
      'calls',
    ]);
    expect(devtoolsTabs({ faultLab: true }).map((tab) => tab.id)).toEqual([
      'agent',
      'tasks',
      'streams',
      'calls',
      'faults',
    ]);
  });

  it('shows Sends with a ledger and Recovery with a durable agent, before Faults', () => {
    expect(devtoolsTabs({ faultLab: true, ledger: true, agent: true }).map((tab) => tab.id)).toEqual([
      'agent',
      'tasks',
      'streams',
      'calls',
      'sends',
      'recovery',
      'faults',
    ]);
    expect(devtoolsTabs({ faultLab: false, ledger: true }).map((tab) => tab.id)).toEqual([
      'agent',
      'tasks',
      'streams',
      'calls',
      'sends',
    ]);
  });
});

describe('tabKey', () => {
  const tabs = devtoolsTabs({ faultLab: true });

  it.each([
    ['agent', 'ArrowRight', 'tasks'],
    ['faults', 'ArrowRight', 'agent'],
    ['agent', 'ArrowLeft', 'faults'],
    ['streams', 'ArrowLeft', 'tasks'],
    ['streams', 'Home', 'agent'],
    ['tasks', 'End', 'faults'],
    ['gone', 'ArrowRight', 'tasks'],
  ])('from %s, %s selects %s', (current, key, next) => {
    expect(tabKey(tabs, current, key)).toBe(next);
  });

  it('ignores other keys and empty lists', () => {
    expect(tabKey(tabs, 'agent', 'ArrowDown')).toBeUndefined();
    expect(tabKey([], 'agent', 'ArrowRight')).toBeUndefined();
  });
});

describe('shownTab', () => {
  it('keeps the chosen tab while it is there, and falls back to Agent once its source is gone', () => {
    const all = devtoolsTabs({ faultLab: true, ledger: true, agent: true });
    expect(shownTab(all, 'sends')).toBe('sends');
    expect(shownTab(all, 'faults')).toBe('faults');
    expect(shownTab(devtoolsTabs({ faultLab: false }), 'sends')).toBe('agent');
    expect(shownTab(devtoolsTabs({ faultLab: false }), 'tasks')).toBe('tasks');
  });
});
