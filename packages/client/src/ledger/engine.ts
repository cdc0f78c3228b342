/**
@module
The one implementation of the `Ledger` interface, over a small store contract that each backend (memory, idb, file) fulfils. Validation, the revision digest, the state machine, change notification and the recovery of crashed attempts live here once, so the three stores cannot drift apart.
*/
import { LedgerError } from '../core/errors.js';
import { decodeLedger } from './decoding.js';
import { plainIntent, SendIntent } from './intent.js';
import {
  type AttemptStart,
  applyTransition,
  type DueQuery,
  deepFreeze,
  isDue,
  type Ledger,
  type LedgerChange,
  type LedgerFilter,
  matchesDue,
  platformSha256,
  revisionDigestInput,
  type Sha256,
} from './ledger.js';
import { type LedgerRecord, type LedgerRevision, type LedgerStatus, LedgerTransition } from './record.js';

/**
What a backend provides. Reads return decoded, frozen values. `append` is the only write: it makes `record` the head and adds `revision` durably, as one compare-and-set: for revision 0 the id must be new, otherwise the stored head must still be revision − 1 with `previousDigest`; a lost race throws `LedgerError('stale-revision')`.
*/
export interface LedgerStore {
  /** False for a store that only follows another writer (an idb tab without the Web Lock): every write is refused as `locked`. */
  readonly writable: boolean;
  get(id: string): Promise<LedgerRecord | undefined>;
  /** All records, or those whose status is in `states`, in the ledger's own sequence: the order they were created in it (the journal's lines, IndexedDB's sequence store, PostgreSQL's `seq` column, a map's insertion order). */
  list(states: ReadonlySet<LedgerStatus> | undefined): Promise<LedgerRecord[]>;
  history(id: string): Promise<LedgerRevision[]>;
  /** `text` is the exact text `revision.digest` is the SHA-256 of (`revisionDigestInput`), so a store that writes text writes those bytes and never serializes the revision again. */
  append(record: LedgerRecord, revision: LedgerRevision, text: string): Promise<void>;
  /** Optional: appends several commits of one record (revision n and n + 1) as one durable write; without it the engine appends them one after the other. A crash may keep a prefix of them, never a later one without an earlier one. */
  appendAll?(commits: readonly StoreCommit[]): Promise<void>;
  /** Registers the callback for changes made by another writer (another tab), announced by id and revision. */
  watch?(onRemote: (id: string, revision: number) => void): void;
  /** The head this writer last wrote or claimed, when it is still at `revision`, without I/O; `undefined` to read it. The append's compare-and-set still decides, so a head another writer moved since only makes the write `stale-revision`. */
  head?(id: string, revision: number): LedgerRecord | undefined;
  /** The leases of a store that several writers share at once (PostgreSQL). Without it the store has one writer, and the engine keeps its claims in memory. */
  readonly leases?: StoreLeases;
  close(): Promise<void>;
}

/** One commit handed to a store: the record as `revision` leaves it, and the digested text. */
export type StoreCommit = {
  readonly record: LedgerRecord;
  readonly revision: LedgerRevision;
  readonly text: string;
};

/**
The leases of a shared store (docs/durable-send.md#leases): a record being sent or probed is leased to one writer until an expiry the store's own clock decides, and `append` refuses a writer whose lease another writer took or that lapsed (`fenced`). Each method leases what it returns to this writer.
*/
export interface StoreLeases {
  /** Leases up to `limit` records left `executing` by a writer whose lease lapsed (crashed, paused, partitioned), so this writer turns them unknown. */
  orphans(limit: number): Promise<LedgerRecord[]>;
  /** Leases up to `query.limit` due records that no live writer holds, soonest due first (see {@link isDue}). */
  claimDue(query: Required<Pick<DueQuery, 'limit'>> & DueQuery, now: number): Promise<LedgerRecord[]>;
  /** Leases one due record that no live writer holds; `undefined` when it is not due or another writer holds it. */
  claim(id: string, now: number): Promise<LedgerRecord | undefined>;
  /** Gives up this writer's lease on an unknown record it claimed and did not move. */
  release(id: string): Promise<void>;
}

