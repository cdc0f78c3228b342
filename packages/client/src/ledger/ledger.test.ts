import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { intent } from '../../test/support/intent.js';
import {
  type Backend,
  cause,
  ledgerContract,
  recordIn,
  refusal,
  task,
  transitionOf,
} from '../../test/support/ledger-contract.js';
import { ledgerStores } from '../../test/support/ledger-stores.js';
import { InvalidResponseError, LedgerError, RemoteError } from '../core/errors.js';
import * as file from './file.js';
import * as idb from './idb.js';
import {
  applyTransition,
  errorSummary,
  type LedgerRecord,
  type LedgerRevision,
  type LedgerTransition,
  revisionDigest,
  verifyHistory,
} from './ledger.js';
import * as memory from './memory.js';

let directory = '';
let counter = 0;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-ledger-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A name no other test uses: a database name for idb, a journal path for the file store. */
function freshName(backend: Backend): string {
  counter++;
  return backend.name === 'file'
    ? join(directory, `ledger-${counter}.jsonl`)
    : `ledger-${counter}-${Math.random()}`;
}

// The shared contract (`test/support/ledger-contract.ts`): memory, idb, idb with two tabs and file here; the
// same suite runs on PostgreSQL in the `client (postgres)` project and on the real IndexedDB in Chromium in
// `client (chromium)`.
ledgerContract(ledgerStores(), freshName);

const idbBackend: Backend = { name: 'idb', openLedger: idb.openLedger };

it('gives every store an openLedger that takes the same options and the same exports, so the conditions can pick any one', () => {
  expectTypeOf(idb.openLedger).toEqualTypeOf(memory.openLedger);
  // The file store takes one option more (`loneSync`), optional: whatever opens another store opens it.
  expectTypeOf<Parameters<typeof memory.openLedger>[0]>().toExtend<Parameters<typeof file.openLedger>[0]>();
  expectTypeOf(file.openLedger).returns.toEqualTypeOf<ReturnType<typeof memory.openLedger>>();
  const names = Object.keys(memory).sort();
  expect(Object.keys(idb).sort()).toEqual(names);
  expect(Object.keys(file).sort()).toEqual([...names, 'compactLedger', 'ledgerPath'].sort());
});

it('summarizes a client error with its public fields only', () => {
  const remote = new RemoteError({
    dispatched: true,
    httpStatus: 404,
    remoteCode: -32001,
    reason: 'TASK_NOT_FOUND',
  });
  expect(errorSummary(remote)).toEqual({
    name: 'RemoteError',
    kind: 'remote',
    reason: 'TASK_NOT_FOUND',
    dispatched: true,
    httpStatus: 404,
    remoteCode: -32001,
  });
  const invalid = new InvalidResponseError('schema', {
    dispatched: true,
    violation: { rule: 'required', path: '$.task' },
  });
  expect(errorSummary(invalid)).toEqual({
    name: 'InvalidResponseError',
    kind: 'invalid-response',
    reason: 'schema',
    dispatched: true,
    violation: { rule: 'required', path: '$.task' },
  });
});

it('states a refusal with public fields only', async () => {
  const ledger = await memory.openLedger({ name: 'json' });
  const error = await refusal(
    ledger.transition('a-secret-id', 0, transitionOf('start', await ledger.create(intent('x')))),
  );
  expect(JSON.parse(JSON.stringify(error))).toEqual({
    name: 'LedgerError',
    kind: 'ledger',
    reason: 'not-found',
  });
  expect(error.message).not.toContain('a-secret-id');
});

it("needs a platform SHA-256 (Node's, else WebCrypto) unless a store brings its own", async () => {
  const ledger = await memory.openLedger({ name: 'no-crypto' });
  vi.stubGlobal('crypto', {});
  // Off Node there is no builtin module to find.
  const builtin = vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
  try {
    expect(await refusal(ledger.create(intent('no-crypto')))).toMatchObject({
      reason: 'unsupported',
      rule: 'webcrypto',
    });
  } finally {
    vi.unstubAllGlobals();
    builtin.mockRestore();
  }
});

