/**
@module
How one writer opens the shared PostgreSQL ledger: its options, their defaults, and the one function that
checks and merges them (CONTRIBUTING.md#options). Every refusal is `LedgerError('invalid-input')` with the
option's name as the rule.
*/
import { hostname } from 'node:os';
import { LedgerError } from '../../core/errors.js';
import { retentionOf } from '../ledger.js';

/** How one writer opens the shared ledger. */
export type PostgresLedgerOptions = {
  /**
  This writer's id, written on its leases and revisions: one live process per id
  (docs/durable-send.md#one-live-process-per-worker-id). An open while another live process holds the id in
  the same schema is refused as `locked` (rule `worker-live`); otherwise it ends the leases the id's previous
  process held. @default `<hostname>-<pid>`
  */
  readonly worker?: string;
  /**
  How long a lease lasts without renewal, 100 ms to 1 h; the writer renews its leases every third of
  it. @default 30000
  */
  readonly leaseMs?: number;
  /**
  The schema the ledger's tables live in: lowercase letters, digits and `_`, at most 48, starting with a
  letter or `_`, and none PostgreSQL reserves or shares (`public`, `information_schema`, any `pg_…`). @default
  'surecall_ledger'
  */
  readonly schema?: string;
  /** Connections of the pool the ledger makes from a connection string, 1 to 256. @default 10 */
  readonly poolSize?: number;
  /**
  How long a settled record is kept after it settled, as `LedgerOptions.retentionMs`
  (docs/durable-send.md#retention): past it any writer prunes it. @default 7 days
  */
  readonly retentionMs?: number;
  /**
  Follow only: reads and `subscribe` work, every write and claim is refused as `locked`, no lease is taken or
  recovered, and the schema is not migrated, only its version read, so a role that may only read can open it.
  For a panel or a CLI that watches a fleet. @default false
  */
  readonly readOnly?: boolean;
};

/** The options with nothing left to default. */
export type ResolvedPostgresLedgerOptions = {
  readonly worker: string;
  readonly leaseMs: number;
  readonly schema: string;
  readonly poolSize: number;
  readonly readOnly: boolean;
  readonly retentionMs: number;
};

// The defaults but the worker id, which is this process's, and the retention, which is every store's
// (ledger.ts).
const defaults = Object.freeze({ leaseMs: 30_000, schema: 'surecall_ledger', poolSize: 10, readOnly: false });

/** Refuses an option (or the connection) by its name. */
export function invalid(rule: string): never {
  throw new LedgerError('invalid-input', { rule });
}

/**
Whether PostgreSQL reserves or shares the schema `name`: `information_schema`, every `pg_…` (`pg_catalog`,
`pg_toast`, the temporary schemas) and `public`, which every role may write in by default. The ledger creates,
migrates and prunes its tables in its own schema, so it never opens one of these. Compared as PostgreSQL folds
an unquoted name, in lower case, although the schema's own pattern already admits no capital.
*/
function reservedSchema(name: string): boolean {
  const folded = name.toLowerCase();
  return folded === 'public' || folded === 'information_schema' || folded.startsWith('pg_');
}

function whole(value: unknown, fallback: number, min: number, max: number, rule: string): number {
  const given = value ?? fallback;
  if (typeof given !== 'number' || !Number.isSafeInteger(given) || given < min || given > max) {
    invalid(rule);
  }
  return given;
}

/** The options of `openPostgresLedger`, checked and merged in this one place. */
export function resolvePostgresLedgerOptions(options: PostgresLedgerOptions): ResolvedPostgresLedgerOptions {
  if (typeof options !== 'object' || options === null) {
    invalid('options');
  }
  const worker = options.worker ?? `${hostname()}-${process.pid}`;
  // A label: printable, no control character, short enough for an index and a log line.
  if (typeof worker !== 'string' || worker.length === 0 || worker.length > 128 || /\p{Cc}/u.test(worker)) {
    invalid('worker');
  }
  const schema = options.schema ?? defaults.schema;
  if (typeof schema !== 'string' || !/^[a-z_][a-z0-9_]{0,47}$/.test(schema) || reservedSchema(schema)) {
    invalid('schema');
  }
  const readOnly = options.readOnly ?? defaults.readOnly;
  if (typeof readOnly !== 'boolean') {
    invalid('readOnly');
  }
  return {
    worker,
    schema,
    readOnly,
    leaseMs: whole(options.leaseMs, defaults.leaseMs, 100, 3_600_000, 'leaseMs'),
    poolSize: whole(options.poolSize, defaults.poolSize, 1, 256, 'poolSize'),
    retentionMs: retentionOf({
      name: schema,
      ...(options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs }),
    }),
  };
}
