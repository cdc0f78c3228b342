/**
@module
The ledger a command names with `--ledger`: a file path (the Node journal store,
docs/durable-send.md#ledger-stores) or a `postgres://` URL (the fleet store,
`@surecall/client/ledger/postgres`, loaded only when asked for, so an installation without PostgreSQL never
loads `pg`). Commands that write (a durable send, a reconciliation) open the store itself; commands that only
read (`list`, `show`, `watch`, `devtools`) get a `LedgerView` (`ledger-view.ts`) of the store opened
read-only: for a file, the client's read-only open of the journal (`journal-view.ts`), which takes no lock, so
a running sender is never locked out.
*/
import { hostname } from 'node:os';
import type { Ledger } from '@surecall/client/ledger';
import { SetupError } from './connect.js';
import { openJournalView } from './journal-view.js';
import { type LedgerView, viewOf } from './ledger-view.js';

/** Whether the spec names a PostgreSQL ledger. */
export function isPostgres(spec: string): boolean {
  return /^postgres(ql)?:\/\//i.test(spec);
}

/** What the PostgreSQL store module exports, as far as the CLI uses it. */
type PostgresModule = {
  readonly openPostgresLedger: (
    connection: { readonly connectionString: string },
    options: {
      readonly worker?: string;
      readonly leaseMs?: number;
      readonly schema?: string;
      readonly readOnly?: boolean;
    },
  ) => Promise<Ledger>;
};

// A variable specifier: the module is optional, and a build without it must still compile and run.
const postgresEntry = '@surecall/client/ledger/postgres';

async function openPostgres(
  connectionString: string,
  schema: string | undefined,
  readOnly: boolean,
): Promise<Ledger> {
  let module: Partial<PostgresModule>;
  try {
    module = (await import(postgresEntry)) as Partial<PostgresModule>;
  } catch {
    throw new SetupError(
      'a postgres:// ledger needs @surecall/client/ledger/postgres and the pg driver (npm install pg), which this installation does not have',
    );
  }
  if (typeof module.openPostgresLedger !== 'function') {
    throw new SetupError('this installation of @surecall/client has no PostgreSQL ledger');
  }
  return module.openPostgresLedger(
    { connectionString },
    {
      ...(schema === undefined ? {} : { schema }),
      // A reader takes no lease and writes nothing (not even the sweep of orphaned leases a writer's open
      // does): it follows the fleet (LISTEN/NOTIFY) without getting in its way.
      ...(readOnly
        ? { readOnly: true }
        : // One worker id per CLI process, never reused by a live one: a restarted worker ends its predecessor's leases (docs/durable-send.md#leases), and this process's leases lapse on their own if it dies.
          { worker: `surecall-cli-${hostname()}-${process.pid}`, leaseMs: 30_000 }),
    },
  );
}

/** A store opened for writing, and where its journal is when it is a file ledger. */
export type WritableLedger = {
  readonly ledger: Ledger;
  /**
  The journal's absolute path, which the writing commands print (README.md#the-surecall-command); a
  PostgreSQL ledger has none, and its connection string is never printed.
  */
  readonly path: string | undefined;
};

/**
Opens the store `spec` names, for writing: a relative file name is resolved under the ledger directory as
every other command resolves it (docs/durable-send.md#where-the-file-ledger-lives).

@example
```ts
const { ledger, path } = await openWritable('sends.jsonl'); // path: <cwd>/.surecall/ledgers/sends.jsonl
const shared = await openWritable('postgres://surecall@db.internal/app', 'payments_ledger');
```
*/
export async function openWritable(spec: string, schema?: string): Promise<WritableLedger> {
  if (isPostgres(spec)) {
    return { ledger: await openPostgres(spec, schema, false), path: undefined };
  }
  const { ledgerPath, openLedger } = await import('@surecall/client/ledger/file');
  // A command sends and settles its records one at a time, and nothing else in the process waits meanwhile:
  // each sync is made on the event-loop thread, without waking a file-system thread for it
  // (docs/durable-send.md#what-a-durable-send-costs).
  const ledger = await openLedger({ name: spec, loneSync: 'event-loop' });
  return { ledger, path: ledgerPath(ledger) };
}

/**
Opens a read-only view of the ledger `spec` names.

@example
```ts
const view = await openView('sends.jsonl');
for (const record of await view.list()) print(record);
```
*/
export async function openView(spec: string, schema?: string): Promise<LedgerView> {
  if (!isPostgres(spec)) {
    return openJournalView(spec);
  }
  return viewOf(await openPostgres(spec, schema, true));
}
