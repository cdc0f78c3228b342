// The lost-answer matrix of packages/client/test/durable/lost-response-matrix.test.ts
// (docs/durable-send.md#what-the-tests-prove), the rows of it an installed tarball can run in a runtime
// against the installed mock agent on loopback: each ledger the runtime has (the file journal and the memory
// store; workerd: memory) × keyed delivery with the keyed replay and at-most-once delivery with the
// context-history scan × the faults that lose an answer on the wire (`drop-before`, `drop-after`,
// `status-after`) and `cut-stream`, which a unary answer passes. Each row asserts the send's first outcome,
// what reconciling it ends in, and the mock's execution count of its message; the committed handle is the
// task that holds the message, and the record's history verifies. Shared by `runtimes.mjs` (Node, Bun, Deno)
// and `worker.mjs` (workerd).
//
// A runtime whose fetch re-sends a POST whose warm connection closed before any byte of the answer (Deno,
// docs/interop.md#runtimes) is held to what that table says of it: at-most-once is refused without
// `acknowledgeBrowserResend` (and the audit is on with it); a dropped request reaches the agent again by
// itself, so a drop-before send commits with one execution, a keyed drop-after send commits with one (the
// agent's key index answers the re-send), and an at-most-once drop-after send ran twice and ends
// `duplicated`, never `committed`. It does so only for a send that left on a warm connection, as the mock's
// request log tells (`control.markWarm`); one that opened a fresh connection is held to what a runtime that
// does not re-send gets.
import { durableAgent, OptionsError, textPart, userMessage } from '@surecall/client';
import { verifyHistory } from '@surecall/client/ledger/memory';

const rows = [
  {
    name: 'keyed, keyed replay',
    options: { delivery: 'keyed', recovery: { kind: 'keyed', maxProbes: 1 } },
    replays: true,
  },
  {
    name: 'at-most-once, context-history scan',
    options: {
      delivery: 'at-most-once',
      recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 250, maxProbes: 1 },
    },
    replays: false,
  },
];

// What each fault does to the one SendMessage of a durable send (mocks/src/faults/faults.ts): whether the
// agent ran it, whether its answer arrived, and whether a re-sending fetch sends it again, the connection
// having closed before any byte of an answer. That holds on a warm connection only, so every request before
// the send reads its answer to the end (`mock-control.mjs`): a fault armed with its answer cancelled instead
// made Deno drop that connection and send the next request on a fresh one, which it never re-sent.
const faults = [
  { kind: 'drop-before', spec: {}, ran: false, answered: false, resent: true },
  { kind: 'drop-after', spec: {}, ran: true, answered: false, resent: true },
  { kind: 'status-after', spec: {}, ran: true, answered: false, resent: false },
  { kind: 'cut-stream', spec: { afterFrames: 0 }, ran: true, answered: true, resent: false },
];

const runsText = (count) => `${count} run${count === 1 ? '' : 's'}`;

/** How the send ends, per row and fault, when the fetch did (`resent`) or did not send it again. */
function expected(row, fault, resent) {
  if (resent) {
    // The agent ran the re-sent request: a second time unless the dropped one never reached it, or the key
    // index answered the re-send; a second execution is what the audit finds.
    return fault.ran && !row.replays
      ? { first: 'duplicated', final: 'duplicated', runs: 2 }
      : { first: 'committed', final: 'committed', runs: 1 };
  }
  const evidence = fault.ran || row.replays;
  return {
    first: fault.answered ? 'committed' : 'unknown',
    ranFirst: fault.ran ? 1 : 0,
    final: evidence ? 'committed' : 'unresolved',
    runs: evidence ? 1 : 0,
  };
}

/** The agent of a row, and what building it without the acknowledgement did. */
function agentOf(client, ledger, row, resends, check) {
  const options = { client, ledger, ...row.options };
  if (row.options.delivery !== 'at-most-once' || !resends) {
    const agent = durableAgent(options);
    check(agent.audit === false, `${row.name}: no audit where fetch does not re-send`);
    return agent;
  }
  let refused;
  try {
    durableAgent(options);
  } catch (error) {
    refused = error;
  }
  check(
    refused instanceof OptionsError && refused.option === 'acknowledgeBrowserResend',
    `${row.name}: refused without acknowledgeBrowserResend where fetch re-sends (${refused})`,
  );
  const agent = durableAgent({ ...options, acknowledgeBrowserResend: true });
  check(agent.audit === true, `${row.name}: the audit is on with the acknowledgement`);
  return agent;
}

