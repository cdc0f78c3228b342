import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, type InvalidResponseReason } from '../core/errors.js';
import type { Message } from '../protocol/message.js';
import type { TaskPushNotificationConfig } from '../protocol/push.js';
import type { ListTaskPushNotificationConfigsResponse, ListTasksResponse } from '../protocol/requests.js';
import type { SendMessageRequest } from '../protocol/send-message.js';
import type { Task, TaskState } from '../protocol/task.js';
import { checkSendResult, checkTask } from './checks.js';
import { checkPushConfig, checkPushConfigPage, checkTaskPage } from './page-checks.js';

/** `[reason, rule, path]` of the expected refusal; absent when the case must pass. */
type Refusal = readonly [InvalidResponseReason, string, string];
type Case = [name: string, run: () => void, refusal?: Refusal];

/** Every rule a case of these tables was refused with. */
const refusedWith = new Set<string>();

function outcome(run: () => void, refusal: Refusal | undefined): void {
  if (refusal !== undefined) {
    refusedWith.add(refusal[1]);
  }
  if (refusal === undefined) {
    expect(run).not.toThrow();
    return;
  }
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(InvalidResponseError);
  const [reason, rule, path] = refusal;
  expect(caught).toMatchObject({
    kind: 'invalid-response',
    reason,
    dispatched: true,
    violation: { rule, path },
  });
}

const at = (second: number, fraction = ''): string =>
  `2026-03-12T10:00:${String(second).padStart(2, '0')}${fraction}Z`;

const owner = { taskId: 'task-1', contextId: 'context-1' };
const agent = (fields: Partial<Message> = {}): Message => ({
  messageId: 'm-agent',
  ...owner,
  role: 'ROLE_AGENT',
  parts: [{ text: 'done' }],
  ...fields,
});
const user = (fields: Partial<Message> = {}): Message => ({
  messageId: 'm-user',
  role: 'ROLE_USER',
  parts: [{ text: 'hi' }],
  ...fields,
});
const task = (fields: Partial<Task> = {}, state: TaskState = 'TASK_STATE_COMPLETED'): Task => ({
  id: owner.taskId,
  contextId: owner.contextId,
  status: { state, timestamp: at(0) },
  history: [],
  ...fields,
});
const withStatusMessage = (message: Message): Task =>
  task({ status: { state: 'TASK_STATE_COMPLETED', message } });
// Message fields without one member, as exactOptionalPropertyTypes wants an absent key rather than
// `undefined`.
const { contextId: _context, ...agentWithoutContext } = agent();
const { taskId: _task, ...agentWithoutTask } = agent();

