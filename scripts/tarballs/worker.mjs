// A Cloudflare worker as a user writes one, with the installed tarballs: bundled by `workerd.mjs` from the
// scratch project's node_modules with wrangler's export conditions (`workerd`, `worker`, `browser`) and run
// in workerd by miniflare (docs/interop.md#runtimes). Asked with `{ origin, token }` of the installed mock
// agent on loopback (one that honours keys, its control routes behind the token), it discovers the agent,
// sends, streams, gets the task, keeps a durable send in the memory ledger, checks that
// `@surecall/client/ledger` refuses by a typed error that names the memory store (workerd has no IndexedDB,
// docs/durable-send.md#ledger-stores), loses a keyed send's answer on a warm connection (unknown, one
// execution, reconciled to committed), and measures whether workerd's fetch re-sends a plain POST whose
// answer was lost: it must not, and at-most-once delivery must be allowed without the acknowledgement. It
// answers 200 with what it found, or 500 with the failed check.
import { discover, durableAgent, textPart, userMessage } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger';
import { openLedger as openMemoryLedger } from '@surecall/client/ledger/memory';

function check(condition, what) {
  if (!condition) {
    throw new Error(`workerd: ${what}`);
  }
}

async function collect(stream) {
  const events = [];
  for await (const event of stream) {
    events.push(event);
  }
  return events;
}

async function run({ origin, token }) {
  const control = { 'x-surecall-mock-token': token, 'content-type': 'application/json' };
  const executions = async () =>
    (await (await fetch(`${origin}/__executions`, { headers: control })).json()).total;
  const armDropAfter = async () => {
    const armed = await fetch(`${origin}/__faults`, {
      method: 'POST',
      headers: control,
      body: JSON.stringify({ kind: 'drop-after', operation: 'SendMessage' }),
    });
    check(armed.ok, `the fault was armed (${armed.status})`);
    await armed.body?.cancel();
  };

  const client = await discover({
    cardUrl: `${origin}/.well-known/agent-card.json`,
    pins: [{ binding: 'JSONRPC', url: `${origin}/a2a/jsonrpc` }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
  });
  const sent = await client.sendMessage({ message: userMessage([textPart('task in workerd')]) });
  check('task' in sent, 'a task was created');
  const streamed = await collect(
    client.sendStreamingMessage({ message: userMessage([textPart('task streamed in workerd')]) }),
  );
  check(streamed.length > 1 && 'task' in streamed[0], `the task streamed (${streamed.length} events)`);
  const got = await client.getTask({ id: sent.task.id });
  check(got.id === sent.task.id, 'getTask found the task');

  // `@surecall/client/ledger` under the `workerd` condition: no IndexedDB here, so the typed refusal naming
  // the explicit volatile store, never a store that silently is not durable.
  let store;
  try {
    await openLedger({ name: 'sends' });
    store = 'opened';
  } catch (error) {
    check(
      error.name === 'LedgerError' && error.reason === 'unsupported' && error.rule === 'indexeddb',
      `openLedger refused by a LedgerError (${error})`,
    );
    check(error.message.includes('@surecall/client/ledger/memory'), `the refusal names the memory store`);
    store = 'unsupported';
  }
  check(store === 'unsupported', '@surecall/client/ledger opened a store in workerd');

  const ledger = await openMemoryLedger({ name: 'sends' });
  try {
    const agent = durableAgent({ client, ledger });
    check(agent.delivery === 'keyed', 'keyed delivery to an agent that honours keys');
    const durable = await agent.send(
      { role: 'ROLE_USER', parts: [textPart('task durable in workerd')] },
      { id: 'workerd-durable' },
    );
    check(durable.status === 'committed', `the memory ledger's send committed (${durable.status})`);
    // The lost answer on the connection the send before it warmed: unknown, one execution, and the keyed
    // replay of the reconciliation reaches the same task.
    await armDropAfter();
    const before = await executions();
    const lost = await agent.send(
      { role: 'ROLE_USER', parts: [textPart('task answer lost')] },
      { id: 'workerd-lost' },
    );
    check(lost.status === 'unknown', `the lost answer is unknown (${lost.status})`);
    check((await executions()) - before === 1, 'the lost keyed send ran once');
    const reconciled = await agent.reconcile(lost.id);
    check(reconciled.status === 'committed', `the lost send reconciled (${reconciled.status})`);
    check((await executions()) - before === 1, 'the reconciled send still ran once');
    // workerd is one of the runtimes whose fetch was measured not to re-send: no acknowledgement is asked.
    check(
      durableAgent({ client, ledger, delivery: 'at-most-once' }).audit === false,
      'at-most-once is allowed without the acknowledgement, with no audit',
    );
  } finally {
    await ledger.close();
  }

  // The re-send probe: a plain SendMessage whose answer is lost on a warm connection.
  await armDropAfter();
  const probeBefore = await executions();
  let resends;
  try {
    await client.sendMessage({ message: userMessage([textPart('task probe')]) });
    resends = true;
  } catch (error) {
    check(
      error.kind === 'transport' && error.dispatched === true,
      `the lost answer is a dispatched transport error (${error})`,
    );
    resends = false;
  }
  const ran = (await executions()) - probeBefore;
  check(ran === (resends ? 2 : 1), `the probe ran ${ran} times`);
  check(!resends, 'fetch re-sends a lost POST in workerd');
  return { store, resends };
}

export default {
  async fetch(request) {
    try {
      return Response.json(await run(await request.json()));
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
