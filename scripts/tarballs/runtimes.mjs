// The installed client end to end in one runtime, as a user's script: run by scripts/tarballs.sh in Node, Bun and
// Deno (docs/interop.md#runtimes) against the installed mock agent on loopback, started by the script with its
// control token. Arguments: `<origin> <token> <runtime: node|bun|deno> <ledger directory> [<journal of another
// runtime>]`. It discovers the agent, makes every operation but GetExtendedAgentCard (which needs a bearer the
// mock's card does not grant an anonymous client), streams, keeps durable sends in the file and the memory
// ledgers, opens the journal another runtime wrote, runs the lost-answer case (a keyed send whose answer is lost
// ends unknown, one execution, and reconciles to committed), and measures whether this runtime's fetch re-sends a
// POST whose warm connection closed before the answer: Deno's does, Node's and Bun's do not, and the durable agent
// must refuse at-most-once delivery exactly where it does. Any failure exits non-zero.
import { discover, durableAgent, OptionsError, textPart, userMessage } from '@surecall/client';
import { compactLedger, openLedger } from '@surecall/client/ledger';
import { openLedger as openMemoryLedger } from '@surecall/client/ledger/memory';

const [origin = '', token = '', runtime = '', directory = '', other] = process.argv.slice(2);
const control = { 'x-surecall-mock-token': token, 'content-type': 'application/json' };

function check(condition, what) {
  if (!condition) {
    throw new Error(`${runtime}: ${what}`);
  }
}

async function executions() {
  return (await (await fetch(`${origin}/__executions`, { headers: control })).json()).total;
}

async function arm(fault) {
  const armed = await fetch(`${origin}/__faults`, {
    method: 'POST',
    headers: control,
    body: JSON.stringify(fault),
  });
  check(armed.ok, `the fault was armed (${armed.status})`);
  await armed.body?.cancel();
}

async function collect(stream) {
  const events = [];
  for await (const event of stream) {
    events.push(event);
  }
  return events;
}

const client = await discover({
  cardUrl: `${origin}/.well-known/agent-card.json`,
  pins: [{ binding: 'JSONRPC', url: `${origin}/a2a/jsonrpc` }],
  loopback: true,
  trust: { kind: 'first-fetch' },
  security: { kind: 'anonymous' },
});

// The operations.
const echo = await client.sendMessage({ message: userMessage([textPart('echo installed')]) });
check('message' in echo, 'an echo is a message');
const sent = await client.sendMessage({ message: userMessage([textPart('task alpha beta')]) });
check('task' in sent, 'a task was created');
const streamed = await collect(
  client.sendStreamingMessage({ message: userMessage([textPart('task streamed')]) }),
);
check(streamed.length > 1 && 'task' in streamed[0], `the task streamed (${streamed.length} events)`);
const got = await client.getTask({ id: sent.task.id });
check(got.id === sent.task.id, 'getTask found the task');
const page = await client.listTasks({ contextId: sent.task.contextId, pageSize: 10 });
check(
  page.tasks.some(({ id }) => id === sent.task.id),
  'listTasks found the task',
);
const slow = await client.sendMessage({
  message: userMessage([textPart('slow 30')]),
  configuration: { returnImmediately: true },
});
check('task' in slow, 'a slow task was created');
const subscription = client.subscribeToTask({ id: slow.task.id })[Symbol.asyncIterator]();
const snapshot = await subscription.next();
check(snapshot.done === false && 'task' in snapshot.value, 'the subscription starts with the task');
const canceled = await client.cancelTask({ id: slow.task.id });
check(canceled.status.state === 'TASK_STATE_CANCELED', 'cancelTask canceled it');
let last;
for (let next = await subscription.next(); next.done !== true; next = await subscription.next()) {
  last = next.value;
}
check(last !== undefined && 'statusUpdate' in last, 'the subscription ended on the cancellation');
const config = await client.createTaskPushNotificationConfig({
  taskId: sent.task.id,
  url: 'https://hooks.example/surecall',
  token: 'installed',
});
check(
  (await client.getTaskPushNotificationConfig({ taskId: sent.task.id, id: config.id })).url === config.url,
  'getTaskPushNotificationConfig',
);
check(
  (await client.listTaskPushNotificationConfigs({ taskId: sent.task.id })).configs.length === 1,
  'listTaskPushNotificationConfigs',
);
await client.deleteTaskPushNotificationConfig({ taskId: sent.task.id, id: config.id });
check(
  (await client.listTaskPushNotificationConfigs({ taskId: sent.task.id })).configs.length === 0,
  'deleteTaskPushNotificationConfig',
);

// Durable sends on the memory store and on the file store `@surecall/client/ledger` is in this runtime.
const memory = await openMemoryLedger({ name: 'sends' });
const inMemory = await durableAgent({ client, ledger: memory }).send({
  role: 'ROLE_USER',
  parts: [textPart('task kept in memory')],
});
check(inMemory.status === 'committed', `the memory ledger's send committed (${inMemory.status})`);
await memory.close();

const ledger = await openLedger({ name: `${directory}/${runtime}` });
try {
  const agent = durableAgent({ client, ledger });
  check(agent.delivery === 'keyed', 'keyed delivery to an agent that honours keys');
  const durable = await agent.send(
    { role: 'ROLE_USER', parts: [textPart(`task durable in ${runtime}`)] },
    { id: `${runtime}-durable` },
  );
  check(durable.status === 'committed', `the file ledger's send committed (${durable.status})`);

  // The lost answer: a keyed send whose answer the agent drops after doing the work is unknown, ran once, and
  // reconciles by the keyed replay into the same task.
  await arm({ kind: 'drop-after', operation: 'SendMessage' });
  const before = await executions();
  const lost = await agent.send(
    { role: 'ROLE_USER', parts: [textPart('task answer lost')] },
    { id: `${runtime}-lost` },
  );
  check(lost.status === 'unknown' || runtime === 'deno', `the lost answer is unknown (${lost.status})`);
  if (lost.status === 'unknown') {
    const reconciled = await agent.reconcile(lost.id);
    check(reconciled.status === 'committed', `the lost send reconciled (${reconciled.status})`);
  }
  // The keyed replay, or Deno's own re-send, is answered from the agent's key index: one execution either way.
  check((await executions()) - before === 1, 'the lost keyed send ran once');
  check((await compactLedger(ledger)).records >= 2, 'the journal compacts');
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
  } finally {
    await theirs.close();
  }
}

// The re-send probe: a plain SendMessage whose answer is lost on a warm connection (the request before it, the
// fault's, warmed it).
await arm({ kind: 'drop-after', operation: 'SendMessage' });
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
let refused = false;
try {
  durableAgent({ client, ledger: await openMemoryLedger({ name: 'probe' }), delivery: 'at-most-once' });
} catch (error) {
  check(error instanceof OptionsError && error.option === 'acknowledgeBrowserResend', `${error}`);
  refused = true;
}
check(
  refused === resends,
  `at-most-once is ${refused ? 'refused' : 'allowed'} where fetch ${resends ? 're-sends' : 'does not re-send'}`,
);
check(resends === (runtime === 'deno'), `fetch ${resends ? 're-sends' : 'does not re-send'} in ${runtime}`);
console.log(
  `${runtime}: every operation, streams, the file and memory ledgers${other === undefined ? '' : ", the other runtime's journal"}, the lost answer; fetch re-sends a lost POST: ${resends ? 'yes' : 'no'}`,
);
