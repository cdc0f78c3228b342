/**
`ClientOptions.interceptors` over both bindings against the mock agent behind MSW
(docs/protocol-checks.md#interceptors): what each hook is told, what `before` may add and what it may not,
what `after` sees of each answer, and that neither can reach the token, the body or the key, or send.
*/
import { jsonRpcPath, restPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ClientOptions, HeaderContext, Interceptor, InterceptorAnswer } from '../src/client/options.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { OptionsError, RequestError } from '../src/core/errors.js';
import { cardDigest } from '../src/discovery/digest.js';
import { newIdempotencyKey, setKey } from '../src/idempotency/key.js';
import type { AgentCard } from '../src/protocol/agent-card.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import type { Message } from '../src/protocol/message.js';
import { servedCard } from './support/card.js';
import { rejectionOf } from './support/rejection.js';

const mock = createMockAgentServer({ stepMs: 0 });
const bindings = ['JSONRPC', 'HTTP+JSON'] as const;
const token = 'secret-token-7f3a9c';
const seen: Headers[] = [];
let card: AgentCard;
let digest: string;

beforeAll(async () => {
  mock.listen();
  const raw = await servedCard(mock.cardUrl);
  card = parseAgentCard(raw);
  digest = await cardDigest(raw);
  mock.server.events.on('request:start', ({ request }) => {
    seen.push(request.headers);
  });
});
afterEach(() => {
  seen.length = 0;
  mock.server.resetHandlers();
});
afterAll(() => mock.close());

function connect(binding: ProtocolBinding, options: Partial<ClientOptions>): A2aClient {
  return createClient({
    card,
    cardDigest: digest,
    pin: { binding, url: `${mock.origin}${binding === 'JSONRPC' ? jsonRpcPath : restPath}` },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => token },
    ...options,
  });
}

