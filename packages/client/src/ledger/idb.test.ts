import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { intent } from '../../test/support/intent.js';
import { rejectionOf } from '../../test/support/rejection.js';
import { LedgerError } from '../core/errors.js';
import { openLedger } from './idb.js';

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
