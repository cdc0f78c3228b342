// Every operation of A2A v1.0 through the installed client, as a user's code makes them, shared by the
// runtime suites (`runtimes.mjs` in Node, Bun and Deno, `worker.mjs` in workerd, docs/interop.md#runtimes).
// The agent is the installed mock, started with `--extended-card-scope card.extended` (mocks/README.md, "The
// command"), so GetExtendedAgentCard answers a token that grants that scope, refuses one that does not, and
// an anonymous client is refused before anything is sent. Each check that passes is recorded by name, with
// what it saw.
import { discover, textPart, userMessage } from '@surecall/client';

/** The scope scripts/tarballs.sh starts the mock agent with, and the tokens that do and do not grant it. */
const extendedCardScope = 'card.extended';
const tokens = { granted: `mock+${extendedCardScope}`, refused: 'mock+tasks.read' };

/** A client of the agent at `origin` over JSON-RPC, with the security a user would give `discover()`. */
export function connect(origin, security = { kind: 'anonymous' }) {
  return discover({
    cardUrl: `${origin}/.well-known/agent-card.json`,
    pins: [{ binding: 'JSONRPC', url: `${origin}/a2a/jsonrpc` }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security,
  });
}

const bearer = (token) => ({ kind: 'bearer', scheme: 'bearer', token: async () => token });

async function collect(stream) {
  const events = [];
  for await (const event of stream) {
    events.push(event);
  }
  return events;
}

async function subscribeAndCancel(client, check, passed) {
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
  passed('CancelTask', canceled.status.state);
  let last;
  for (let next = await subscription.next(); next.done !== true; next = await subscription.next()) {
    last = next.value;
  }
  check(last !== undefined && 'statusUpdate' in last, 'the subscription ended on the cancellation');
  passed('SubscribeToTask', 'the task, then its cancellation, then the end');
}

async function pushConfigs(client, taskId, check, passed) {
  const config = await client.createTaskPushNotificationConfig({
    taskId,
    url: 'https://hooks.example/surecall',
    token: 'installed',
  });
  passed('CreateTaskPushNotificationConfig', 'created');
  const got = await client.getTaskPushNotificationConfig({ taskId, id: config.id });
  check(got.url === config.url, 'getTaskPushNotificationConfig');
  passed('GetTaskPushNotificationConfig', 'the same url');
  check((await client.listTaskPushNotificationConfigs({ taskId })).configs.length === 1, 'list: one config');
  passed('ListTaskPushNotificationConfigs', 'one config');
  await client.deleteTaskPushNotificationConfig({ taskId, id: config.id });
  check((await client.listTaskPushNotificationConfigs({ taskId })).configs.length === 0, 'deleted');
  passed('DeleteTaskPushNotificationConfig', 'none left');
}

async function extendedCard(origin, check, passed) {
  const full = await (await connect(origin, bearer(tokens.granted))).getExtendedAgentCard();
  check(full.provider?.organization === 'surecall', 'the extended card names its provider');
  check(
    full.skills.some(({ id }) => id === 'sum-extended'),
    'the extended card lists its own skill',
  );
  const refusal = async (client) =>
    client.getExtendedAgentCard().then(
      () => undefined,
      (error) => error,
    );
  const unscoped = await refusal(await connect(origin, bearer(tokens.refused)));
  check(
    unscoped?.kind === 'remote' && unscoped.dispatched === true,
    `a token without the scope is refused by the agent (${unscoped})`,
  );
  const anonymous = await refusal(await connect(origin));
  check(
    anonymous?.kind === 'authorization' && anonymous.dispatched === false,
    `an anonymous client is refused before sending (${anonymous})`,
  );
  passed('GetExtendedAgentCard', `scoped token: read; unscoped: ${unscoped.kind}; anonymous: not sent`);
}

/**
Makes every operation against the agent at `origin` with `client` (anonymous); `check(condition, what)` throws
on a failed check, `passed(name, seen)` records one that held.
*/
export async function everyOperation(origin, client, check, passed) {
  const echo = await client.sendMessage({ message: userMessage([textPart('echo installed')]) });
  check('message' in echo, 'an echo is a message');
  const sent = await client.sendMessage({ message: userMessage([textPart('task alpha beta')]) });
  check('task' in sent, 'a task was created');
  passed('SendMessage', 'a message, a task');
  const streamed = await collect(
    client.sendStreamingMessage({ message: userMessage([textPart('task streamed')]) }),
  );
  check(streamed.length > 1 && 'task' in streamed[0], `the task streamed (${streamed.length} events)`);
  passed('SendStreamingMessage', `${streamed.length} events`);
  const got = await client.getTask({ id: sent.task.id });
  check(got.id === sent.task.id, 'getTask found the task');
  passed('GetTask', 'the task');
  const page = await client.listTasks({ contextId: sent.task.contextId, pageSize: 10 });
  check(
    page.tasks.some(({ id }) => id === sent.task.id),
    'listTasks found the task',
  );
  passed('ListTasks', 'the task in its context');
  await subscribeAndCancel(client, check, passed);
  await pushConfigs(client, sent.task.id, check, passed);
  await extendedCard(origin, check, passed);
}