describe('checkTask (GetTask, CancelTask)', () => {
  const expected = { id: owner.taskId, historyLength: 2 };
  it.each<Case>([
    ['the requested task', () => checkTask(task(), expected)],
    ['history at the requested length', () => checkTask(task({ history: [user(), agent()] }), expected)],
    ['historyLength 0 and no history', () => checkTask(task(), { historyLength: 0 })],
    ['another task', () => checkTask(task({ id: 'task-2' }), expected), ['identity', 'task-id', '$.id']],
    [
      'another context',
      () => checkTask(task(), { contextId: 'context-2' }),
      ['identity', 'context-id', '$.contextId'],
    ],
    [
      'more history than requested',
      () => checkTask(task({ history: [user(), agent(), agent()] }), expected),
      ['identity', 'history-length', '$.history'],
    ],
    ['an agent status message of this task', () => checkTask(withStatusMessage(agent()), expected)],
    [
      'a user status message',
      () => checkTask(withStatusMessage(user(owner)), expected),
      ['identity', 'status-message-role', '$.status.message.role'],
    ],
    // A2A proto `Message`: both ids are optional, and a message inside a task is that task's.
    ['a status message without contextId', () => checkTask(withStatusMessage(agentWithoutContext), expected)],
    [
      'a status message of another context',
      () => checkTask(withStatusMessage(agent({ contextId: 'context-2' })), expected),
      ['identity', 'status-message-context-id', '$.status.message.contextId'],
    ],
    ['a status message without taskId', () => checkTask(withStatusMessage(agentWithoutTask), expected)],
    [
      'a status message without ids',
      () => checkTask(withStatusMessage(user({ role: 'ROLE_AGENT' })), expected),
    ],
    [
      'a status message of another task',
      () => checkTask(withStatusMessage(agent({ taskId: 'task-2' })), expected),
      ['identity', 'status-message-task-id', '$.status.message.taskId'],
    ],
    ['a user history message without ids', () => checkTask(task({ history: [user()] }), expected)],
    ['a user history message with both ids', () => checkTask(task({ history: [user(owner)] }), expected)],
    [
      'a user history message of another context',
      () => checkTask(task({ history: [agent(), user({ contextId: 'context-2' })] }), expected),
      ['identity', 'history-context-id', '$.history[1].contextId'],
    ],
    [
      'a user history message of another task',
      () => checkTask(task({ history: [user({ taskId: 'task-2' })] }), expected),
      ['identity', 'history-task-id', '$.history[0].taskId'],
    ],
    [
      'an agent history message without contextId',
      () => checkTask(task({ history: [agentWithoutContext] }), expected),
    ],
    [
      'an agent history message without taskId',
      () => checkTask(task({ history: [agentWithoutTask] }), expected),
    ],
    [
      'an agent history message of another context',
      () => checkTask(task({ history: [agent({ contextId: 'context-2' })] }), expected),
      ['identity', 'history-context-id', '$.history[0].contextId'],
    ],
    [
      'an agent history message of another task',
      () => checkTask(task({ history: [user(), agent({ taskId: 'task-2' })] }), expected),
      ['identity', 'history-task-id', '$.history[1].taskId'],
    ],
  ])('%s', (_name, run, refusal) => outcome(run, refusal));

  it('carries the HTTP status of the answer', () => {
    expect(() => checkTask(task({ id: 'task-2' }), expected, { httpStatus: 200 })).toThrow(
      expect.objectContaining({ httpStatus: 200, dispatched: true }),
    );
  });

  it('never puts a value from the response in the error', () => {
    let caught: unknown;
    try {
      checkTask(task({ id: 'secret-task-id' }), expected);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidResponseError);
    const error = caught as InvalidResponseError;
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain('secret-task-id');
  });
});

