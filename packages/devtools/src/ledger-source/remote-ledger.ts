/**
@module
The devtools' read-only ledger source: a `Ledger` over the endpoint `surecall devtools --ledger …` serves on
127.0.0.1 (README.md#the-surecall-command). The page holds no database credentials and no file: only the
per-run token the server printed in the link's fragment, sent as `Authorization: Bearer`. Reads are the
endpoint's (`/api/ledger/records`, `/api/ledger/history`); changes are found by polling, each record compared
by its head digest; writes are refused with `LedgerError('unsupported')`, so the Sends panel shows the inbox
without a Reconcile action (`surecall sends reconcile` does that from a shell).
*/
import { LedgerError } from '@surecall/client';
import type { Ledger, LedgerChange, LedgerRecord, LedgerRevision } from '@surecall/client/ledger';

/** Where the endpoint is and the token that opens it. */
export type LedgerSource = { readonly origin: string; readonly token: string };

// The server's token: 32 random bytes in base64url (RFC 4648 §5), 43 characters.
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
The ledger source a page's fragment names (`#ledger=<token>`), on the page's own origin, or `undefined`.

@example
```ts
ledgerSourceFromHash('#ledger=AbC…', 'http://127.0.0.1:4300'); // { origin: 'http://127.0.0.1:4300', token: 'AbC…' }
```
*/
export function ledgerSourceFromHash(hash: string, origin: string): LedgerSource | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('ledger');
  return token !== null && TOKEN.test(token) ? { origin, token } : undefined;
}

/** Options of {@link openRemoteLedger}. */
export type RemoteLedgerOptions = {
  /** How often `subscribe` looks for changes. @default 1000 */
  readonly pollMs?: number;
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
A read-only `Ledger` over the endpoint of `source`.

@example
```ts
const ledger = openRemoteLedger(ledgerSourceFromHash(location.hash, location.origin));
const records = await ledger.list();
```
*/
export function openRemoteLedger(source: LedgerSource, options: RemoteLedgerOptions = {}): Ledger {
  const pollMs = options.pollMs ?? 1000;
  let closed = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  async function read(path: string): Promise<Record<string, unknown>> {
    if (closed) {
      throw new LedgerError('closed');
    }
    let response: Response;
    try {
      // globalThis.fetch looked up per call, as the client does (ARCHITECTURE.md#import-rules).
      response = await globalThis.fetch(`${source.origin}${path}`, {
        headers: { authorization: `Bearer ${source.token}` },
        cache: 'no-store',
      });
    } catch (error) {
      throw new LedgerError('io', { rule: 'endpoint', cause: error });
    }
    if (response.status === 401) {
      throw new LedgerError('io', { rule: 'token' });
    }
    const body: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
    if (!isObject(body)) {
      throw new LedgerError('io', { rule: 'endpoint' });
    }
    return body;
  }

  async function list(): Promise<LedgerRecord[]> {
    const { records } = await read('/api/ledger/records');
    if (!Array.isArray(records)) {
      throw new LedgerError('corrupt', { rule: 'records' });
    }
    return records.map((entry: unknown) => {
      const record: unknown = isObject(entry) ? (entry as { readonly record?: unknown }).record : undefined;
      if (!isObject(record)) {
        throw new LedgerError('corrupt', { rule: 'records' });
      }
      return record as LedgerRecord;
    });
  }

  async function history(id: string): Promise<LedgerRevision[]> {
    const { revisions } = await read(`/api/ledger/history?id=${encodeURIComponent(id)}`);
    if (!Array.isArray(revisions)) {
      throw new LedgerError('corrupt', { rule: 'history' });
    }
    return revisions as LedgerRevision[];
  }

  const readOnly = async (): Promise<never> => {
    throw new LedgerError('unsupported', { rule: 'read-only' });
  };

  return {
    create: readOnly,
    transition: readOnly,
    claimDue: readOnly,
    claim: readOnly,
    release: readOnly,
    // A file or PostgreSQL ledger served over HTTP: no tabs share it.
    ownerOf: async () => undefined,
    list,
    history,
    get: async (id) => (await list()).find((record) => record.id === id),
    subscribe(listener: (change: LedgerChange) => void) {
      let stopped = false;
      let seen: Map<string, string> | undefined;
      const poll = async () => {
        try {
          const records = await list();
          const first = seen === undefined;
          seen ??= new Map();
          for (const record of records) {
            if (seen.get(record.id) === record.digest) {
              continue;
            }
            seen.set(record.id, record.digest);
            const revisions = first ? [] : await history(record.id);
            const revision = revisions.at(-1);
            if (!first && revision !== undefined && !stopped) {
              try {
                listener({ record, revision, origin: 'remote' });
              } catch {
                // A throwing listener affects neither the poll nor other listeners (the Ledger contract).
              }
            }
          }
        } catch {
          // The server may be restarting or gone; the next poll tries again.
        }
        if (!stopped && !closed) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            void poll();
          }, pollMs);
          timers.add(timer);
        }
      };
      void poll();
      return () => {
        stopped = true;
      };
    },
    async close() {
      closed = true;
      for (const timer of timers) {
        clearTimeout(timer);
      }
      timers.clear();
    },
  };
}