async function runRow(context, agent, row, fault) {
  const { client, control, check, ledger, resends } = context;
  const before = await control.total();
  await control.arm({ kind: fault.kind, operation: 'SendMessage', ...fault.spec });
  const leftWarm = await control.markWarm();
  const sent = await agent.send({ role: 'ROLE_USER', parts: [textPart(`task ${fault.kind} lost`)] });
  const resent = resends && fault.resent && (await leftWarm());
  const want = expected(row, fault, resent);
  const where = `${ledger.name}, ${row.name}, ${fault.kind}`;
  const messageId = sent.record.attempts[0]?.messageId ?? '';
  check(sent.status === want.first, `${where}: the send is ${want.first} (${sent.status})`);
  check((await control.armed()) === 0, `${where}: the fault was spent`);
  if (want.ranFirst !== undefined) {
    const ran = await control.ranMessage(messageId);
    check(
      ran === want.ranFirst,
      `${where}: the agent ran it ${want.ranFirst} times before reconciling (${ran})`,
    );
  }
  const final = sent.status === 'unknown' ? await agent.reconcile(sent.id) : sent;
  const runs = await control.ranMessage(messageId);
  check(final.status === want.final, `${where}: it ends ${want.final} (${final.status})`);
  check(runs === want.runs, `${where}: the agent ran it ${want.runs} times (${runs})`);
  check((await control.total()) - before === runs, `${where}: nothing else ran`);
  const state = final.record.state;
  if (final.status === 'unresolved') {
    // Stays unknown for a person, never sent again on its own.
    check(state.status === 'unknown' && state.reason === 'no-evidence', `${where}: unknown, no evidence`);
  }
  if (state.status === 'committed') {
    const task = await client.getTask({ id: state.result.taskId ?? '' });
    check(
      task.history.some((message) => message.messageId === messageId),
      `${where}: the committed task holds the message`,
    );
  }
  check((await verifyHistory(await ledger.store.history(sent.id))).ok, `${where}: the history verifies`);
  const first = sent.status === 'unknown' ? `unknown (${runsText(want.ranFirst)}) → ` : '';
  return `${resent ? 're-sent: ' : ''}${first}${final.status}, ${runsText(runs)}`;
}

/**
Runs the matrix over each of `ledgers` (`[{ name, open }]`), with `client` (anonymous, of an agent that
honours keys), the mock's `control`, `check(condition, what)`, and `resends`: whether
docs/interop.md#runtimes says this runtime's fetch re-sends. `passed(name, seen)` records each row that held.
*/
export async function lostAnswerMatrix({ client, control, check, ledgers, resends }, passed) {
  for (const { name, open } of ledgers) {
    const store = await open();
    try {
      const ledger = { name, store };
      for (const row of rows) {
        const agent = agentOf(client, store, row, resends, check);
        for (const fault of faults) {
          const seen = await runRow({ client, control, check, ledger, resends }, agent, row, fault);
          passed(`${name} ledger, ${row.name}, ${fault.kind}`, seen);
        }
      }
    } finally {
      await store.close();
    }
  }
}

/** Rounds the re-send probe runs for a send that leaves on a warm connection before it gives up. */
const warmAttempts = 8;

/**
The re-send probe: a plain SendMessage whose answer is lost (`drop-after`) on a warm connection, run again
while the send left on a fresh one, which measures nothing (`control.markWarm`). Says whether this runtime's
fetch sent it again by itself (the send then answered) and how many times the agent ran the accepted
round's send; the lost answer of a send not re-sent must be a dispatched transport error.
*/
export async function resendProbe({ client, control, check }) {
  for (let attempt = 0; attempt < warmAttempts; attempt += 1) {
    await control.arm({ kind: 'drop-after', operation: 'SendMessage' });
    const before = await control.total();
    const leftWarm = await control.markWarm();
    let resent;
    try {
      await client.sendMessage({ message: userMessage([textPart('task probe')]) });
      resent = true;
    } catch (error) {
      check(
        error.kind === 'transport' && error.dispatched === true,
        `the lost answer is a dispatched transport error (${error})`,
      );
      resent = false;
    }
    const ran = (await control.total()) - before;
    check(ran === (resent ? 2 : 1), `the probe ran ${ran} times`);
    if (await leftWarm()) {
      return { resent, ran };
    }
  }
  throw new Error(`no probe of ${warmAttempts} rounds left on a warm connection`);
}