describe('checkSendResult', () => {
  const send = (message: Partial<Message> = {}, configuration: SendMessageRequest['configuration'] = {}) => ({
    message: user(message),
    configuration,
  });
  const followUp = send(owner);
  it.each<Case>([
    ['a direct agent message with a context', () => checkSendResult(send(), { message: agentWithoutTask })],
    [
      'a direct message in the requested context',
      () => checkSendResult(send({ contextId: 'context-1' }), { message: agentWithoutTask }),
    ],
    ['a direct message of the requested task', () => checkSendResult(followUp, { message: agent() })],
    [
      'a direct user message',
      () => checkSendResult(send(), { message: user({ contextId: 'context-1' }) }),
      ['identity', 'message-role', '$.message.role'],
    ],
    // A2A spec §3.4.1: an agent MAY leave the context of a message without one unassigned.
    [
      'a direct message without contextId',
      () => checkSendResult(send(), { message: user({ role: 'ROLE_AGENT' }) }),
    ],
    [
      'a direct message without contextId in the requested context',
      () => checkSendResult(send({ contextId: 'context-1' }), { message: user({ role: 'ROLE_AGENT' }) }),
    ],
    [
      'a direct message in a context of its own when the request named none',
      () => checkSendResult(send(), { message: { ...agentWithoutTask, contextId: 'fresh' } }),
    ],
    [
      'a direct message in another context',
      () => checkSendResult(send({ contextId: 'context-2' }), { message: agentWithoutTask }),
      ['identity', 'message-context-id', '$.message.contextId'],
    ],
    [
      'a direct message with a taskId the request did not name',
      () => checkSendResult(send(), { message: agent() }),
      ['identity', 'message-task-id', '$.message.taskId'],
    ],
    [
      'a direct message of another task',
      () => checkSendResult(followUp, { message: agent({ taskId: 'task-2' }) }),
      ['identity', 'message-task-id', '$.message.taskId'],
    ],
    [
      'a direct message without the requested taskId',
      () => checkSendResult(followUp, { message: agentWithoutTask }),
    ],
    [
      'a task whose messages carry no ids',
      () =>
        checkSendResult(send(), {
          task: task({
            status: { state: 'TASK_STATE_COMPLETED', message: user({ role: 'ROLE_AGENT' }) },
            history: [user(), user({ role: 'ROLE_AGENT' })],
          }),
        }),
    ],
    [
      'a status message of another context',
      () => checkSendResult(send(), { task: withStatusMessage(agent({ contextId: 'context-2' })) }),
      ['identity', 'status-message-context-id', '$.task.status.message.contextId'],
    ],
    [
      'any new task for a first message',
      () => checkSendResult(send(), { task: task({ id: 'fresh', contextId: 'fresh' }) }),
    ],
    ['the continued task', () => checkSendResult(followUp, { task: task() })],
    [
      'another task than message.taskId',
      () => checkSendResult(followUp, { task: task({ id: 'task-2' }) }),
      ['identity', 'task-id', '$.task.id'],
    ],
    [
      'another context than message.contextId',
      () => checkSendResult(send({ contextId: 'context-2' }), { task: task() }),
      ['identity', 'context-id', '$.task.contextId'],
    ],
    [
      'history at the configured length',
      () => checkSendResult(send({}, { historyLength: 1 }), { task: task({ history: [user()] }) }),
    ],
    [
      'more history than configured',
      () => checkSendResult(send({}, { historyLength: 0 }), { task: task({ history: [user()] }) }),
      ['identity', 'history-length', '$.task.history'],
    ],
    [
      'a status message of another task',
      () => checkSendResult(send(), { task: withStatusMessage(agent({ taskId: 'task-2' })) }),
      ['identity', 'status-message-task-id', '$.task.status.message.taskId'],
    ],
  ])('%s', (_name, run, refusal) => outcome(run, refusal));

  // docs/protocol-checks.md#unary-answers, blocking send, and every state of A2A spec §3.2.2.
  it.each<readonly [TaskState, SendMessageRequest['configuration'], boolean]>([
    ['TASK_STATE_WORKING', {}, false],
    ['TASK_STATE_SUBMITTED', {}, false],
    ['TASK_STATE_WORKING', { returnImmediately: false }, false],
    ['TASK_STATE_INPUT_REQUIRED', {}, true],
    ['TASK_STATE_AUTH_REQUIRED', {}, true],
    ['TASK_STATE_COMPLETED', {}, true],
    ['TASK_STATE_FAILED', {}, true],
    ['TASK_STATE_CANCELED', {}, true],
    ['TASK_STATE_REJECTED', {}, true],
    ['TASK_STATE_WORKING', { returnImmediately: true }, true],
    ['TASK_STATE_SUBMITTED', { returnImmediately: true }, true],
  ])('a blocking-send answer in %s with %o is accepted: %s', (state, configuration, accepted) => {
    const result = { task: task({ status: { state, message: agent() } }) };
    outcome(
      () => checkSendResult(send({}, configuration), result),
      accepted ? undefined : ['lifecycle', 'blocking-not-settled', '$.task.status.state'],
    );
  });

  it('accepts a WORKING task replayed for a keyed blocking retry, and still checks its identity', () => {
    const working = { task: task({}, 'TASK_STATE_WORKING') };
    outcome(() => checkSendResult(followUp, working, { replay: true }), undefined);
    outcome(
      () =>
        checkSendResult(followUp, { task: task({ id: 'task-2' }, 'TASK_STATE_WORKING') }, { replay: true }),
      ['identity', 'task-id', '$.task.id'],
    );
    outcome(
      () => checkSendResult(followUp, working, { replay: false }),
      ['lifecycle', 'blocking-not-settled', '$.task.status.state'],
    );
  });
});