/** How the engine digests revisions; the file store passes Node's synchronous SHA-256, which gives the same digests as WebCrypto. */
export type EngineOptions = { readonly sha256?: Sha256 };

// JSON is what every store keeps, so a message is normalized to exactly that before it is validated and digested: `undefined` members vanish, nothing but JSON data (no Date, no class instance) can reach a record, and the record never shares an object with the caller.
function asJson(value: unknown, rule: string): unknown {
  try {
    const text = JSON.stringify(value);
    if (typeof text !== 'string') {
      throw new TypeError(rule);
    }
    return JSON.parse(text);
  } catch (error) {
    throw new LedgerError('invalid-input', { rule, cause: error });
  }
}

function dropUndefined<T extends object>(value: T): T {
  const members = value as Record<string, unknown>;
  for (const key of Object.keys(members)) {
    const member = members[key];
    if (member === undefined) {
      delete members[key];
    } else if (typeof member === 'object' && member !== null) {
      dropUndefined(member);
    }
  }
  return value;
}

/**
Builds a `Ledger` over `store` and, when the store can write, turns every record left `executing` by a crash into `unknown` with reason `crashed-while-executing` (docs/durable-send.md#execution-order: never "send again").
*/
export async function openLedgerEngine(store: LedgerStore, options: EngineOptions = {}): Promise<Ledger> {
  const sha256 = options.sha256 ?? platformSha256;
  const listeners = new Set<(change: LedgerChange) => void>();
  // Operations in flight, and what `close` waits on once they drain: a count, not a set of promises, since every commit passes here.
  let active = 0;
  let drained: (() => void) | undefined;
  // A single-writer store's claims: records a probe of this process holds, so two reconcilers in it never probe one record at once.
  const claimed = new Set<string>();
  let closed = false;
  let lastAt = 0;

  function emit(change: LedgerChange): void {
    if (listeners.size === 0) {
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own: the change is already durable and the others still hear of it.
      }
    }
  }

  /** Runs one operation: refused once the ledger is closing, counted until it settles. */
  async function guard<T>(work: () => Promise<T>): Promise<T> {
    if (closed) {
      throw new LedgerError('closed');
    }
    active++;
    try {
      return await work();
    } finally {
      active--;
      if (active === 0) {
        drained?.();
      }
    }
  }

  function writable(): void {
    if (!store.writable) {
      throw new LedgerError('locked', { rule: 'follower' });
    }
  }

  // One clock for the whole ledger that never runs backwards, even if the system clock does: durations measured on it (retry and probe delays) stay honest.
  function stamp(floor: number): number {
    lastAt = Math.max(Date.now(), lastAt, floor);
    return lastAt;
  }

  async function seal(
    previous: LedgerRecord | undefined,
    draft: Omit<LedgerRevision, 'digest'>,
  ): Promise<StoreCommit> {
    let text: string;
    try {
      // The one serialization of a revision: its digest covers these bytes, and the file store writes them as they are.
      text = revisionDigestInput(draft);
    } catch (error) {
      // canonicalJson refuses what has no canonical form, e.g. a lone surrogate in a text part.
      throw new LedgerError('invalid-input', { rule: 'canonical-json', cause: error });
    }
    // A synchronous SHA-256 (the file store's) is used without an extra turn of the event loop.
    const hashed = sha256(text);
    const digest = typeof hashed === 'string' ? hashed : await hashed;
    // Written out rather than spread (see `recordAt` in state-machine.ts): a revision is built and frozen on every commit.
    const { expectedRevision, previousDigest } = draft;
    const revision: LedgerRevision = deepFreeze(
      expectedRevision === undefined || previousDigest === undefined
        ? { id: draft.id, revision: draft.revision, at: draft.at, transition: draft.transition, digest }
        : {
            id: draft.id,
            revision: draft.revision,
            expectedRevision,
            at: draft.at,
            previousDigest,
            transition: draft.transition,
            digest,
          },
    );
    return { record: deepFreeze(applyTransition(previous, revision)), revision, text };
  }

  async function commit(previous: LedgerRecord | undefined, draft: Omit<LedgerRevision, 'digest'>) {
    const sealed = await seal(previous, draft);
    await store.append(sealed.record, sealed.revision, sealed.text);
    // Moving the record ends a probe's claim on it, as it ends a shared store's lease.
    claimed.delete(sealed.record.id);
    emit({ record: sealed.record, revision: sealed.revision, origin: 'local' });
    return sealed.record;
  }

  function validIntent(input: SendIntent): SendIntent {
    const plain = plainIntent(input);
    if (plain !== undefined) {
      return plain;
    }
    // Only the message can hold values the schemas do not copy (a data part's JSON), so only it is copied as JSON; decoding copies the rest.
    const given = typeof input === 'object' && input !== null ? input.message : undefined;
    const message = given === undefined ? undefined : asJson(given, 'message-json');
    const decoded = decodeLedger(SendIntent, { ...input, message });
    if (!decoded.ok) {
      throw new LedgerError('invalid-input', { rule: decoded.error.rule });
    }
    return dropUndefined(decoded.value);
  }

  function validTransition(input: LedgerTransition): LedgerTransition {
    // Decoding builds fresh objects of JSON members only (the schemas are strict and hold no opaque values), so only explicit `undefined` members remain to drop.
    const decoded = decodeLedger(LedgerTransition, input);
    if (!decoded.ok) {
      throw new LedgerError('invalid-input', { rule: decoded.error.rule });
    }
    return dropUndefined(decoded.value);
  }

  async function create(input: SendIntent, start?: AttemptStart): Promise<LedgerRecord> {
    writable();
    const intent = validIntent(input);
    const first = {
      id: intent.id,
      revision: 0,
      at: stamp(0),
      transition: { type: 'create', intent },
    } as const;
    if (start === undefined) {
      return commit(undefined, first);
    }
    const begin = validTransition({ ...(start as object), type: 'start' } as LedgerTransition);
    // docs/durable-send.md#execution-order: the record and its first attempt become durable together, in one write, since nothing may leave before the attempt is durable anyway.
    const prepared = await seal(undefined, first);
    const executing = await seal(prepared.record, {
      id: intent.id,
      revision: 1,
      expectedRevision: 0,
      at: stamp(prepared.record.updatedAt),
      previousDigest: prepared.record.digest,
      transition: begin,
    });
    if (store.appendAll === undefined) {
      await store.append(prepared.record, prepared.revision, prepared.text);
      emit({ record: prepared.record, revision: prepared.revision, origin: 'local' });
      await store.append(executing.record, executing.revision, executing.text);
    } else {
      await store.appendAll([prepared, executing]);
      emit({ record: prepared.record, revision: prepared.revision, origin: 'local' });
    }
    emit({ record: executing.record, revision: executing.revision, origin: 'local' });
    return executing.record;
  }

  async function transition(id: string, expectedRevision: number, input: LedgerTransition) {
    writable();
    const valid = validTransition(input);
    const current = store.head?.(id, expectedRevision) ?? (await store.get(id));
    if (current === undefined) {
      throw new LedgerError('not-found');
    }
    if (current.revision !== expectedRevision) {
      throw new LedgerError('stale-revision');
    }
    return commit(current, {
      id,
      revision: expectedRevision + 1,
      expectedRevision,
      at: stamp(current.updatedAt),
      previousDigest: current.digest,
      transition: valid,
    });
  }

  async function onRemote(id: string, revision: number): Promise<void> {
    const history = await store.history(id);
    let record: LedgerRecord | undefined;
    for (const entry of history) {
      record = applyTransition(record, entry);
      if (entry.revision === revision) {
        emit({ record: deepFreeze(record), revision: entry, origin: 'remote' });
        return;
      }
    }
  }

  store.watch?.((id, revision) => {
    if (!closed && listeners.size > 0) {
      // A follower only announces what it could read and decode; a corrupt entry surfaces on the next read instead.
      onRemote(id, revision).catch(() => undefined);
    }
  });

  // docs/durable-send.md#execution-order: a record left executing by a writer that is gone becomes unknown, never "send again". A single-writer store's are all of them; a shared store's are those whose lease lapsed, leased to this writer first.
  async function recoverOrphans(): Promise<void> {
    const orphans = store.leases
      ? () => store.leases?.orphans(64) ?? Promise.resolve([])
      : async () => store.list(new Set<LedgerStatus>(['executing']));
    for (let batch = await orphans(); batch.length > 0; batch = store.leases ? await orphans() : []) {
      // All at once: the records are independent, and a group-committing store writes them under one sync.
      await Promise.all(
        batch.map((record) =>
          record.state.status === 'executing'
            ? transition(record.id, record.revision, {
                type: 'unknown',
                attemptId: record.state.attemptId,
                reason: 'crashed-while-executing',
              })
            : undefined,
        ),
      );
    }
  }

  async function claimDue(query: DueQuery = {}): Promise<LedgerRecord[]> {
    writable();
    const limit = query.limit ?? 16;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1024) {
      throw new LedgerError('invalid-input', { rule: 'limit' });
    }
    if (store.leases !== undefined) {
      await recoverOrphans();
      // Read after the sweep, so the records it just turned unknown are due in this very claim.
      return store.leases.claimDue({ ...query, limit }, Date.now());
    }
    const now = Date.now();
    const due = (await store.list(new Set<LedgerStatus>(['unknown']))).filter(
      (record) => isDue(record, now) && !claimed.has(record.id) && matchesDue(record, query),
    );
    const at = (record: LedgerRecord) =>
      record.state.status === 'unknown' ? (record.state.pending?.notBefore ?? record.updatedAt) : 0;
    // A stable sort: records due at the same time stay in the ledger's own sequence.
    due.sort((left, right) => at(left) - at(right));
    const taken = due.slice(0, limit);
    for (const record of taken) {
      claimed.add(record.id);
    }
    return taken;
  }

  async function claim(id: string): Promise<LedgerRecord | undefined> {
    writable();
    const now = Date.now();
    if (store.leases !== undefined) {
      return store.leases.claim(id, now);
    }
    const record = await store.get(id);
    if (record === undefined || !isDue(record, now) || claimed.has(id)) {
      return undefined;
    }
    claimed.add(id);
    return record;
  }

  async function release(id: string): Promise<void> {
    claimed.delete(id);
    await store.leases?.release(id);
  }

  async function list(filter?: LedgerFilter): Promise<LedgerRecord[]> {
    const states = filter?.states === undefined ? undefined : new Set(filter.states);
    return store.list(states);
  }

  const ledger: Ledger = {
    create: (intent, start) => guard(() => create(intent, start)),
    transition: (id, expectedRevision, input) => guard(() => transition(id, expectedRevision, input)),
    get: (id) => guard(() => store.get(id)),
    list: (filter) => guard(() => list(filter)),
    history: (id) => guard(() => store.history(id)),
    claimDue: (query) => guard(() => claimDue(query)),
    claim: (id) => guard(() => claim(id)),
    release: (id) => guard(() => release(id)),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      if (closed) {
        return;
      }
      closed = true;
      if (active > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
        });
      }
      listeners.clear();
      await store.close();
    },
  };

  if (store.writable) {
    try {
      await recoverOrphans();
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return ledger;
}