describe('verifyHistory', () => {
  let history: LedgerRevision[] = [];
  beforeAll(async () => {
    const ledger = await memory.openLedger({ name: 'verify' });
    await recordIn(ledger, 'committed', 'verify-1');
    history = await ledger.history('verify-1');
    await ledger.close();
  });

  type Tamper = (revisions: LedgerRevision[]) => void | Promise<void>;
  const tampers: [string, Tamper, { revision: number; rule: string }][] = [
    [
      'a changed result',
      (revisions) => {
        const commit = revisions[2] as LedgerRevision;
        revisions[2] = {
          ...commit,
          transition: { type: 'commit', attemptId: 'a1-verify-1', result: { ...task, taskId: 'other' } },
        };
      },
      { revision: 2, rule: 'digest' },
    ],
    [
      'a changed time',
      (revisions) => {
        const start = revisions[1] as LedgerRevision;
        revisions[1] = { ...start, at: start.at + 1 };
      },
      { revision: 1, rule: 'digest' },
    ],
    [
      'a changed intent',
      (revisions) => {
        const create = revisions[0] as LedgerRevision;
        if (create.transition.type === 'create') {
          revisions[0] = {
            ...create,
            transition: { type: 'create', intent: { ...create.transition.intent, run: 'run-2' } },
          };
        }
      },
      { revision: 0, rule: 'digest' },
    ],
    [
      'a replaced digest',
      (revisions) => {
        revisions[1] = { ...(revisions[1] as LedgerRevision), digest: `sha256:${'0'.repeat(64)}` };
      },
      { revision: 1, rule: 'digest' },
    ],
    [
      'a changed revision whose digest was recomputed, which its successor no longer chains to',
      async (revisions) => {
        const { digest: _, ...start } = revisions[1] as LedgerRevision;
        const changed = { ...start, at: start.at + 1 };
        revisions[1] = { ...changed, digest: await revisionDigest(changed) };
      },
      { revision: 2, rule: 'sequence' },
    ],
    ['a removed revision', (revisions) => void revisions.splice(1, 1), { revision: 1, rule: 'sequence' }],
    [
      'two revisions swapped',
      (revisions) =>
        void revisions.splice(1, 2, revisions[2] as LedgerRevision, revisions[1] as LedgerRevision),
      { revision: 1, rule: 'sequence' },
    ],
    ['an empty history', (revisions) => void revisions.splice(0), { revision: 0, rule: 'empty' }],
    [
      'a value that is not a revision',
      (revisions) => void revisions.splice(1, 1, { id: 'x' } as never),
      { revision: 1, rule: 'invalid_type' },
    ],
  ];
  it.each(tampers)('detects %s', async (_, tamper, error) => {
    expect(await verifyHistory(history)).toMatchObject({ ok: true });
    const revisions = structuredClone(history);
    await tamper(revisions);
    expect(await verifyHistory(revisions)).toEqual({ ok: false, error });
  });
});