describe('checkTaskPage', () => {
  const page = (tasks: Task[], fields: Partial<ListTasksResponse> = {}): ListTasksResponse => ({
    tasks,
    nextPageToken: '',
    pageSize: 10,
    totalSize: tasks.length,
    ...fields,
  });
  const stamped = (id: string, timestamp?: string, fields: Partial<Task> = {}): Task =>
    task({
      id,
      status:
        timestamp === undefined
          ? { state: 'TASK_STATE_COMPLETED' }
          : { state: 'TASK_STATE_COMPLETED', timestamp },
      ...fields,
    });
  const three = [stamped('a', at(3)), stamped('b', at(2)), stamped('c', at(1))];
  it.each<Case>([
    // Contract
    ['an empty page', () => checkTaskPage({}, page([]))],
    ['echoed pageSize 1', () => checkTaskPage({}, page([], { pageSize: 1 }))],
    ['echoed pageSize 100', () => checkTaskPage({}, page([], { pageSize: 100 }))],
    [
      'echoed pageSize 0',
      () => checkTaskPage({}, page([], { pageSize: 0 })),
      ['page', 'page-size', '$.pageSize'],
    ],
    [
      'echoed pageSize 101',
      () => checkTaskPage({}, page([], { pageSize: 101 })),
      ['page', 'page-size', '$.pageSize'],
    ],
    ['as many tasks as pageSize', () => checkTaskPage({}, page(three, { pageSize: 3 }))],
    [
      'more tasks than pageSize',
      () => checkTaskPage({}, page(three, { pageSize: 2 })),
      ['page', 'page-overflow', '$.tasks'],
    ],
    ['totalSize equal to the tasks', () => checkTaskPage({}, page(three, { totalSize: 3 }))],
    [
      'totalSize below the tasks',
      () => checkTaskPage({}, page(three, { totalSize: 2 })),
      ['page', 'total-size', '$.totalSize'],
    ],
    [
      'a negative totalSize',
      () => checkTaskPage({}, page([], { totalSize: -1 })),
      ['page', 'total-size', '$.totalSize'],
    ],
    [
      'a task twice',
      () => checkTaskPage({}, page([stamped('a', at(3)), stamped('a', at(2))])),
      ['page', 'duplicate-task-id', '$.tasks[1].id'],
    ],
    // docs/protocol-checks.md#pages, task pages
    ['newest first', () => checkTaskPage({}, page(three))],
    [
      'oldest first',
      () => checkTaskPage({}, page([...three].reverse())),
      ['page', 'page-order', '$.tasks[1].status.timestamp'],
    ],
    ['equal timestamps', () => checkTaskPage({}, page([stamped('a', at(2)), stamped('b', at(2, '.000'))]))],
    // String order would call these reversed ('Z' sorts after '.') and the next case ordered.
    [
      'newest first with different fraction lengths',
      () => checkTaskPage({}, page([stamped('a', at(1, '.5')), stamped('b', at(1))])),
    ],
    [
      'oldest first with different fraction lengths',
      () => checkTaskPage({}, page([stamped('a', at(1)), stamped('b', at(1, '.5'))])),
      ['page', 'page-order', '$.tasks[1].status.timestamp'],
    ],
    [
      'a task without timestamp between ordered ones',
      () => checkTaskPage({}, page([stamped('a', at(3)), stamped('b'), stamped('c', at(1))])),
    ],
    [
      'a task without timestamp between reversed ones',
      () => checkTaskPage({}, page([stamped('a', at(1)), stamped('b'), stamped('c', at(3))])),
      ['page', 'page-order', '$.tasks[2].status.timestamp'],
    ],
    // Filters
    ['echoed pageSize equal to the requested', () => checkTaskPage({ pageSize: 10 }, page([]))],
    [
      'echoed pageSize above the requested',
      () => checkTaskPage({ pageSize: 9 }, page([])),
      ['page', 'page-size-echo', '$.pageSize'],
    ],
    ['the filtered context', () => checkTaskPage({ contextId: 'context-1' }, page(three))],
    [
      'another context than the filter',
      () =>
        checkTaskPage({ contextId: 'context-1' }, page([stamped('a', at(1), { contextId: 'context-2' })])),
      ['page', 'context-filter', '$.tasks[0].contextId'],
    ],
    ['the filtered state', () => checkTaskPage({ status: 'TASK_STATE_COMPLETED' }, page(three))],
    [
      'another state than the filter',
      () => checkTaskPage({ status: 'TASK_STATE_WORKING' }, page(three)),
      ['page', 'status-filter', '$.tasks[0].status.state'],
    ],
    ['a timestamp equal to the bound', () => checkTaskPage({ statusTimestampAfter: at(1) }, page(three))],
    [
      'the same instant spelled otherwise',
      () => checkTaskPage({ statusTimestampAfter: at(1, '.000') }, page(three)),
    ],
    [
      'a timestamp before the bound',
      () => checkTaskPage({ statusTimestampAfter: at(1, '.001') }, page(three)),
      ['page', 'status-timestamp-before', '$.tasks[2].status.timestamp'],
    ],
    [
      'a task without timestamp under the bound',
      () => checkTaskPage({ statusTimestampAfter: at(0) }, page([stamped('a', at(1)), stamped('b')])),
      ['page', 'status-timestamp-missing', '$.tasks[1].status.timestamp'],
    ],
    ['no artifacts field without includeArtifacts', () => checkTaskPage({}, page(three))],
    [
      'an empty artifacts list without includeArtifacts',
      () => checkTaskPage({}, page([stamped('a', at(1), { artifacts: [] })])),
      ['page', 'artifacts-not-requested', '$.tasks[0].artifacts'],
    ],
    [
      'artifacts with includeArtifacts false',
      () =>
        checkTaskPage(
          { includeArtifacts: false },
          page([stamped('a', at(1), { artifacts: [{ artifactId: 'x', parts: [{ text: 'x' }] }] })]),
        ),
      ['page', 'artifacts-not-requested', '$.tasks[0].artifacts'],
    ],
    [
      'artifacts with includeArtifacts',
      () => checkTaskPage({ includeArtifacts: true }, page([stamped('a', at(1), { artifacts: [] })])),
    ],
    [
      'history at the requested length',
      () => checkTaskPage({ historyLength: 1 }, page([stamped('a', at(1), { history: [user()] })])),
    ],
    [
      'more history than requested',
      () =>
        checkTaskPage(
          { historyLength: 1 },
          page([stamped('a', at(2)), stamped('b', at(1), { history: [user(), user()] })]),
        ),
      ['identity', 'history-length', '$.tasks[1].history'],
    ],
    [
      'a status message of another task',
      () => checkTaskPage({}, page([withStatusMessage(agent({ taskId: 'task-2' }))])),
      ['identity', 'status-message-task-id', '$.tasks[0].status.message.taskId'],
    ],
  ])('%s', (_name, run, refusal) => outcome(run, refusal));
});

