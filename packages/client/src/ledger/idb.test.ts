import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { intent } from '../../test/support/intent.js';
import { rejectionOf } from '../../test/support/rejection.js';
import { LedgerError } from '../core/errors.js';
import { openLedger } from './idb.js';
import type { Ledger, LedgerChange, LedgerRecord } from './ledger.js';

/**
Puts a stray revision where a record's next one would go, through a second connection to the ledger's
database.
*/
function strayRevision(database: string, id: string, revision: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(database);
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      const tx = db.transaction('revisions', 'readwrite');
      tx.objectStore('revisions').add({ id, revision });
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

describe('create with a first attempt on IndexedDB', () => {
  it('writes both revisions in one transaction: when the start cannot be written, neither is', async () => {
    const name = `idb-create-start-${crypto.randomUUID()}`;
    const ledger = await openLedger({ name });
    const kept = await ledger.create(intent('kept'), { attemptId: 'a-kept', messageId: 'm-a-kept' });
    expect((await ledger.history('kept')).map((revision) => revision.revision)).toEqual([0, 1]);
    expect(await ledger.get('kept')).toEqual(kept);

    await strayRevision(name, 'lost', 1);
    const failure = await rejectionOf(
      ledger.create(intent('lost'), { attemptId: 'a-lost', messageId: 'm-a-lost' }),
      LedgerError,
    );
    expect(failure).toMatchObject({ reason: 'stale-revision' });
    expect(await ledger.get('lost')).toBeUndefined();
    await ledger.close();
  });
});

/** A database as version 2 of the store left it (no sequence store), holding `records` as given. */
function versionTwo(database: string, records: readonly unknown[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(database, 2);
    opening.onerror = () => reject(opening.error);
    opening.onupgradeneeded = () => {
      const db = opening.result;
      const store = db.createObjectStore('records', { keyPath: 'id' });
      store.createIndex('status', 'state.status');
      store.createIndex('updatedAt', 'updatedAt');
      db.createObjectStore('revisions', { keyPath: ['id', 'revision'] });
      for (const record of records) {
        store.put(record);
      }
    };
    opening.onsuccess = () => {
      opening.result.close();
      resolve();
    };
  });
}

describe('the creation sequence on IndexedDB', () => {
  it('upgrades a version 2 database in the order version 2 listed (time, then id), then appends in creation order', async () => {
    const source = `idb-sequence-source-${crypto.randomUUID()}`;
    const writer = await openLedger({ name: source });
    // Made in this order; version 2 listed them by time, then id: b (earlier), then a, c (same time).
    const made = [];
    for (const id of ['c', 'a', 'b']) {
      made.push(await writer.create(intent(id)));
    }
    await writer.close();
    const times: Record<string, number> = { a: 2000, b: 1000, c: 2000 };
    const name = `idb-sequence-${crypto.randomUUID()}`;
    await versionTwo(
      name,
      made.map((record) => ({ ...record, createdAt: times[record.id] })),
    );
    const upgraded = await openLedger({ name });
    expect((await upgraded.list()).map((record) => record.id)).toEqual(['b', 'a', 'c']);
    await upgraded.close();
  });
});

/** The first change `ledger` hears that `matches`. */
function nextChange(ledger: Ledger, matches: (change: LedgerChange) => boolean): Promise<LedgerChange> {
  return new Promise((resolve) => {
    const stop = ledger.subscribe((change) => {
      if (matches(change)) {
        stop();
        resolve(change);
      }
    });
  });
}

const start = (id: string) => ({ attemptId: `a-${id}`, messageId: `m-${id}` });

/** A record sent and left unknown by `ledger`: due for a probe at once. */
async function unknownIn(ledger: Ledger, id: string): Promise<LedgerRecord> {
  const executing = await ledger.create(intent(id), start(id));
  return ledger.transition(id, executing.revision, {
    type: 'unknown',
    attemptId: `a-${id}`,
    reason: 'ambiguous-outcome',
  });
}