describe('applyTransition', () => {
  const sha = (n: number) => `sha256:${n.toString(16).padStart(64, '0')}`;
  const created = applyTransition(undefined, {
    id: 'p',
    revision: 0,
    at: 0,
    transition: { type: 'create', intent: intent('p') },
    digest: sha(0),
  });
  const attempts = ['a1', 'a2', 'a3'];
  const arbitraryTransition: fc.Arbitrary<LedgerTransition> = fc.oneof(
    fc.record({
      type: fc.constant('start' as const),
      attemptId: fc.constantFrom(...attempts),
      messageId: fc.constantFrom('m1', 'm2', 'm3'),
    }),
    fc.record({
      type: fc.constant('commit' as const),
      attemptId: fc.constantFrom(...attempts),
      result: fc.constant(task),
    }),
    fc.record({
      type: fc.constant('fail' as const),
      attemptId: fc.constantFrom(...attempts),
      cause: fc.constant(cause),
      effect: fc.constantFrom('not-started' as const, 'not-applied' as const),
      retryAfterMs: fc.constantFrom(1, 10),
    }),
    fc.record({
      type: fc.constant('unknown' as const),
      attemptId: fc.constantFrom(...attempts),
      reason: fc.constant('ambiguous-outcome' as const),
    }),
    fc.record({
      type: fc.constant('pending' as const),
      attemptId: fc.constantFrom(...attempts),
      notBefore: fc.integer({ min: 0, max: 200 }),
    }),
    fc.record({
      type: fc.constant('unresolved' as const),
      attemptId: fc.constantFrom(...attempts),
      reason: fc.constantFrom('no-evidence' as const, 'conflicting-evidence' as const),
    }),
    fc.record({
      type: fc.constant('reconcile-commit' as const),
      attemptId: fc.constantFrom(...attempts),
      result: fc.constant(task),
    }),
    fc.record({
      type: fc.constant('reconcile-fail' as const),
      attemptId: fc.constantFrom(...attempts),
      cause: fc.constant(cause),
      effect: fc.constant('not-applied' as const),
    }),
  );

  it('never lets unknown become executing, never leaves committed, and only grows the attempts by a start', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(arbitraryTransition, fc.integer({ min: 0, max: 20 })), { maxLength: 30 }),
        (steps) => {
          let record = created;
          for (const [transition, elapsed] of steps) {
            const at = record.updatedAt + elapsed;
            let next: LedgerRecord;
            try {
              next = applyTransition(record, {
                id: 'p',
                revision: record.revision + 1,
                expectedRevision: record.revision,
                at,
                previousDigest: record.digest,
                transition,
                digest: sha(record.revision + 1),
              });
            } catch (error) {
              expect(error).toBeInstanceOf(LedgerError);
              expect((error as LedgerError).reason).toMatch(/^(invalid-transition|reused-attempt)$/);
              continue;
            }
            expect(record.state.status === 'unknown' && next.state.status === 'executing').toBe(false);
            expect(record.state.status).not.toBe('committed');
            const grew = next.attempts.length - record.attempts.length;
            expect(grew).toBe(transition.type === 'start' ? 1 : 0);
            expect(new Set(next.attempts.map((attempt) => attempt.attemptId)).size).toBe(
              next.attempts.length,
            );
            record = next;
          }
        },
      ),
    );
  });

  const start = {
    id: 'p',
    revision: 1,
    expectedRevision: 0,
    at: 5,
    previousDigest: sha(0),
    transition: { type: 'start', attemptId: 'a1', messageId: 'm1' },
    digest: sha(1),
  } satisfies LedgerRevision;
  const create = {
    id: 'p',
    revision: 0,
    at: 0,
    transition: { type: 'create', intent: intent('p') },
    digest: sha(0),
  };
  it.each([
    ['a second create', created, create, 'create-first'],
    ['a first revision that is not a create', undefined, start, 'missing-create'],
    ['a skipped revision', created, { ...start, revision: 2, expectedRevision: 1 }, 'sequence'],
    ['a wrong predecessor digest', created, { ...start, previousDigest: sha(7) }, 'sequence'],
    ['a clock running backwards', { ...created, updatedAt: 6 }, start, 'clock'],
    ['a revision of another record', created, { ...start, id: 'q' }, 'other-record'],
  ] as [string, LedgerRecord | undefined, LedgerRevision, string][])(
    'refuses %s as corrupt',
    (_, record, revision, rule) => {
      expect(() => applyTransition(record, revision)).toThrow(
        expect.objectContaining({ reason: 'corrupt', rule }),
      );
    },
  );
});

describe('the idb ledger, as a store', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('needs IndexedDB', async () => {
    vi.stubGlobal('indexedDB', undefined);
    expect(await refusal(idb.openLedger({ name: 'none' }))).toMatchObject({
      reason: 'unsupported',
      rule: 'indexeddb',
    });
  });

  it("yields the database to a newer version and reports IndexedDB's failures as io, never its own errors", async () => {
    const name = freshName(idbBackend);
    const ledger = await idb.openLedger({ name });
    await ledger.create(intent('upgrade-1'));
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, 5);
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    const error = await refusal(ledger.get('upgrade-1'));
    expect(error).toMatchObject({ reason: 'io' });
    expect(error.cause).toBeInstanceOf(DOMException);
    await ledger.close();
  });

  it('reports a stored record that does not decode as corrupt, never skipping it', async () => {
    const name = freshName(idbBackend);
    const ledger = await idb.openLedger({ name });
    const record = await ledger.create(intent('corrupt-1'));
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => {
        const tx = request.result.transaction('records', 'readwrite');
        tx.objectStore('records').put({ ...record, state: { status: 'executing' } });
        tx.oncomplete = () => {
          request.result.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    });
    expect(await refusal(ledger.get('corrupt-1'))).toMatchObject({ reason: 'corrupt' });
    expect(await refusal(ledger.list())).toMatchObject({ reason: 'corrupt' });
    expect(await refusal(ledger.transition('corrupt-1', 0, transitionOf('start', record)))).toMatchObject({
      reason: 'corrupt',
    });
    await ledger.close();
  });
});
