/**
@module
A Cloudflare worker for `test/durable/runtime-resend.test.ts`, bundled as wrangler bundles one (the `workerd`,
`worker` and `browser` conditions) and run in workerd by miniflare: the workerd half of `resend-child.ts`,
which Node, Bun and Deno run. Asked with `{ origin, token }` of the loopback mock agent (one that ignores
keys), it tries `@surecall/client/ledger` (workerd has no IndexedDB: the typed refusal,
docs/durable-send.md#ledger-stores), builds an at-most-once durable agent over the memory store without the
acknowledgement (workerd's `fetch` does not re-send, docs/interop.md#runtimes), loses the answer of a send on
a warm connection, and repeats that with a plain `sendMessage`; it answers with what happened as JSON.
*/
// What wrangler's conditions make of the package entry: the test bundles it as wrangler would.
import { openLedger } from '@surecall/client/ledger';
import { textPart, userMessage } from '../../src/client/builders.js';
import { OptionsError } from '../../src/core/errors.js';
import { discover } from '../../src/discovery/discovery.js';
import { type DurableAgent, durableAgent } from '../../src/durable/agent.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { openLedger as openMemoryLedger } from '../../src/ledger/memory.js';

type Question = { readonly origin: string; readonly token: string };

async function measure({ origin, token }: Question): Promise<Record<string, unknown>> {
  const control = { 'x-surecall-mock-token': token, 'content-type': 'application/json' };
  const executions = async () =>
    ((await (await fetch(`${origin}/__executions`, { headers: control })).json()) as { total: number }).total;
  const armDropAfter = async () => {
    const armed = await fetch(`${origin}/__faults`, {
      method: 'POST',
      headers: control,
      body: JSON.stringify({ kind: 'drop-after', operation: 'SendMessage' }),
    });
    await armed.body?.cancel();
  };

  let store: Record<string, unknown>;
  try {
    await openLedger({ name: 'sends' });
    store = { opened: true };
  } catch (error) {
    const { name, reason, rule, message } = error as { [key: string]: unknown };
    store = { name, reason, rule, message };
  }

  const client = await discover({
    cardUrl: `${origin}/.well-known/agent-card.json`,
    pins: [{ binding: 'JSONRPC', url: `${origin}/a2a/jsonrpc` }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
  });
  const ledger: Ledger = await openMemoryLedger({ name: 'resend' });
  const recovery = { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 1 } as const;
  let refused: string | null = null;
  let agent: DurableAgent;
  try {
    agent = durableAgent({ client, ledger, delivery: 'at-most-once', recovery });
  } catch (error) {
    if (!(error instanceof OptionsError)) {
      throw error;
    }
    refused = `${error.option} ${error.reason}`;
    agent = durableAgent({
      client,
      ledger,
      delivery: 'at-most-once',
      recovery,
      acknowledgeBrowserResend: true,
    });
  }
  const warm = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'task warm up' }] });
  await armDropAfter();
  const before = await executions();
  const lost = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'task book the 9:40 to Lyon' }] });
  const ran = (await executions()) - before;

  await armDropAfter();
  const plainBefore = await executions();
  let plain: string;
  try {
    await client.sendMessage({ message: userMessage([textPart('task plain')]) });
    plain = 'answered';
  } catch (error) {
    const { kind, reason, dispatched } = error as { kind?: string; reason?: string; dispatched?: boolean };
    plain = `${kind} ${reason} dispatched=${dispatched}`;
  }
  const plainRan = (await executions()) - plainBefore;
  await ledger.close();
  return { store, refused, audit: agent.audit, warm: warm.status, lost: lost.status, ran, plain, plainRan };
}

export default {
  async fetch(request: Request): Promise<Response> {
    return Response.json(await measure((await request.json()) as Question));
  },
};