describe('checkPushConfig and checkPushConfigPage', () => {
  const config = (fields: Partial<TaskPushNotificationConfig> = {}): TaskPushNotificationConfig => ({
    id: 'config-1',
    taskId: owner.taskId,
    url: 'https://hooks.example/a2a',
    ...fields,
  });
  const { id: _id, ...withoutId } = config();
  const { taskId: _taskId, ...withoutTask } = config();
  const list = (configs: TaskPushNotificationConfig[]): ListTaskPushNotificationConfigsResponse => ({
    configs,
    nextPageToken: '',
  });
  it.each<Case>([
    ['a created config with an id', () => checkPushConfig({ taskId: owner.taskId }, config())],
    [
      'a created config of another task',
      () => checkPushConfig({ taskId: owner.taskId }, config({ taskId: 'task-2' })),
      ['identity', 'push-config-task-id', '$.taskId'],
    ],
    [
      'a created config without taskId',
      () => checkPushConfig({ taskId: owner.taskId }, withoutTask),
      ['identity', 'push-config-task-id', '$.taskId'],
    ],
    [
      'a created config without id',
      () => checkPushConfig({ taskId: owner.taskId }, withoutId),
      ['identity', 'push-config-id', '$.id'],
    ],
    ['the requested config', () => checkPushConfig({ taskId: owner.taskId, id: 'config-1' }, config())],
    [
      'another config than requested',
      () => checkPushConfig({ taskId: owner.taskId, id: 'config-2' }, config()),
      ['identity', 'push-config-id', '$.id'],
    ],
    [
      'as many configs as pageSize',
      () =>
        checkPushConfigPage(
          { taskId: owner.taskId, pageSize: 2 },
          list([config(), config({ id: 'config-2' })]),
        ),
    ],
    [
      // A2A spec §3.1.9: the server MUST return all active configs and MAY paginate, so a longer page stands.
      'more configs than pageSize',
      () =>
        checkPushConfigPage(
          { taskId: owner.taskId, pageSize: 1 },
          list([config(), config({ id: 'config-2' })]),
        ),
    ],
    ['an empty list', () => checkPushConfigPage({ taskId: owner.taskId }, list([]))],
    [
      'a listed config of another task',
      () =>
        checkPushConfigPage(
          { taskId: owner.taskId },
          list([config(), config({ id: 'config-2', taskId: 'task-2' })]),
        ),
      ['identity', 'push-config-task-id', '$.configs[1].taskId'],
    ],
    [
      'a listed config without taskId',
      () => checkPushConfigPage({ taskId: owner.taskId }, list([withoutTask])),
      ['identity', 'push-config-task-id', '$.configs[0].taskId'],
    ],
    [
      'a listed config without id',
      () => checkPushConfigPage({ taskId: owner.taskId }, list([withoutId])),
      ['identity', 'push-config-id', '$.configs[0].id'],
    ],
    [
      'a config listed twice',
      () => checkPushConfigPage({ taskId: owner.taskId }, list([config(), config()])),
      ['page', 'duplicate-config-id', '$.configs[1].id'],
    ],
  ])('%s', (_name, run, refusal) => outcome(run, refusal));
});

