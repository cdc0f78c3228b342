// A Cloudflare worker as a user writes one, with the installed tarballs: bundled by `workerd.mjs` from the
// scratch project's node_modules with wrangler's export conditions (`workerd`, `worker`, `browser`) and run
// in workerd by miniflare (docs/interop.md#runtimes). Asked with `{ origin, token }` of the installed mock
// agent on loopback (one that honours keys, started with `--extended-card-scope card.extended`, its control
// routes behind the token), it discovers the agent, makes every operation (`operations.mjs`), keeps a durable
// send in the memory ledger, checks that `@surecall/client/ledger` refuses by a typed error that names the
// memory store (workerd has no IndexedDB, docs/durable-send.md#ledger-stores), runs the lost-answer matrix on
// the memory ledger (`lost-answer-matrix.mjs`), and measures whether workerd's fetch re-sends a plain POST
// whose answer was lost: it must not, and at-most-once delivery must be allowed without the acknowledgement.
// It answers 200 with the checks that held, or 500 with the failed check.
import { durableAgent, textPart } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger';
import { openLedger as openMemoryLedger } from '@surecall/client/ledger/memory';
import { lostAnswerMatrix, resendProbe } from './lost-answer-matrix.mjs';
import { checker, mockControl } from './mock-control.mjs';
import { connect, everyOperation } from './operations.mjs';

const check = checker('workerd');

async function refusedLedger(passed) {
  // `@surecall/client/ledger` under the `workerd` condition: no IndexedDB here, so the typed refusal naming
  // the explicit volatile store, never a store that silently is not durable.
  const refusal = await openLedger({ name: 'sends' }).then(
    async (opened) => {
      await opened.close();
      return undefined;
    },
    (error) => error,
  );
  check(
    refusal?.name === 'LedgerError' && refusal.reason === 'unsupported' && refusal.rule === 'indexeddb',
    `openLedger refused by a LedgerError (${refusal ?? 'it opened a store'})`,
  );
  check(refusal.message.includes('@surecall/client/ledger/memory'), 'the refusal names the memory store');
  passed('@surecall/client/ledger', 'LedgerError unsupported (indexeddb), naming the memory store');
}

async function run({ origin, token }) {
  const control = mockControl(origin, token, check);
  const checks = [];
  const passed = (name, seen) => checks.push([name, seen]);

  const client = await connect(origin);
  passed('discover', `${client.pin.binding} from the card`);
  await everyOperation(origin, client, check, passed);
  await refusedLedger(passed);

  const ledger = await openMemoryLedger({ name: 'sends' });
  try {
    const agent = durableAgent({ client, ledger });
    check(agent.delivery === 'keyed', 'keyed delivery to an agent that honours keys');
    const durable = await agent.send({ role: 'ROLE_USER', parts: [textPart('task durable in workerd')] });
    check(durable.status === 'committed', `the memory ledger's send committed (${durable.status})`);
    passed('a durable send, memory ledger', durable.status);
  } finally {
    await ledger.close();
  }

  // workerd is one of the runtimes whose fetch was measured not to re-send (docs/interop.md#runtimes).
  await lostAnswerMatrix(
    {
      client,
      control,
      check,
      resends: false,
      ledgers: [{ name: 'memory', open: () => openMemoryLedger({ name: 'matrix' }) }],
    },
    passed,
  );

  // The re-send probe: a plain SendMessage whose answer is lost on a warm connection.
  const { resent, ran } = await resendProbe({ client, control, check });
  check(!resent, 'fetch re-sends a lost POST in workerd');
  passed('the re-send probe: a plain send whose answer is lost', `not re-sent: transport error, ${ran} run`);
  const probe = await openMemoryLedger({ name: 'probe' });
  check(
    durableAgent({ client, ledger: probe, delivery: 'at-most-once' }).audit === false,
    'at-most-once is allowed without the acknowledgement, with no audit',
  );
  await probe.close();
  passed('at-most-once without acknowledgeBrowserResend', 'allowed');
  return { runtime: 'workerd', checks };
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