function message(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

/** An interceptor that keeps what it is told and adds `add` to every request. */
function recording(add?: Record<string, string>) {
  const asked: HeaderContext[] = [];
  const answers: InterceptorAnswer[] = [];
  const interceptor: Interceptor = {
    before: (context) => {
      asked.push(context);
      return add;
    },
    after: (answer) => {
      answers.push(answer);
    },
  };
  return { asked, answers, interceptor };
}

const contextKeys = ['attempt', 'binding', 'callId', 'method', 'operation', 'url'];

describe.each(bindings)('interceptors over %s', (binding) => {
  it('add headers to every request after the headers option, in order, and see every answer', async () => {
    const first = recording({ 'x-tenant': 'acme' });
    const second = recording({ 'x-request-id': 'r-1' });
    const client = connect(binding, {
      headers: () => ({ traceparent: `00-${'4bf92f3577b34da6a3ce929d0e0e4736'}-00f067aa0ba902b7-01` }),
      interceptors: [first.interceptor, second.interceptor],
    });
    const sent = await client.sendMessage({ message: message('task one') });
    if (!('task' in sent)) {
      throw new Error('expected a task');
    }
    await client.getTask({ id: sent.task.id });
    for await (const _event of client.sendStreamingMessage({ message: message('task two') })) {
      // Drained: the stream's establishment is what this test reads.
    }
    expect(seen).toHaveLength(3);
    for (const headers of seen) {
      expect(headers.get('x-tenant')).toBe('acme');
      expect(headers.get('x-request-id')).toBe('r-1');
      expect(headers.get('traceparent')).toMatch(/^00-4bf9/);
      // The protocol's own headers, and the token, are still the client's.
      expect(headers.get('a2a-version')).toBe('1.0');
      expect(headers.get('authorization')).toBe(`Bearer ${token}`);
    }
    expect(first.asked).toEqual(second.asked);
    expect(first.asked.map(({ operation, callId, attempt }) => [operation, callId, attempt])).toEqual([
      ['SendMessage', 1, 1],
      ['GetTask', 2, 1],
      ['SendStreamingMessage', 3, 1],
    ]);
    expect(first.asked[1]?.taskId).toBe(sent.task.id);
    expect(Object.keys(first.asked[0] ?? {}).sort()).toEqual(contextKeys);
    // Each answer's head, told with its request's context: the stream's before its first event is read.
    expect(first.answers).toEqual(second.answers);
    expect(first.answers.map(({ httpStatus, headers }) => [httpStatus, headers['content-type']])).toEqual([
      [200, expect.stringMatching(/json/)],
      [200, expect.stringMatching(/json/)],
      [200, expect.stringMatching(/^text\/event-stream/)],
    ]);
    expect(first.answers.map(({ httpStatus: _s, headers: _h, ...context }) => context)).toEqual(first.asked);
  });

  it('are asked again for each retry and see the refused answer too', async () => {
    const { asked, answers, interceptor } = recording({ 'x-try': 'yes' });
    const client = connect(binding, {
      interceptors: [interceptor],
      retry: { initialBackoffMs: 0, random: () => 0 },
    });
    const task = await taskOf(connect(binding, {}));
    mock.server.use(
      http.all(`${mock.origin}/*`, () => new HttpResponse(null, { status: 503 }), { once: true }),
    );
    await client.getTask({ id: task.id });
    expect(asked.map(({ attempt }) => attempt)).toEqual([1, 2]);
    expect(answers.map(({ attempt, httpStatus }) => [attempt, httpStatus])).toEqual([
      [1, 503],
      [2, 200],
    ]);
  });

  it('never see the token, the body or the key, whatever they look for', async () => {
    const { asked, answers, interceptor } = recording();
    const client = connect(binding, { interceptors: [interceptor] });
    const keyed = message('task one');
    const key = newIdempotencyKey();
    setKey(keyed, key);
    await client.sendMessage({ message: keyed });
    expect(seen).toHaveLength(1);
    const told = JSON.stringify([asked, answers]);
    expect(told).not.toContain(token);
    expect(told).not.toContain(key);
    expect(told).not.toContain(keyed.messageId);
    expect(told).not.toContain('task one');
    expect(asked.every((context) => Object.isFrozen(context))).toBe(true);
    expect(answers.every((answer) => Object.isFrozen(answer) && Object.isFrozen(answer.headers))).toBe(true);
  });

  it.each([
    ['header-reserved', '$interceptors[1].authorization', { Authorization: 'Bearer stolen' }],
    ['header-reserved', '$interceptors[1].idempotency-key', { 'Idempotency-Key': 'k-0123456789abcdef' }],
    ['header-reserved', '$interceptors[1].content-type', { 'Content-Type': 'text/plain' }],
    ['header-reserved', '$interceptors[1].a2a-version', { 'A2A-Version': '0.3' }],
    ['header-repeated', '$interceptors[1].x-tenant', { 'X-Tenant': 'other' }],
    ['header-value', '$interceptors[1].x-split', { 'x-split': 'a\r\nInjected: yes' }],
    ['header-name', '$interceptors[1][0]', { 'bad name': 'x' }],
    [
      'header-count',
      '$interceptors[1]',
      Object.fromEntries(Array.from({ length: 64 }, (_, index) => [`x-h${index}`, 'v'])),
    ],
  ])('refuse rule %s at %s before anything is sent', async (rule, at, headers) => {
    const client = connect(binding, {
      interceptors: [{ before: () => ({ 'x-tenant': 'acme' }) }, { before: () => headers }],
    });
    const error = await rejectionOf(client.sendMessage({ message: message('task one') }), RequestError);
    expect(error).toMatchObject({
      reason: 'invalid-params',
      dispatched: false,
      violation: { rule, path: at },
    });
    expect(seen).toEqual([]);
  });

  it('refuse the call, nothing sent, when before throws or tries to change its context', async () => {
    const throwing: Interceptor = {
      before: () => {
        throw new Error('no tenant');
      },
    };
    const rewriting: Interceptor = {
      before: (context) => {
        (context as { url: string }).url = 'https://elsewhere.example/a2a';
        return undefined;
      },
    };
    for (const interceptor of [throwing, rewriting]) {
      const client = connect(binding, { interceptors: [{}, interceptor] });
      const error = await rejectionOf(client.getTask({ id: 'task-1' }), RequestError);
      expect(error.violation).toEqual({ rule: 'headers', path: '$interceptors[1]' });
      expect(error.dispatched).toBe(false);
      expect(seen).toEqual([]);
    }
  });

  it('keep the outcome when after throws', async () => {
    const client = connect(binding, {
      interceptors: [
        {
          after: () => {
            throw new Error('observer failed');
          },
        },
      ],
    });
    const sent = await client.sendMessage({ message: message('task one') });
    expect('task' in sent).toBe(true);
    expect(seen).toHaveLength(1);
  });
});

async function taskOf(client: A2aClient) {
  const sent = await client.sendMessage({ message: message('task one') });
  if (!('task' in sent)) {
    throw new Error('expected a task');
  }
  return sent.task;
}

describe('the options resolver', () => {
  it.each([
    ['interceptors', 'malformed', { before: () => undefined }],
    ['interceptors', 'above-ceiling', Array.from({ length: 17 }, () => ({}))],
    ['interceptors.1', 'malformed', [{}, null]],
    ['interceptors.0', 'malformed', ['before']],
    ['interceptors.0.before', 'malformed', [{ before: { 'x-tenant': 'acme' } }]],
    ['interceptors.2.after', 'malformed', [{}, {}, { after: 'log' }]],
  ])('refuses %s (%s) when the client is built', (option, reason, interceptors) => {
    let thrown: unknown;
    try {
      connect('JSONRPC', { interceptors: interceptors as Interceptor[] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OptionsError);
    expect(thrown).toMatchObject({ option, reason });
  });

  it('keeps its own copy: an interceptor changed after the build changes nothing', async () => {
    const calls: string[] = [];
    const interceptor: { before: NonNullable<Interceptor['before']> } = {
      before: () => {
        calls.push('kept');
        return undefined;
      },
    };
    const client = connect('JSONRPC', { interceptors: [interceptor] });
    interceptor.before = () => {
      calls.push('swapped');
      return undefined;
    };
    await client.sendMessage({ message: message('task one') });
    expect(calls).toEqual(['kept']);
  });
});
