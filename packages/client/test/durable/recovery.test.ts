import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallOptions } from '../../src/client/call.js';
import { RemoteError, TransportError } from '../../src/core/errors.js';
import {
  answerEchoes,
  type ProbeReport,
  recoveryContextId,
  recoveryContextPrefix,
  replaySend,
  resultSummary,
  type ScanPage,
  sameMessage,
  sameSentMessage,
  scanContextHistory,
} from '../../src/durable/recovery.js';
import type { Attempt } from '../../src/ledger/ledger.js';
import { parseMessage } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import type { SendMessageResponse } from '../../src/protocol/send-message.js';
import type { Task } from '../../src/protocol/task.js';
import { bindings, mountPeer, type Peer, respond, server } from '../support/durable-peers.js';

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const digest = `sha256:${'c'.repeat(64)}`;

describe('recoveryContextId (docs/durable-send.md#recovery-modes, the one-way opaque ID)', () => {
  it('is the prefix and 64 lowercase hex digits, the same for the same attempt', async () => {
    const input = { recordId: 'send-1', attemptId: 'attempt-1', cardDigest: digest };
    const id = await recoveryContextId(input);
    expect(id).toMatch(/^surecall-ctx-[0-9a-f]{64}$/);
    expect(id.startsWith(recoveryContextPrefix)).toBe(true);
    expect(await recoveryContextId({ ...input })).toBe(id);
  });

  it.each([
    ['record', { recordId: 'send-2' }],
    ['attempt', { attemptId: 'attempt-2' }],
    ['card', { cardDigest: `sha256:${'d'.repeat(64)}` }],
  ])('changes with the %s', async (_name, change) => {
    const input = { recordId: 'send-1', attemptId: 'attempt-1', cardDigest: digest };
    expect(await recoveryContextId({ ...input, ...change })).not.toBe(await recoveryContextId(input));
  });

  it('keeps its inputs apart: moving text from one id to the next gives another context', async () => {
    const left = await recoveryContextId({ recordId: 'ab', attemptId: 'c', cardDigest: digest });
    const right = await recoveryContextId({ recordId: 'a', attemptId: 'bc', cardDigest: digest });
    expect(left).not.toBe(right);
  });

  it('reveals none of its inputs, and two different attempts never share a context (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uuid(), fc.uuid(), fc.uuid(), async (recordId, attemptId, otherAttempt) => {
        fc.pre(attemptId !== otherAttempt);
        const id = await recoveryContextId({ recordId, attemptId, cardDigest: digest });
        const other = await recoveryContextId({ recordId, attemptId: otherAttempt, cardDigest: digest });
        for (const secret of [recordId, attemptId, recordId.slice(0, 8), digest.slice(7, 20)]) {
          expect(id.includes(secret)).toBe(false);
        }
        expect(other).not.toBe(id);
      }),
      { numRuns: 50 },
    );
  });
});

const context = 'surecall-ctx-0000000000000000000000000000000000000000000000000000000000000000';
const sent: Message = {
  messageId: 'surecall-attempt-1',
  contextId: context,
  role: 'ROLE_USER',
  parts: [
    { text: 'book the 9:40 to Lyon' },
    { data: { seats: 2, class: 'first' }, mediaType: 'application/json' },
  ],
  metadata: { origin: 'planner' },
};

const owner = { id: 'task-1', contextId: context };

