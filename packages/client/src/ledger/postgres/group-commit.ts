/**
@module
The group commit of one writer's writes (docs/durable-send.md#group-commit): a write made while no batch is
under way goes at once, alone, so a lone transition waits for nothing; writes made while batches are under way
queue, and the next batch takes them together (at most one write per record, at most `limit`), so concurrent
transitions share one round trip and one commit. A further batch starts beside those under way once `gather`
writes wait (up to `slots` at once), else when one ends: a write that found a batch free would otherwise go
alone every time, and leave the others to queue behind one large batch. How a batch is written, and how each
of its writes succeeds or fails alone, is the caller's `write` (`writes.ts`); this module only gathers and
paces. Its state is one {@link GroupCommit}, which these functions share.
*/

/** One write waiting in a batch, settled by the batch's `write`. */
export type Queued<TItem> = {
  readonly item: TItem;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
};

/** The writes of one writer: those waiting, and how many batches are under way. */
export type GroupCommit<TItem> = {
  /** Batches under way at most at once (each is one statement on one connection). */
  readonly slots: number;
  /** Writes in one batch at most. */
  readonly limit: number;
  /** Writes that must wait before a batch starts beside one under way. */
  readonly gather: number;
  /** The record a write is of: one batch holds at most one write per record. */
  readonly key: (item: TItem) => string;
  /** Writes a batch and settles every write of it; a rejection rejects those it left unsettled. */
  readonly write: (batch: readonly Queued<TItem>[]) => Promise<void>;
  readonly queued: Queued<TItem>[];
  running: number;
};

/** A group commit over `write`; nothing waits and nothing is under way yet. */
export function createGroupCommit<TItem>(
  input: Pick<GroupCommit<TItem>, 'slots' | 'limit' | 'gather' | 'key' | 'write'>,
): GroupCommit<TItem> {
  return { ...input, queued: [], running: 0 };
}

/**
Takes the next batch off the queue, in the order the writes came: a second write of a record already in the
batch stays queued for a later one, where it is checked against what the first left.
*/
function nextBatch<TItem>(group: GroupCommit<TItem>): Queued<TItem>[] {
  const batch: Queued<TItem>[] = [];
  const keys = new Set<string>();
  let kept = 0;
  for (const queued of group.queued) {
    const key = group.key(queued.item);
    if (batch.length < group.limit && !keys.has(key)) {
      keys.add(key);
      batch.push(queued);
    } else {
      group.queued[kept++] = queued;
    }
  }
  group.queued.length = kept;
  return batch;
}

/** Whether a batch starts now: writes wait, and none is under way, or enough wait and a slot is free. */
function mayStart<TItem>(group: GroupCommit<TItem>): boolean {
  const waiting = group.queued.length;
  return waiting > 0 && (group.running === 0 || (group.running < group.slots && waiting >= group.gather));
}

/** Starts batches while one may start. */
function drain<TItem>(group: GroupCommit<TItem>): void {
  while (mayStart(group)) {
    const batch = nextBatch(group);
    group.running += 1;
    group
      .write(batch)
      .catch((error: unknown) => {
        for (const queued of batch) {
          queued.reject(error);
        }
      })
      .finally(() => {
        group.running -= 1;
        drain(group);
      });
  }
}

/**
Writes `item` in the next batch: at once and alone when none is under way, else with the writes that gather
meanwhile. Settles as `write` settles it.
*/
export function submit<TItem>(group: GroupCommit<TItem>, item: TItem): Promise<void> {
  return new Promise((resolve, reject) => {
    group.queued.push({ item, resolve, reject });
    drain(group);
  });
}
