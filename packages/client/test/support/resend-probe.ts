/**
@module
The probe both halves of `test/durable/runtime-resend.test.ts` run: `resend-child.ts` in Node, Bun and Deno,
`resend-worker.ts` in workerd. Does this runtime's `fetch` send a POST again by itself when a warm keep-alive
connection closes before any byte of the answer (docs/interop.md#runtimes), and what does the durable agent
make of it? Against the loopback mock agent at `origin` (one that ignores keys, so at-most-once is the only
delivery; its control routes behind `token`), on one connection kept warm by each request before the next:

1. it builds an at-most-once durable agent without `acknowledgeBrowserResend`, and reports the refusal when
   there is one, then builds it with the acknowledgement (which turns the audit on);
2. a durable send warms the connection, a `drop-after` fault is armed for the next SendMessage, and a second
   durable send runs into it; the agent's own execution counter says how many times it ran, and, when asked,
   an `unknown` record is reconciled;
3. the same with a plain `sendMessage`: answered (the runtime re-sent it) or the error it threw.

It never throws on a finding: the test judges what it reports.
*/
import { textPart, userMessage } from '../../src/client/builders.js';
import { OptionsError } from '../../src/core/errors.js';
import { discover } from '../../src/discovery/discovery.js';
import { type DurableAgent, durableAgent } from '../../src/durable/agent.js';
import { openLedger } from '../../src/ledger/memory.js';

/** What the probe found; `reconciled` and `ranAfterReconciling` only when it was asked to reconcile. */
export type ResendFindings = {
  readonly refused: string | null;
  readonly audit: boolean;
  readonly warm: string;
  readonly lost: string;
  readonly ran: number;
  readonly reconciled?: string | null;
  readonly ranAfterReconciling?: number;
  readonly plain: string;
  readonly plainRan: number;
};

/**
Runs the probe against the mock agent at `origin`.

@example
```ts
const findings = await probeResend(origin, token, { reconcile: true });
```
*/
export async function probeResend(
  origin: string,
  token: string,
  options: { readonly reconcile: boolean },
): Promise<ResendFindings> {
  const control = { 'x-surecall-mock-token': token, 'content-type': 'application/json' };
  const executions = async () =>
    ((await (await fetch(`${origin}/__executions`, { headers: control })).json()) as { total: number }).total;
  const armDropAfter = async () => {
    const armed = await fetch(`${origin}/__faults`, {
      method: 'POST',
      headers: control,
      body: JSON.stringify({ kind: 'drop-after', operation: 'SendMessage' }),
    });
    // Read to its end, not cancelled: Deno closes a connection whose answer was cancelled, and the lost
    // send would then leave on a fresh one, which it never re-sends (scripts/tarballs/mock-control.mjs).
    await armed.text();
  };

  const client = await discover({
    cardUrl: `${origin}/.well-known/agent-card.json`,
    pins: [{ binding: 'JSONRPC', url: `${origin}/a2a/jsonrpc` }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
  });
  const recovery = { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 1 } as const;
  const ledger = await openLedger({ name: 'resend' });
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
  let reconciling = {};
  if (options.reconcile) {
    const reconciled = lost.status === 'unknown' ? (await agent.reconcile(lost.id)).status : null;
    reconciling = { reconciled, ranAfterReconciling: (await executions()) - before };
  }

  await armDropAfter();
  const plainBefore = await executions();
  let plain: string;
  try {
    const answer = await client.sendMessage({ message: userMessage([textPart('task plain')]) });
    plain = 'task' in answer ? 'answered' : 'answered with a message';
  } catch (error) {
    const { kind, reason, dispatched } = error as { kind?: string; reason?: string; dispatched?: boolean };
    plain = `${kind} ${reason} dispatched=${dispatched}`;
  }
  const plainRan = (await executions()) - plainBefore;
  await ledger.close();
  return {
    refused,
    audit: agent.audit,
    warm: warm.status,
    lost: lost.status,
    ran,
    ...reconciling,
    plain,
    plainRan,
  };
}