describe('sameSentMessage: the server may add only this task’s id', () => {
  it.each<[string, Message, boolean]>([
    ['the message itself', sent, true],
    ['the message with this task’s id added', { ...sent, taskId: 'task-1' }, true],
    [
      'members in another order',
      {
        metadata: sent.metadata,
        parts: sent.parts,
        role: sent.role,
        contextId: context,
        messageId: sent.messageId,
      } as Message,
      true,
    ],
    [
      'an empty extensions list, decoded (a ProtoJSON default)',
      parseMessage({ ...sent, extensions: [] }),
      true,
    ],
    ['an empty referenceTaskIds list, decoded', parseMessage({ ...sent, referenceTaskIds: [] }), true],
    [
      'the echo of a printer that emits defaults, decoded',
      parseMessage({
        ...sent,
        taskId: 'task-1',
        parts: [{ ...sent.parts[0], filename: '', mediaType: '' }, sent.parts[1]],
        extensions: [],
        referenceTaskIds: [],
      }),
      true,
    ],
    [
      'the data part’s members in another order',
      {
        ...sent,
        parts: [sent.parts[0], { mediaType: 'application/json', data: { class: 'first', seats: 2 } }],
      } as Message,
      true,
    ],
    ['another task’s id', { ...sent, taskId: 'task-2' }, false],
    [
      'another text under the same id',
      { ...sent, parts: [{ text: 'book the 9:40 to Paris' }, sent.parts[1]] } as Message,
      false,
    ],
    [
      'another data value',
      {
        ...sent,
        parts: [sent.parts[0], { data: { seats: 3, class: 'first' }, mediaType: 'application/json' }],
      } as Message,
      false,
    ],
    ['a part more', { ...sent, parts: [...sent.parts, { text: 'and a taxi' }] }, false],
    ['a part less', { ...sent, parts: [sent.parts[0]] } as Message, false],
    ['another role', { ...sent, role: 'ROLE_AGENT' }, false],
    ['another context', { ...sent, contextId: 'ctx-other' }, false],
    [
      'no context',
      { messageId: sent.messageId, role: sent.role, parts: sent.parts, metadata: sent.metadata },
      false,
    ],
    ['other metadata', { ...sent, metadata: { origin: 'someone else' } }, false],
    [
      'metadata dropped',
      { messageId: sent.messageId, contextId: context, role: sent.role, parts: sent.parts },
      false,
    ],
    ['an extension declared', { ...sent, extensions: ['https://example.com/ext/v1'] }, false],
    [
      'a media type added to the text part',
      {
        ...sent,
        parts: [{ text: 'book the 9:40 to Lyon', mediaType: 'text/plain' }, sent.parts[1]],
      } as Message,
      false,
    ],
    ['a lone surrogate, which has no canonical form', { ...sent, parts: [{ text: '\ud800' }] }, false],
  ])('%s → %s', (_name, found, same) => {
    expect(sameSentMessage(found, sent, owner)).toBe(same);
  });

  const contextless: Message = { messageId: 'm-2', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
  it.each<[string, Message, boolean]>([
    ['the task’s context and id added', { ...contextless, contextId: context, taskId: 'task-1' }, true],
    ['nothing added', contextless, true],
    ['another context added', { ...contextless, contextId: 'ctx-other', taskId: 'task-1' }, false],
  ])(
    'to a message sent without a context, the server may add the task’s context: %s → %s',
    (_name, found, same) => {
      expect(sameSentMessage(found, contextless, owner)).toBe(same);
    },
  );

  it('sameMessage compares taskId too', () => {
    expect(sameMessage({ ...sent, taskId: 't' }, { ...sent, taskId: 't' })).toBe(true);
    expect(sameMessage({ ...sent, taskId: 't' }, sent)).toBe(false);
    expect(sameMessage(parseMessage({ ...sent, extensions: [] }), sent)).toBe(true);
  });
});

function task(id: string, history: Message[], extra: Partial<Task> = {}): Task {
  return { id, contextId: context, status: { state: 'TASK_STATE_SUBMITTED' }, history, ...extra };
}

const agentReply: Message = {
  messageId: 'reply-1',
  contextId: context,
  taskId: 'task-1',
  role: 'ROLE_AGENT',
  parts: [{ text: 'booked' }],
};

describe('answerEchoes: an answer to a send must not contradict the message sent', () => {
  it.each<[string, SendMessageResponse, boolean]>([
    [
      'a task holding the message once',
      { task: task('task-1', [{ ...sent, taskId: 'task-1' }, agentReply]) },
      true,
    ],
    ['a task with no history', { task: task('task-1', []) }, true],
    ['a direct message', { message: { ...agentReply, taskId: undefined } as unknown as Message }, true],
    [
      'a task holding the message with another text',
      { task: task('task-1', [{ ...sent, parts: [{ text: 'x' }] }]) },
      false,
    ],
    ['a task holding the message twice', { task: task('task-1', [sent, sent]) }, false],
  ])('%s → %s', (_name, answer, echoes) => {
    expect(answerEchoes(answer, sent)).toBe(echoes);
  });
});

describe('resultSummary (docs/durable-send.md#what-a-task-commits: a task commits its durable handle)', () => {
  it.each<[string, SendMessageResponse, unknown]>([
    ['a task', { task: task('task-1', []) }, { kind: 'task', taskId: 'task-1', contextId: context }],
    [
      'a direct message with its context',
      { message: { messageId: 'r', contextId: 'c', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } },
      { kind: 'message', contextId: 'c' },
    ],
    [
      'a direct message of a task',
      { message: agentReply },
      { kind: 'message', taskId: 'task-1', contextId: context },
    ],
  ])('%s', (_name, answer, summary) => {
    expect(resultSummary(answer)).toEqual(summary);
  });
});

type Page = { readonly tasks: readonly Task[]; readonly nextPageToken?: string };

/**
Answers every ListTasks with the next of `pages` (the last one again when they run out); the query is recorded
on the peer.
*/
function scriptPages(peer: Peer, pages: readonly Page[]): void {
  let index = 0;
  peer.stage = async (request, forward) => {
    const call = peer.requests.at(-1);
    if (call?.operation !== 'ListTasks') {
      return forward(request);
    }
    const page = pages[Math.min(index, pages.length - 1)] as Page;
    index += 1;
    return respond(request, {
      tasks: page.tasks as unknown as JsonValue,
      nextPageToken: page.nextPageToken ?? '',
      pageSize: 100,
      totalSize: 1000,
    });
  };
}

const attempt: Attempt = {
  attemptId: 'attempt-1',
  messageId: sent.messageId,
  contextId: context,
  startedAt: 0,
};
const bounds = { maxPages: 3, historyLength: 16, includeArtifacts: false };
const echo = (id: string): Message => ({ ...sent, taskId: id });

describe.each(bindings)(
  'scanContextHistory over %s (docs/durable-send.md#recovery-modes, the scan algorithm)',
  (binding) => {
    let peer: Peer;
    beforeAll(async () => {
      peer = await mountPeer({ mode: 'foreign' });
    });

    async function scan(
      pages: readonly Page[],
      options: Partial<typeof bounds> = {},
      call: CallOptions = {},
    ) {
      scriptPages(peer, pages);
      peer.requests.length = 0;
      return scanContextHistory({ client: peer.client(binding), callOptions: call, sent }, attempt, {
        ...bounds,
        ...options,
      });
    }

    const counts = (report: ProbeReport) => [report.pagesScanned, report.tasksExamined, report.matches];

    it('finds exactly one task holding the message, reading every page to rule out a second', async () => {
      const report = await scan([
        {
          tasks: [
            task('task-9', [{ ...agentReply, taskId: 'task-9' }]),
            task('task-1', [echo('task-1'), agentReply]),
          ],
          nextPageToken: 'p2',
        },
        { tasks: [task('task-3', [])] },
      ]);
      expect(report).toMatchObject({ result: 'match', answer: { task: { id: 'task-1' } } });
      expect(counts(report)).toEqual([2, 3, 1]);
      const [first, second] = peer.sent('ListTasks');
      // docs/durable-send.md#recovery-modes, step 2: the opaque context, 100 tasks a page, the bounded
      // history, then the previous page's token.
      expect(first?.params).toMatchObject({
        contextId: context,
        pageSize: binding === 'JSONRPC' ? 100 : '100',
        historyLength: binding === 'JSONRPC' ? 16 : '16',
      });
      expect(first?.params).not.toHaveProperty('includeArtifacts');
      expect(first?.params).not.toHaveProperty('pageToken');
      expect(second?.params).toMatchObject({ pageToken: 'p2' });
    });

    it('tells of each page as it is examined, with that page’s own counts (the devtools’ step-by-step scan)', async () => {
      const steps: ScanPage[] = [];
      scriptPages(peer, [
        { tasks: [task('task-9', []), task('task-1', [echo('task-1')])], nextPageToken: 'p2' },
        { tasks: [task('task-3', [])] },
      ]);
      const report = await scanContextHistory(
        { client: peer.client(binding), callOptions: {}, sent, onPage: (page) => steps.push(page) },
        attempt,
        bounds,
      );
      expect(report.result).toBe('match');
      expect(steps).toEqual([
        { page: 1, tasksExamined: 2, matches: 1, nextPageToken: true },
        { page: 2, tasksExamined: 1, matches: 0, nextPageToken: false },
      ]);
    });

    it('tells of the page a conflict stopped the scan on, counted up to the conflict', async () => {
      const steps: ScanPage[] = [];
      scriptPages(peer, [
        {
          tasks: [
            task('task-1', [echo('task-1'), echo('task-1')]),
            task('task-2', [echo('task-2')]),
            task('task-3', []),
          ],
        },
      ]);
      const report = await scanContextHistory(
        { client: peer.client(binding), callOptions: {}, sent, onPage: (page) => steps.push(page) },
        attempt,
        bounds,
      );
      expect(report).toMatchObject({ result: 'conflict', rule: 'ambiguous-match' });
      expect(steps).toEqual([{ page: 1, tasksExamined: 1, matches: 1, nextPageToken: false }]);
    });

    // docs/durable-send.md#duplicated: the unchanged message in two tasks is a second execution, named task
    // by task.
    it.each<[string, readonly Page[], string[], number[]]>([
      [
        'two tasks on one page',
        [{ tasks: [task('task-1', [echo('task-1')]), task('task-2', [echo('task-2')]), task('task-3', [])] }],
        ['task-1', 'task-2'],
        [1, 3, 2],
      ],
      [
        'two tasks on two pages',
        [
          { tasks: [task('task-1', [echo('task-1')])], nextPageToken: 'p2' },
          { tasks: [task('task-2', [echo('task-2')])] },
        ],
        ['task-1', 'task-2'],
        [2, 2, 2],
      ],
      [
        'three tasks, and a last allowed page that still has a next token',
        [
          {
            tasks: [task('task-1', [echo('task-1')]), task('task-2', [echo('task-2')])],
            nextPageToken: 'p2',
          },
          { tasks: [task('task-3', [echo('task-3')])], nextPageToken: 'p3' },
          { tasks: [task('task-4', [])], nextPageToken: 'p4' },
        ],
        ['task-1', 'task-2', 'task-3'],
        [3, 4, 3],
      ],
    ])('finds the message duplicated in %s', async (_name, pages, taskIds, expected) => {
      const report = await scan(pages);
      expect(report).toMatchObject({ result: 'duplicated', taskIds });
      expect(report).not.toHaveProperty('answer');
      expect(counts(report)).toEqual(expected);
    });

    it('names at most 16 tasks of a duplicated message, and counts them all', async () => {
      const many = Array.from({ length: 20 }, (_, index) => task(`task-${index}`, [echo(`task-${index}`)]));
      const report = await scan([{ tasks: many }]);
      expect(report).toMatchObject({ result: 'duplicated', matches: 20 });
      expect(report.taskIds).toEqual(many.slice(0, 16).map((entry) => entry.id));
    });

    it('still fails closed on a substituted payload found after a duplicate', async () => {
      const report = await scan([
        {
          tasks: [
            task('task-1', [echo('task-1')]),
            task('task-2', [echo('task-2')]),
            task('task-3', [{ ...echo('task-3'), parts: [{ text: 'book the 9:40 to Paris' }] }]),
          ],
        },
      ]);
      expect(report).toMatchObject({ result: 'conflict', rule: 'message-mismatch' });
    });

    it('asks for artifacts only when told to', async () => {
      await scan([{ tasks: [] }], { includeArtifacts: true });
      expect(peer.sent('ListTasks')[0]?.params).toMatchObject({
        includeArtifacts: binding === 'JSONRPC' ? true : 'true',
      });
    });

    it('finds nothing in an empty context', async () => {
      const report = await scan([{ tasks: [] }]);
      expect(report).toEqual({ result: 'none', pagesScanned: 1, tasksExamined: 0, matches: 0 });
    });

    it.each<[string, readonly Page[], string, number[]]>([
      [
        'a task on two pages',
        [{ tasks: [task('task-1', [])], nextPageToken: 'p2' }, { tasks: [task('task-1', [])] }],
        'duplicate-task',
        [2, 2, 0],
      ],
      [
        'the message twice in one task',
        [{ tasks: [task('task-1', [echo('task-1'), echo('task-1')])] }],
        'ambiguous-match',
        [1, 1, 1],
      ],
      [
        'the message’s id with another payload',
        [{ tasks: [task('task-1', [{ ...echo('task-1'), parts: [{ text: 'book the 9:40 to Paris' }] }])] }],
        'message-mismatch',
        [1, 1, 0],
      ],
      [
        'a last allowed page that still has a next token',
        [{ tasks: [task('task-1', [echo('task-1')])], nextPageToken: 'more' }],
        'scan-limit',
        [3, 3, 1],
      ],
    ])('fails closed on %s', async (_name, pages, rule, expected) => {
      const report = await scan(
        rule === 'scan-limit'
          ? [
              pages[0] as Page,
              { tasks: [task('task-2', [])], nextPageToken: 'p3' },
              { tasks: [task('task-3', [])], nextPageToken: 'p4' },
            ]
          : pages,
      );
      expect(report).toMatchObject({ result: 'conflict', rule });
      expect(counts(report)).toEqual(expected);
    });

    it('counts a page that breaks the protocol as untrustworthy evidence', async () => {
      // A task of another context: the client's own page check refuses the page
      // (docs/protocol-checks.md#pages, filters).
      const report = await scan([
        { tasks: [{ ...task('task-1', [echo('task-1')]), contextId: 'elsewhere' }] },
      ]);
      expect(report).toMatchObject({
        result: 'conflict',
        rule: 'invalid-response',
        cause: { kind: 'invalid-response' },
      });
    });

    it('reports a lost page as a transient failure', async () => {
      peer.stage = async () => Response.error();
      const report = await scanContextHistory(
        { client: peer.client(binding), callOptions: {}, sent },
        attempt,
        bounds,
      );
      expect(report).toMatchObject({
        result: 'transient-error',
        rule: 'dependency-unavailable',
        cause: { kind: 'transport' },
        pagesScanned: 0,
      });
    });

    it('rethrows when the caller gave up: a cancelled probe is no evidence', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(scan([{ tasks: [] }], {}, { signal: controller.signal })).rejects.toMatchObject({
        kind: 'request',
        reason: 'aborted',
      });
    });
  },
);

