/**
@module
How the engine writes (docs/durable-send.md#transitions): a caller's intent or transition checked and copied
as JSON, sealed into a revision whose digest covers the one serialization the store writes, appended by the
store's compare-and-set, then announced. Also how a change another writer made is announced here.
*/
import { LedgerError } from '../../core/errors.js';
import { decodeLedger } from '../decoding.js';
import { plainIntent, SendIntent } from '../intent.js';
import { type AttemptStart, deepFreeze, revisionDigestInput } from '../ledger.js';
import { type LedgerRecord, type LedgerRevision, LedgerTransition } from '../record.js';
import { applyTransition } from '../state-machine.js';
import type { StoreCommit } from '../store.js';
import { type EngineState, emit, requireWritable, stamp } from './state.js';

// JSON is what every store keeps, so a message is normalized to exactly that before it is validated and
// digested: `undefined` members vanish, nothing but JSON data (no Date, no class instance) can reach a
// record, and the record never shares an object with the caller.
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
A caller's intent as the ledger keeps it: the common shape checked without the schemas (`plainIntent`), any
other through them.
*/
function validIntent(input: SendIntent): SendIntent {
  const plain = plainIntent(input);
  if (plain !== undefined) {
    return plain;
  }
  // Only the message can hold values the schemas do not copy (a data part's JSON), so only it is copied as
  // JSON; decoding copies the rest.
  const given = typeof input === 'object' && input !== null ? input.message : undefined;
  const message = given === undefined ? undefined : asJson(given, 'message-json');
  const decoded = decodeLedger(SendIntent, { ...input, message });
  if (!decoded.ok) {
    throw new LedgerError('invalid-input', { rule: decoded.error.rule });
  }
  return dropUndefined(decoded.value);
}

function validTransition(input: LedgerTransition): LedgerTransition {
  // Decoding builds fresh objects of JSON members only (the schemas are strict and hold no opaque values), so
  // only explicit `undefined` members remain to drop.
  const decoded = decodeLedger(LedgerTransition, input);
  if (!decoded.ok) {
    throw new LedgerError('invalid-input', { rule: decoded.error.rule });
  }
  return dropUndefined(decoded.value);
}

/** A revision with its digest, the record it leaves and the text its digest covers: what a store appends. */
async function seal(
  state: EngineState,
  previous: LedgerRecord | undefined,
  draft: Omit<LedgerRevision, 'digest'>,
): Promise<StoreCommit> {
  let text: string;
  try {
    // The one serialization of a revision: its digest covers these bytes, and the file store writes them as
    // they are.
    text = revisionDigestInput(draft);
  } catch (error) {
    // canonicalJson refuses what has no canonical form, e.g. a lone surrogate in a text part.
    throw new LedgerError('invalid-input', { rule: 'canonical-json', cause: error });
  }
  // A synchronous SHA-256 (the file store's) is used without an extra turn of the event loop.
  const hashed = state.sha256(text);
  const digest = typeof hashed === 'string' ? hashed : await hashed;
  // Written out rather than spread (see `recordAt` in state-machine.ts): a revision is built and frozen on
  // every commit.
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

async function commit(
  state: EngineState,
  previous: LedgerRecord | undefined,
  draft: Omit<LedgerRevision, 'digest'>,
): Promise<LedgerRecord> {
  const sealed = await seal(state, previous, draft);
  await state.store.append(sealed.record, sealed.revision, sealed.text);
  // Moving the record ends a probe's claim on it, as it ends a shared store's lease.
  state.claimed.delete(sealed.record.id);
  emit(state, { record: sealed.record, revision: sealed.revision, origin: 'local' });
  return sealed.record;
}

/** `Ledger.create`: revision 0, and with `start` the first attempt in the same durable write. */
export async function create(
  state: EngineState,
  input: SendIntent,
  start?: AttemptStart,
): Promise<LedgerRecord> {
  requireWritable(state);
  const intent = validIntent(input);
  const first = {
    id: intent.id,
    revision: 0,
    at: stamp(state, 0),
    transition: { type: 'create', intent },
  } as const;
  if (start === undefined) {
    return commit(state, undefined, first);
  }
  const begin = validTransition({ ...(start as object), type: 'start' } as LedgerTransition);
  // docs/durable-send.md#execution-order: the record and its first attempt become durable together, in one
  // write, since nothing may leave before the attempt is durable anyway.
  const prepared = await seal(state, undefined, first);
  const executing = await seal(state, prepared.record, {
    id: intent.id,
    revision: 1,
    expectedRevision: 0,
    at: stamp(state, prepared.record.updatedAt),
    previousDigest: prepared.record.digest,
    transition: begin,
  });
  const { store } = state;
  if (store.appendAll === undefined) {
    await store.append(prepared.record, prepared.revision, prepared.text);
    emit(state, { record: prepared.record, revision: prepared.revision, origin: 'local' });
    await store.append(executing.record, executing.revision, executing.text);
  } else {
    await store.appendAll([prepared, executing]);
    emit(state, { record: prepared.record, revision: prepared.revision, origin: 'local' });
  }
  emit(state, { record: executing.record, revision: executing.revision, origin: 'local' });
  return executing.record;
}

/** `Ledger.transition`: the next revision of a record still at `expectedRevision`. */
export async function transition(
  state: EngineState,
  id: string,
  expectedRevision: number,
  input: LedgerTransition,
): Promise<LedgerRecord> {
  requireWritable(state);
  const valid = validTransition(input);
  const { store } = state;
  const current = store.head?.(id, expectedRevision) ?? (await store.get(id));
  if (current === undefined) {
    throw new LedgerError('not-found');
  }
  if (current.revision !== expectedRevision) {
    throw new LedgerError('stale-revision');
  }
  return commit(state, current, {
    id,
    revision: expectedRevision + 1,
    expectedRevision,
    at: stamp(state, current.updatedAt),
    previousDigest: current.digest,
    transition: valid,
  });
}

/** Announces revision `revision` of a record another writer changed, as the store's history gives it. */
export async function announceRemote(state: EngineState, id: string, revision: number): Promise<void> {
  const history = await state.store.history(id);
  let record: LedgerRecord | undefined;
  for (const entry of history) {
    record = applyTransition(record, entry);
    if (entry.revision === revision) {
      emit(state, { record: deepFreeze(record), revision: entry, origin: 'remote' });
      return;
    }
  }
}
