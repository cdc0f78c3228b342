/**
The gathering of writes into batches (group-commit.ts, docs/durable-send.md#group-commit), over a `write` the
test settles by hand: a lone write starts at once, writes made meanwhile wait for a batch to end or for enough
of them, one batch holds one write per record, and a batch that fails rejects what it left unsettled.
*/
import { describe, expect, it } from 'vitest';
import { createGroupCommit, type Queued, submit } from './group-commit.js';

type Item = { readonly id: string; readonly n: number };

/** A group commit whose batches wait until the test ends them, in the order they started. */
function controlled(slots = 2, gather = 3, limit = 4) {
  const batches: { items: string[]; end: (error?: Error) => void }[] = [];
  const group = createGroupCommit<Item>({
    slots,
    limit,
    gather,
    key: (item) => item.id,
    write: (batch: readonly Queued<Item>[]) =>
      new Promise<void>((resolve, reject) => {
        batches.push({
          items: batch.map((queued) => `${queued.item.id}:${queued.item.n}`),
          end: (error) => {
            if (error === undefined) {
              for (const queued of batch) {
                queued.resolve();
              }
              resolve();
            } else {
              reject(error);
            }
          },
        });
      }),
  });
  return { group, batches };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('starts a lone write at once, in the very call that makes it', () => {
    const { group, batches } = controlled();
    void submit(group, { id: 'a', n: 1 });
    expect(batches.map((batch) => batch.items)).toEqual([['a:1']]);
  });

  it('gathers the writes made while a batch is under way into the next one, which starts when it ends', async () => {
    const { group, batches } = controlled();
    const first = submit(group, { id: 'a', n: 1 });
    const rest = ['b', 'c'].map((id) => submit(group, { id, n: 1 }));
    expect(batches).toHaveLength(1);
    batches[0]?.end();
    await first;
    await settled();
    expect(batches.map((batch) => batch.items)).toEqual([['a:1'], ['b:1', 'c:1']]);
    batches[1]?.end();
    await Promise.all(rest);
  });

  it('starts a batch beside one under way once enough writes wait, up to the slots', () => {
    const { group, batches } = controlled(2, 3);
    void submit(group, { id: 'a', n: 1 });
    for (const id of ['b', 'c', 'd', 'e', 'f', 'g']) {
      void submit(group, { id, n: 1 });
    }
    // The third waiting write starts a second batch; the two slots are then full, and the rest wait.
    expect(batches.map((batch) => batch.items)).toEqual([['a:1'], ['b:1', 'c:1', 'd:1']]);
    expect(group.queued.map((queued) => queued.item.id)).toEqual(['e', 'f', 'g']);
  });

  it('holds one write per record in a batch, the later one for a batch after it, in order', async () => {
    const { group, batches } = controlled(1, 3, 4);
    void submit(group, { id: 'a', n: 1 });
    for (const [id, n] of [
      ['b', 1],
      ['b', 2],
      ['c', 1],
      ['d', 1],
      ['e', 1],
      ['f', 1],
    ] as const) {
      void submit(group, { id, n });
    }
    batches[0]?.end();
    await settled();
    // At most `limit` writes, and the second write of b waits for the batch after.
    expect(batches[1]?.items).toEqual(['b:1', 'c:1', 'd:1', 'e:1']);
    batches[1]?.end();
    await settled();
    expect(batches[2]?.items).toEqual(['b:2', 'f:1']);
  });

  it('rejects every write a failed batch left unsettled, and goes on with the next', async () => {
    const { group, batches } = controlled();
    void submit(group, { id: 'a', n: 1 });
    const waiting = [submit(group, { id: 'b', n: 1 }), submit(group, { id: 'c', n: 1 })];
    batches[0]?.end();
    await settled();
    const failure = new Error('the batch failed');
    batches[1]?.end(failure);
    expect(await Promise.allSettled(waiting)).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    expect(group.running).toBe(0);
    void submit(group, { id: 'd', n: 1 });
    expect(batches[2]?.items).toEqual(['d:1']);
  });
});