// docs/protocol-checks.md#success-answers against the code: every rule `checks.ts` refuses with has its row,
// with the clause that decides it (the cell before the bindings), and is met by a refusing case of the tables
// above.
describe('the rules of checks.ts', () => {
  const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
  const code = [...read('./checks.ts').matchAll(/fail\('[a-z]+', '([a-z-]+)'/g)].map((match) => match[1]);
  const documents = read('../../../../docs/protocol-checks.md');
  const section = documents.slice(
    documents.indexOf('### Success answers'),
    documents.indexOf('### Error answers'),
  );
  const rows = new Map(
    [...section.matchAll(/^\| `answer\.([a-z_-]+)` +\|[^|]+\| ([^|]+?) +\|[^|]+\|$/gm)].map((match) => [
      match[1],
      match[2],
    ]),
  );

  it('are read from the source', () => {
    expect(code).toContain('status-message-task-id');
    expect(code).toContain('blocking-not-settled');
  });

  it.each(code)('%s has its row, citing the spec or the proto', (rule) => {
    expect(rows.get(rule ?? '')).toMatch(/A2A (spec §|proto `)/);
  });

  // The tables above have run by now: vitest runs a file's tests in order.
  it('are each met by a refusing case of the tables above', () => {
    expect(code.filter((rule) => !refusedWith.has(rule ?? ''))).toEqual([]);
  });
});
