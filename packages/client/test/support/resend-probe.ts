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
   durable send runs into it, again until it left on a warm connection (the mount's request log says which
   connection carried it); the agent's own execution counter says how many times it ran, and, when asked,
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
  /** Executions of the rounds run again because their send left on a fresh connection. */
  readonly discarded: number;
};

/** `GET /__requests` of the loopback mount: which connection carried each request it admitted. */
type RequestLog = {
  readonly requests: readonly {
    readonly number: number;
    readonly connection: number;
    readonly path: string;
  }[];
};

/** Rounds a send may take to leave on a warm connection before the probe gives up. */
const warmAttempts = 8;

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
  const read = async <T>(path: string) =>
    (await (await fetch(`${origin}${path}`, { headers: control })).json()) as T;
  const executions = async () => (await read<{ total: number }>('/__executions')).total;
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

  /**
  Runs `round` (a send into an armed `drop-after`) until its SendMessage left on a warm connection, as the
  loopback mount's request log (`GET /__requests`) tells: a runtime may re-send only a request whose reused
  connection closed under it, so a round whose send opened a fresh connection (the runtime's pool had not
  taken the last connection back yet, which a loaded machine makes likely) measures nothing and is run
  again. What the discarded rounds ran is counted, so the agent's total still adds up.
  */
  const onWarmConnection = async <T>(round: () => Promise<T>) => {
    let discarded = 0;
    for (let attempt = 0; attempt < warmAttempts; attempt += 1) {
      await armDropAfter();
      const before = await executions();
      // Read last before the send, so its connection is the warm one the send should take.
      const { requests: earlier } = await read<RequestLog>('/__requests');
      // One turn of the event loop, so that the runtime's pool can take back the connection that answer left
      // idle: sent at once, Deno's send sometimes found it still checked out and opened a fresh one, round
      // after round in one process. Whether the send took it is still read from the log, not assumed.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const warm = new Set(earlier.map((request) => request.connection));
      const mark = earlier.at(-1)?.number ?? 0;
      const value = await round();
      const ran = (await executions()) - before;
      const { requests } = await read<RequestLog>('/__requests');
      const sent = requests.find((request) => request.number > mark && request.path === '/a2a/jsonrpc');
      if (sent !== undefined && warm.has(sent.connection)) {
        return { value, before, ran, discarded };
      }
      discarded += ran;
    }
    throw new Error(`no send of ${warmAttempts} rounds left on a warm connection`);
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
  const durable = await onWarmConnection(() =>
    agent.send({ role: 'ROLE_USER', parts: [{ text: 'task book the 9:40 to Lyon' }] }),
  );
  const lost = durable.value;
  let reconciling = {};
  if (options.reconcile) {
    const reconciled = lost.status === 'unknown' ? (await agent.reconcile(lost.id)).status : null;
    reconciling = { reconciled, ranAfterReconciling: (await executions()) - durable.before };
  }

  const plainSend = await onWarmConnection(async () => {
    try {
      const answer = await client.sendMessage({ message: userMessage([textPart('task plain')]) });
      return 'task' in answer ? 'answered' : 'answered with a message';
    } catch (error) {
      const { kind, reason, dispatched } = error as { kind?: string; reason?: string; dispatched?: boolean };
      return `${kind} ${reason} dispatched=${dispatched}`;
    }
  });
  await ledger.close();
  return {
    refused,
    audit: agent.audit,
    warm: warm.status,
    lost: lost.status,
    ran: durable.ran,
    ...reconciling,
    plain: plainSend.value,
    plainRan: plainSend.ran,
    discarded: durable.discarded + plainSend.discarded,
  };
}
