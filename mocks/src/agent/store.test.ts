import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomId } from './ids.js';
import { AgentError } from './remote-errors.js';
import { createTaskStore, type TaskStore } from './store.js';
import type { Message, WireStreamResponse } from './wire.js';

const user: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const agentSays = (text: string): Message => ({
  messageId: randomId(),
  role: 'ROLE_AGENT',
  parts: [{ text }],
});

function storeAt(start = Date.UTC(2026, 0, 1)): { store: TaskStore; tick: (ms?: number) => void } {
  let clock = start;
  return {
    store: createTaskStore({ now: () => clock }),
    tick: (ms = 1) => {
      clock += ms;
    },
  };
}

function add(store: TaskStore, tenant = '', contextId = 'c') {
  return store.insert(tenant, {
    id: randomId(),
    contextId,
    status: { state: 'TASK_STATE_SUBMITTED' },
    history: [structuredClone(user)],
  });
}

const listAll = { pageSize: 100, includeArtifacts: false } as const;

describe('createTaskStore', () => {
  it('keeps tasks per tenant', () => {
    const { store } = storeAt();
    const record = add(store, 'acme');
    expect(store.get('acme', record.task.id)).toBe(record);
    expect(store.get('', record.task.id)).toBeUndefined();
    expect(store.get('other', record.task.id)).toBeUndefined();
  });

  it('stamps every status change with the clock and tells the listeners', () => {
    const { store, tick } = storeAt();
    const record = add(store);
    expect(record.task.status.timestamp).toBe('2026-01-01T00:00:00.000Z');
    const seen: WireStreamResponse[] = [];
    const everywhere: WireStreamResponse[] = [];
    const stop = store.subscribe(record, (event) => seen.push(event));
    store.subscribeAll((event) => everywhere.push(event));
    tick(1500);
    const working = agentSays('working');
    store.setStatus(record, 'TASK_STATE_WORKING', working);
    expect(seen).toEqual([
      {
        statusUpdate: {
          taskId: record.task.id,
          contextId: 'c',
          status: { state: 'TASK_STATE_WORKING', message: working, timestamp: '2026-01-01T00:00:01.500Z' },
        },
      },
    ]);
    expect(everywhere).toEqual(seen);
    expect(record.task.history).toEqual([user, working]);
    stop();
    store.setStatus(record, 'TASK_STATE_COMPLETED');
    expect(seen).toHaveLength(1);
    expect(everywhere).toHaveLength(2);
  });

  it('folds artifact chunks: append adds parts, a new chunk without append replaces', () => {
    const { store } = storeAt();
    const record = add(store);
    const seen: WireStreamResponse[] = [];
    store.subscribe(record, (event) => seen.push(event));
    const chunk = (text: string, append: boolean, lastChunk: boolean) =>
      store.addArtifact(record, { artifact: { artifactId: 'x', parts: [{ text }] }, append, lastChunk });
    chunk('a', false, false);
    chunk('b', true, true);
    expect(record.task.artifacts).toEqual([{ artifactId: 'x', parts: [{ text: 'a' }, { text: 'b' }] }]);
    chunk('c', false, true);
    expect(record.task.artifacts).toEqual([{ artifactId: 'x', parts: [{ text: 'c' }] }]);
    expect(seen.map((event) => ('artifactUpdate' in event ? event.artifactUpdate : undefined))).toEqual([
      { taskId: record.task.id, contextId: 'c', artifact: { artifactId: 'x', parts: [{ text: 'a' }] } },
      {
        taskId: record.task.id,
        contextId: 'c',
        artifact: { artifactId: 'x', parts: [{ text: 'b' }] },
        append: true,
        lastChunk: true,
      },
      {
        taskId: record.task.id,
        contextId: 'c',
        artifact: { artifactId: 'x', parts: [{ text: 'c' }] },
        lastChunk: true,
      },
    ]);
  });

  it('hands out detached copies: a listener or a view cannot change the task', () => {
    const { store } = storeAt();
    const record = add(store);
    store.subscribe(record, (event) => {
      if ('statusUpdate' in event) {
        event.statusUpdate.status.state = 'TASK_STATE_FAILED';
      }
    });
    store.setStatus(record, 'TASK_STATE_WORKING');
    const view = store.view(record, { artifacts: 'when-present' });
    view.history?.push(agentSays('forged'));
    expect(record.task.status.state).toBe('TASK_STATE_WORKING');
    expect(record.task.history).toHaveLength(1);
  });

  it.each<[number | undefined, number]>([
    [undefined, 3],
    [0, 0],
    [1, 1],
    [2, 2],
    [10, 3],
  ])('view with historyLength %s keeps %s messages, the newest', (historyLength, count) => {
    const { store } = storeAt();
    const record = add(store);
    store.setStatus(record, 'TASK_STATE_WORKING', agentSays('working'));
    store.setStatus(record, 'TASK_STATE_COMPLETED', agentSays('done'));
    const view = store.view(record, { historyLength, artifacts: 'omit' });
    if (count === 0) {
      expect(view).not.toHaveProperty('history');
    } else {
      expect(view.history).toEqual(record.task.history?.slice(-count));
    }
  });

  it.each([
    ['always', true, []],
    ['when-present', false, undefined],
    ['omit', false, undefined],
  ] as const)('view artifacts %s on a task without any: present %s', (artifacts, present, value) => {
    const { store } = storeAt();
    const view = store.view(add(store), { artifacts });
    expect('artifacts' in view).toBe(present);
    expect(view.artifacts).toEqual(value);
  });

  describe('list', () => {
    it('orders newest status first, ties by the later change, and counts before paging', () => {
      const { store, tick } = storeAt();
      const [a, b, c] = [add(store), add(store), add(store)];
      tick();
      store.setStatus(a, 'TASK_STATE_WORKING');
      const page = store.list('', { ...listAll, pageSize: 2 });
      expect(page.tasks.map((task) => task.id)).toEqual([a.task.id, c.task.id]);
      expect(page.totalSize).toBe(3);
      expect(page.pageSize).toBe(2);
      const rest = store.list('', { ...listAll, pageSize: 2, pageToken: page.nextPageToken });
      expect(rest.tasks.map((task) => task.id)).toEqual([b.task.id]);
      expect(rest.nextPageToken).toBe('');
    });

    it('filters on context, state and an inclusive status time', () => {
      const { store, tick } = storeAt();
      const first = add(store, '', 'one');
      tick(10);
      const second = add(store, '', 'two');
      store.setStatus(second, 'TASK_STATE_COMPLETED');
      const ids = (query: Partial<Parameters<TaskStore['list']>[1]>) =>
        store.list('', { ...listAll, ...query }).tasks.map((task) => task.id);
      expect(ids({ contextId: 'one' })).toEqual([first.task.id]);
      expect(ids({ status: 'TASK_STATE_COMPLETED' })).toEqual([second.task.id]);
      expect(ids({ statusTimestampAfter: second.updatedAt })).toEqual([second.task.id]);
      expect(ids({ statusTimestampAfter: second.updatedAt + 1 })).toEqual([]);
      expect(ids({ statusTimestampAfter: first.updatedAt })).toEqual([second.task.id, first.task.id]);
    });

    it('refuses a token it did not issue, or issued for another tenant or other filters', () => {
      const { store } = storeAt();
      for (let index = 0; index < 3; index++) {
        add(store, 'acme', 'c');
      }
      const { nextPageToken } = store.list('acme', { ...listAll, pageSize: 1 });
      const attempts = [
        () => store.list('acme', { ...listAll, pageToken: 'forged' }),
        () => store.list('other', { ...listAll, pageToken: nextPageToken }),
        () => store.list('acme', { ...listAll, contextId: 'c', pageToken: nextPageToken }),
      ];
      for (const attempt of attempts) {
        expect(attempt).toThrow(AgentError);
        expect(attempt).toThrow(/pageToken/);
      }
      expect(
        store.list('acme', { ...listAll, pageSize: 1, historyLength: 0, pageToken: nextPageToken }).tasks,
      ).toHaveLength(1);
    });

    it('forgets the oldest token past 4096', () => {
      const { store } = storeAt();
      add(store);
      add(store);
      const first = store.list('', { ...listAll, pageSize: 1 }).nextPageToken;
      for (let index = 0; index < 4096; index++) {
        store.list('', { ...listAll, pageSize: 1 });
      }
      expect(() => store.list('', { ...listAll, pageToken: first })).toThrow(AgentError);
    });

    it('pages through every task exactly once, newest first, even when tasks are added between pages', () => {
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 25 }),
          fc.integer({ min: 1, max: 6 }),
          fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 10 }),
          (gaps, pageSize, insertsBetweenPages) => {
            const { store, tick } = storeAt();
            const expected: string[] = [];
            for (const gap of gaps) {
              tick(gap);
              expected.unshift(add(store).task.id);
            }
            const seen: string[] = [];
            let token: string | undefined;
            let round = 0;
            do {
              const page = store.list('', {
                ...listAll,
                pageSize,
                ...(token === undefined ? {} : { pageToken: token }),
              });
              seen.push(...page.tasks.map((task) => task.id));
              token = page.nextPageToken === '' ? undefined : page.nextPageToken;
              for (let index = 0; index < (insertsBetweenPages[round] ?? 0); index++) {
                add(store);
              }
              round++;
            } while (token !== undefined);
            expect(seen).toEqual(expected);
          },
        ),
      );
    });
  });

  it('forgets terminal tasks taskTtlMs after their last change, never running ones', () => {
    let clock = 0;
    const store = createTaskStore({ now: () => clock, taskTtlMs: 1000 });
    const done = add(store);
    store.setStatus(done, 'TASK_STATE_COMPLETED');
    const running = add(store);
    clock = 999;
    expect(store.get('', done.task.id)).toBe(done);
    clock = 1000;
    expect(store.get('', done.task.id)).toBeUndefined();
    expect(store.get('', running.task.id)).toBe(running);
    expect(store.list('', listAll).totalSize).toBe(1);
  });

  describe('push configs', () => {
    it('adds, replaces, deletes and pages them in creation order', () => {
      const { store } = storeAt();
      const record = add(store);
      const config = (id: string, url = `https://hooks.example/${id}`) => ({
        id,
        taskId: record.task.id,
        url,
      });
      store.putPushConfig(record, config('a'));
      store.putPushConfig(record, config('b'));
      store.putPushConfig(record, config('c'));
      store.putPushConfig(record, config('a', 'https://hooks.example/new'));
      const first = store.listPushConfigs(record, { pageSize: 2 });
      expect(first.configs).toEqual([config('a', 'https://hooks.example/new'), config('b')]);
      expect(store.listPushConfigs(record, { pageSize: 2, pageToken: first.nextPageToken })).toEqual({
        configs: [config('c')],
        nextPageToken: '',
      });
      expect(store.deletePushConfig(record, 'b')).toBe(true);
      expect(store.deletePushConfig(record, 'b')).toBe(false);
      expect(store.listPushConfigs(record, { pageSize: 10 }).configs.map((entry) => entry.id)).toEqual([
        'a',
        'c',
      ]);
    });

    it('refuses a config page token of another task', () => {
      const { store } = storeAt();
      const one = add(store);
      const two = add(store);
      for (const id of ['a', 'b']) {
        store.putPushConfig(one, { id, taskId: one.task.id, url: 'https://hooks.example/' });
      }
      const { nextPageToken } = store.listPushConfigs(one, { pageSize: 1 });
      expect(() => store.listPushConfigs(two, { pageSize: 1, pageToken: nextPageToken })).toThrow(AgentError);
      expect(() => store.list('', { ...listAll, pageToken: nextPageToken })).toThrow(AgentError);
    });
  });
});
