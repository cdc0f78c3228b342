/**
@module
A Cloudflare worker for `test/durable/runtime-resend.test.ts`, bundled as wrangler bundles one (the `workerd`,
`worker` and `browser` conditions) and run in workerd by miniflare: the workerd half of `resend-child.ts`,
which Node, Bun and Deno run; both run `resend-probe.ts`. Asked with `{ origin, token }` of the loopback mock
agent (one that ignores keys), it tries `@surecall/client/ledger` (workerd has no IndexedDB: the typed
refusal, docs/durable-send.md#ledger-stores), builds an at-most-once durable agent over the memory store
without the acknowledgement (workerd's `fetch` does not re-send, docs/interop.md#runtimes), loses the answer
of a send on a warm connection, and repeats that with a plain `sendMessage`; it answers with what happened as
JSON.
*/
// What wrangler's conditions make of the package entry: the test bundles it as wrangler would.
import { openLedger } from '@surecall/client/ledger';
import { probeResend } from './resend-probe.js';

type Question = { readonly origin: string; readonly token: string };

async function measure({ origin, token }: Question): Promise<Record<string, unknown>> {
  let store: Record<string, unknown>;
  try {
    await openLedger({ name: 'sends' });
    store = { opened: true };
  } catch (error) {
    const { name, reason, rule, message } = error as { [key: string]: unknown };
    store = { name, reason, rule, message };
  }
  return { store, ...(await probeResend(origin, token, { reconcile: false })) };
}

export default {
  async fetch(request: Request): Promise<Response> {
    return Response.json(await measure((await request.json()) as Question));
  },
};