describe('replaySend', () => {
  const input = { client: undefined as never, callOptions: {}, sent };

  it.each<[string, () => Promise<SendMessageResponse>, Partial<ProbeReport>]>([
    [
      'the first attempt’s task',
      async () => ({ task: task('task-1', [echo('task-1')]) }),
      { result: 'match', matches: 1 },
    ],
    ['a direct message', async () => ({ message: agentReply }), { result: 'match', matches: 1 }],
    [
      'a task whose history changed the message',
      async () => ({ task: task('task-1', [{ ...echo('task-1'), role: 'ROLE_AGENT' }]) }),
      { result: 'conflict', rule: 'message-mismatch' },
    ],
    [
      'a lost answer',
      () => Promise.reject(new TransportError('network', { dispatched: true })),
      { result: 'transient-error', rule: 'dependency-unavailable' },
    ],
    [
      'a definitive rejection',
      () => Promise.reject(new RemoteError({ dispatched: true, remoteCode: -32602 })),
      { result: 'refused', rule: 'operation-rejected' },
    ],
  ])('reports %s', async (_name, answer, expected) => {
    const seen: Message[] = [];
    const report = await replaySend(input, async (message) => {
      seen.push(message);
      return answer();
    });
    expect(report).toMatchObject(expected);
    // The exact original: same messageId, same everything.
    expect(seen).toEqual([sent]);
  });

  it('rethrows what is not a client error', async () => {
    await expect(replaySend(input, () => Promise.reject(new TypeError('bug')))).rejects.toThrow(TypeError);
  });
});
