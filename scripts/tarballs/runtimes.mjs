// The installed client end to end in one runtime, as a user's script: run by scripts/tarballs.sh in Node, Bun
// and Deno (docs/interop.md#runtimes) against the installed mock agent on loopback, started by the script
// with its control token and `--extended-card-scope card.extended`. Arguments: `<origin> <token> <runtime:
// node|bun|deno> <ledger directory> [<journal of another runtime>]`. It discovers the agent, makes every
// operation (`operations.mjs`, GetExtendedAgentCard with a scoped token), keeps durable sends in the file and
// the memory ledgers, opens the journal another runtime wrote, runs the lost-answer matrix on both ledgers
// (`lost-answer-matrix.mjs`), and measures whether this runtime's fetch re-sends a POST whose warm connection
// closed before the answer: Deno's does, Node's and Bun's do not, and the durable agent must refuse
// at-most-once delivery exactly where it does. Each check that held is written to `<ledger
// directory>/<runtime>.checks.json` for `runtime-matrix.mjs`; any failure exits non-zero.
import { writeFile } from 'node:fs/promises';
import { durableAgent, OptionsError, textPart } from '@surecall/client';
import { compactLedger, openLedger } from '@surecall/client/ledger';
import { openLedger as openMemoryLedger } from '@surecall/client/ledger/memory';
import { lostAnswerMatrix, resendProbe } from './lost-answer-matrix.mjs';
import { checker, mockControl } from './mock-control.mjs';
import { connect, everyOperation } from './operations.mjs';

const [origin = '', token = '', runtime = '', directory = '', other] = process.argv.slice(2);
const check = checker(runtime);
const control = mockControl(origin, token, check);
const checks = [];
const passed = (name, seen) => checks.push([name, seen]);
// What docs/interop.md#runtimes says of this runtime's fetch; the probe at the end measures it.
const resends = runtime === 'deno';

const client = await connect(origin);
passed('discover', `${client.pin.binding} from the card`);
await everyOperation(origin, client, check, passed);

// Durable sends on the memory store and on the file store `@surecall/client/ledger` is in this runtime.
const memory = await openMemoryLedger({ name: 'sends' });
const inMemory = await durableAgent({ client, ledger: memory }).send({
  role: 'ROLE_USER',
  parts: [textPart('task kept in memory')],
});
check(inMemory.status === 'committed', `the memory ledger's send committed (${inMemory.status})`);
await memory.close();
passed('a durable send, memory ledger', inMemory.status);

const ledger = await openLedger({ name: `${directory}/${runtime}` });
try {
  const agent = durableAgent({ client, ledger });
  check(agent.delivery === 'keyed', 'keyed delivery to an agent that honours keys');
  const durable = await agent.send(
    { role: 'ROLE_USER', parts: [textPart(`task durable in ${runtime}`)] },
    { id: `${runtime}-durable` },
  );
  check(durable.status === 'committed', `the file ledger's send committed (${durable.status})`);
  check((await compactLedger(ledger)).records >= 1, 'the journal compacts');
  passed('a durable send, file ledger', `${durable.status}, compacted`);
} finally {
  // Always closed: the lock is released and the journal checkpointed (docs/durable-send.md#file-journal).
  await ledger.close();
}

// A journal another runtime wrote opens here, its records intact.
if (other !== undefined) {
  const theirs = await openLedger({ name: other });
  try {
    const records = await theirs.list();
    check(
      records.some((record) => record.id.endsWith('-durable') && record.state.status === 'committed'),
      `the journal at ${other} holds the other runtime's committed send`,
    );
    passed('the journal another runtime wrote', `${records.length} record${records.length === 1 ? '' : 's'}`);
  } finally {
    await theirs.close();
  }
}

await lostAnswerMatrix(
  {
    client,
    control,
    check,
    resends,
    ledgers: [
      { name: 'file', open: () => openLedger({ name: `${directory}/${runtime}-matrix` }) },
      { name: 'memory', open: () => openMemoryLedger({ name: 'matrix' }) },
    ],
  },
  passed,
);

// The re-send probe: a plain SendMessage whose answer is lost on a warm connection.
const { resent, ran } = await resendProbe({ client, control, check });
let refused = false;
try {
  durableAgent({ client, ledger: await openMemoryLedger({ name: 'probe' }), delivery: 'at-most-once' });
} catch (error) {
  check(error instanceof OptionsError && error.option === 'acknowledgeBrowserResend', `${error}`);
  refused = true;
}
check(
  refused === resent,
  `at-most-once is ${refused ? 'refused' : 'allowed'} where fetch ${resent ? 're-sends' : 'does not re-send'}`,
);
check(resent === resends, `fetch ${resent ? 're-sends' : 'does not re-send'} in ${runtime}`);
passed(
  'the re-send probe: a plain send whose answer is lost',
  resent ? `re-sent: answered, ${ran} runs` : `not re-sent: transport error, ${ran} run`,
);
passed('at-most-once without acknowledgeBrowserResend', refused ? 'refused' : 'allowed');
await writeFile(`${directory}/${runtime}.checks.json`, `${JSON.stringify({ runtime, checks })}\n`);
console.log(
  `${runtime}: ${checks.length} checks passed; fetch re-sends a lost POST: ${resent ? 'yes' : 'no'}`,
);
