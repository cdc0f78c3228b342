/**
A subscriber hears a store's remote changes in the order the store announced them, however long each one's
history read takes (docs/durable-send.md#ledger-stores): the file follower announced revisions 0, 1 and 2 of
one record, the reads behind them ended 1, 2, 0 on a loaded machine, and the subscriber saw the record go
back.
*/
import { describe, expect, it } from 'vitest';
import { openLedgerEngine } from '../../src/ledger/engine.js';
import type { LedgerRevision } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/memory.js';
import type { LedgerStore } from '../../src/ledger/store.js';
import { intent } from '../support/intent.js';

describe('remote changes', () => {
  it('reach a subscriber in the order the store announced them, whichever history read ends first', async () => {
    const source = await openLedger({ name: 'remote-order' });
    const executing = await source.create(intent('r-1'), { attemptId: 'a-1', messageId: 'm-1' });
    await source.transition('r-1', executing.revision, {
      type: 'commit',
      attemptId: 'a-1',
      result: { kind: 'task', taskId: 't-1', contextId: 'ctx' },
    });
    const history = await source.history('r-1');
    expect(history.map((entry) => entry.revision)).toEqual([0, 1, 2]);

    // The first read is the slowest and the last the fastest, as on a machine whose disk is busy.
    let reads = 0;
    const delays = [30, 10, 0];
    let announce: (id: string, revision: number) => void = () => undefined;
    const store: LedgerStore = {
      writable: false,
      get: async () => undefined,
      list: async () => [],
      history: async (): Promise<LedgerRevision[]> => {
        const delay = delays[reads++] ?? 0;
        await new Promise((resolve) => setTimeout(resolve, delay));
        return history;
      },
      append: () => Promise.reject(new Error('read-only')),
      watch(onRemote) {
        announce = onRemote;
      },
      close: async () => undefined,
    };
    const ledger = await openLedgerEngine(store);
    const heard: number[] = [];
    ledger.subscribe((change) => heard.push(change.revision.revision));
    for (const revision of [0, 1, 2]) {
      announce('r-1', revision);
    }
    await expect.poll(() => heard).toEqual([0, 1, 2]);
    await ledger.close();
    await source.close();
  });
});
