import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { intent } from '../../test/support/intent.js';
import { rejectionOf } from '../../test/support/rejection.js';
import { LedgerError } from '../core/errors.js';
import { openLedger } from './idb.js';

/** Puts a stray revision where a record's next one would go, through a second connection to the ledger's database. */
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