// Each open ledger is a tab holding its own Web Lock (docs/durable-send.md#tabs); Node has Web Locks from
// Node 24 (`navigator.locks`), and Chromium runs the same rules in e2e/tests/tabs.e2e.ts. Node 22 has none,
// and its store is the one writer's of the next describe.
describe.skipIf(globalThis.navigator?.locks === undefined)('the IndexedDB ledger shared by tabs', () => {
  it('lets every tab write, each write a compare-and-set on the stored head, and each tab hear the others', async () => {
    const name = `idb-tabs-write-${crypto.randomUUID()}`;
    const first = await openLedger({ name });
    const second = await openLedger({ name });
    const heard = nextChange(second, (change) => change.record.id === 'from-first');
    const fromFirst = await first.create(intent('from-first'));
    const fromSecond = await second.create(intent('from-second'), start('from-second'));
    expect(await heard).toMatchObject({ origin: 'remote', record: fromFirst });
    expect(await first.list()).toEqual([fromFirst, fromSecond]);
    // Both tabs move one record at once: IndexedDB serialises the two transactions, and the second finds the
    // head moved.
    const raced = await Promise.allSettled([
      first.transition('from-first', 0, { type: 'start', ...start('one') }),
      second.transition('from-first', 0, { type: 'start', ...start('two') }),
    ]);
    expect(raced.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = raced.find((result) => result.status === 'rejected');
    expect(lost?.reason).toMatchObject({ reason: 'stale-revision' });
    expect((await second.history('from-first')).map((revision) => revision.revision)).toEqual([0, 1]);
    await Promise.all([first.close(), second.close()]);
  });

  it("never turns a live tab's send unknown, and turns it unknown once, the moment that tab's lock goes", async () => {
    const name = `idb-tabs-owner-${crypto.randomUUID()}`;
    // `early` was open before the send (it hears of its sender through the channel), `late` opens during it.
    const early = await openLedger({ name });
    const sender = await openLedger({ name });
    const sending = await sender.create(intent('live-1'), start('live-1'));
    const late = await openLedger({ name });
    expect(await late.get('live-1')).toEqual(sending);
    const owner = await sender.ownerOf('live-1');
    expect(owner).toEqual({ tab: expect.any(String), thisTab: true });
    expect(await late.ownerOf('live-1')).toEqual({ tab: owner?.tab, thisTab: false });
    expect(await late.claimDue()).toEqual([]);
    expect(await early.claimDue()).toEqual([]);
    const recovered = [early, late].map((tab) =>
      nextChange(tab, (change) => change.record.state.status === 'unknown'),
    );
    // As a tab's close, crash or navigation does: its lock goes with its ledger.
    await sender.close();
    for (const change of await Promise.all(recovered)) {
      expect(change.record.state).toEqual({
        status: 'unknown',
        attemptId: 'a-live-1',
        reason: 'crashed-while-executing',
      });
    }
    // One tab recovered it, and holds it no more: one revision after the send's two, and the record is due
    // for one prober.
    expect(await late.ownerOf('live-1')).toBeUndefined();
    expect((await late.history('live-1')).map((revision) => revision.transition.type)).toEqual([
      'create',
      'start',
      'unknown',
    ]);
    await Promise.all([early.close(), late.close()]);
  });

  it('recovers the send of a tab it only heard of on the channel, once that tab is gone', async () => {
    const name = `idb-tabs-heard-${crypto.randomUUID()}`;
    // Open before the send: this tab learns of its sender from the announcement alone.
    const watcher = await openLedger({ name });
    const sender = await openLedger({ name });
    const heard = nextChange(watcher, (change) => change.record.state.status === 'executing');
    await sender.create(intent('heard-1'), start('heard-1'));
    await heard;
    const recovered = nextChange(watcher, (change) => change.record.state.status === 'unknown');
    await sender.close();
    expect(await recovered).toMatchObject({
      origin: 'local',
      record: { state: { status: 'unknown', reason: 'crashed-while-executing' } },
    });
    await watcher.close();
  });

  it('lets one tab probe a due record at a time: a claim holds until it moves, is released, or its tab goes', async () => {
    const name = `idb-tabs-claims-${crypto.randomUUID()}`;
    const first = await openLedger({ name });
    const second = await openLedger({ name });
    const due = await unknownIn(first, 'due-1');
    expect(await first.claimDue()).toEqual([due]);
    expect(await second.ownerOf('due-1')).toMatchObject({ thisTab: false });
    expect(await second.claimDue()).toEqual([]);
    expect(await second.claim('due-1')).toBeUndefined();
    expect(await first.claim('due-1')).toBeUndefined();
    // Released by the tab that did not claim it: nothing changes.
    await second.release('due-1');
    expect(await second.claim('due-1')).toBeUndefined();
    await first.release('due-1');
    expect(await second.claim('due-1')).toEqual(due);
    expect(await first.claimDue()).toEqual([]);
    // The claim dies with its tab.
    await second.close();
    expect(await first.claimDue()).toEqual([due]);
    // A move ends the claim: the next probe is any tab's once it is due.
    const third = await openLedger({ name });
    const moved = await first.transition('due-1', due.revision, {
      type: 'pending',
      attemptId: 'a-due-1',
      notBefore: Date.now() + 1000,
    });
    expect(await third.claimDue()).toEqual([]);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2000 });
    try {
      expect(await third.claimDue()).toEqual([moved]);
    } finally {
      vi.useRealTimers();
    }
    await Promise.all([first.close(), third.close()]);
  });

  it('never hands two tabs claiming at once the same record', async () => {
    const name = `idb-tabs-race-${crypto.randomUUID()}`;
    const tabs = await Promise.all([1, 2, 3].map(() => openLedger({ name })));
    const ids = Array.from({ length: 12 }, (_, index) => `race-${index}`);
    for (const id of ids) {
      await unknownIn(tabs[0] as Ledger, id);
    }
    const claims = await Promise.all(tabs.map((tab) => tab.claimDue({ limit: 5 })));
    const claimed = claims.flat().map((record) => record.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBeLessThanOrEqual(ids.length);
    // What none of them took is still there for the next claim.
    const rest = await (tabs[0] as Ledger).claimDue({ limit: 20 });
    expect([...claimed, ...rest.map((record) => record.id)].sort()).toEqual([...ids].sort());
    await Promise.all(tabs.map((tab) => tab.close()));
  });

  it('keeps a readOnly tab a follower: it reads and hears every change, and refuses every write and claim', async () => {
    const name = `idb-tabs-read-only-${crypto.randomUUID()}`;
    const writer = await openLedger({ name });
    const watcher = await openLedger({ name, readOnly: true });
    const heard = nextChange(watcher, () => true);
    const record = await writer.create(intent('watched-1'));
    expect(await heard).toMatchObject({ origin: 'remote', record, revision: { revision: 0 } });
    expect(await watcher.get('watched-1')).toEqual(record);
    for (const write of [
      watcher.create(intent('watched-2')),
      watcher.transition('watched-1', 0, { type: 'start', ...start('w') }),
      watcher.claimDue(),
    ]) {
      expect(await rejectionOf(write, LedgerError)).toMatchObject({ reason: 'locked', rule: 'follower' });
    }
    expect(
      await rejectionOf(openLedger({ name, readOnly: 'yes' as unknown as boolean }), LedgerError),
    ).toMatchObject({ reason: 'invalid-input', rule: 'read-only' });
    await Promise.all([writer.close(), watcher.close()]);
  });
});

describe('the IndexedDB ledger without Web Locks (docs/durable-send.md#without-web-locks)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is one writer's: every instance writes by compare-and-set, and an open recovers whatever is left executing", async () => {
    vi.stubGlobal('navigator', {});
    const name = `idb-no-locks-${crypto.randomUUID()}`;
    const first = await openLedger({ name });
    const second = await openLedger({ name });
    await first.create(intent('one'), start('one'));
    const raced = await Promise.allSettled([
      first.transition('one', 1, { type: 'unknown', attemptId: 'a-one', reason: 'ambiguous-outcome' }),
      second.transition('one', 1, { type: 'unknown', attemptId: 'a-one', reason: 'ambiguous-outcome' }),
    ]);
    expect(raced.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    await second.create(intent('two'), start('two'));
    await Promise.all([first.close(), second.close()]);
    const reopened = await openLedger({ name });
    expect((await reopened.get('two'))?.state).toMatchObject({
      status: 'unknown',
      reason: 'crashed-while-executing',
    });
    await reopened.close();
  });
});
