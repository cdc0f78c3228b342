/**
The fault lab over gRPC (`test/client-faults.test.ts` runs it over the HTTP bindings): each fault armed on the
mock agent's gRPC mount (`@surecall/mocks/grpc`, the table of mocks/src/grpc/faults.ts) and the closed error
the client must report (docs/protocol-checks.md#grpc), every one after dispatch. The kinds only HTTP or JSON
text can carry let the answer through, so the call succeeds and the fault is still spent. No MSW listens here:
its interception of Node's sockets keeps an HTTP/2 connection from opening.
*/
import type { FaultKind, FaultSpec } from '@surecall/mocks';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { grpcBinding } from '../src/bindings/grpc/entry.js';
import { type A2aClient, createClient } from '../src/client/client.js';
import { type ExchangeError, isClientError } from '../src/core/errors.js';
import { cardDigest } from '../src/discovery/digest.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import { servedCard } from './support/card.js';
import { collect, userMessage } from './support/eleven-operations.js';

let mock: RunningMockAgent;
let client: A2aClient;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, grpcPort: 0, stepMs: 0 });
  const raw = await servedCard(mock.cardUrl);
  client = createClient({
    card: parseAgentCard(raw),
    cardDigest: await cardDigest(raw),
    grpc: grpcBinding,
    pin: { binding: 'GRPC', url: mock.grpcUrl ?? '' },
    security: { kind: 'anonymous' },
  });
});

afterEach(() => mock.faults.clear());

afterAll(() => mock.close());

type Call = 'send' | 'stream' | 'get' | 'get-missing';

async function run(call: Call): Promise<unknown> {
  switch (call) {
    case 'send':
      return client.sendMessage({ message: userMessage('task a') });
    case 'stream':
      // Resumption off: the validator's verdict is the subject here (test/stream-resumption.test.ts).
      return collect(client.sendStreamingMessage({ message: userMessage('task a b') }, { resume: false }));
    case 'get':
    case 'get-missing': {
      const sent = await client.sendMessage({ message: userMessage('task a') });
      const id = call === 'get' && 'task' in sent ? sent.task.id : 'no-such-task';
      return client.getTask({ id });
    }
  }
}

async function failure(call: Call): Promise<ExchangeError> {
  try {
    await run(call);
  } catch (error) {
    if (isClientError(error) && 'dispatched' in error) {
      return error as ExchangeError;
    }
    throw error;
  }
  throw new Error('expected the call to fail');
}

const operationOf = {
  send: 'SendMessage',
  stream: 'SendStreamingMessage',
  get: 'GetTask',
  'get-missing': 'GetTask',
} as const;

// Each fault that changes a gRPC answer, the call it is armed on, and the client's `kind reason`.
const changed: readonly (readonly [FaultKind, Call, Partial<FaultSpec>, string])[] = [
  // A reset before any answer: no stream was established (docs/protocol-checks.md#grpc, `grpc.broken`).
  ['drop-before', 'send', {}, 'transport network'],
  ['drop-after', 'send', {}, 'transport network'],
  // UNAVAILABLE, and an INTERNAL whose trailers hold nothing but the status, are read as a failed connection.
  ['status-after', 'send', {}, 'transport network'],
  ['status-after', 'send', { status: 500 }, 'transport network'],
  ['blocking-submitted', 'send', {}, 'invalid-response lifecycle'],
  ['different-task-id', 'get', {}, 'invalid-response identity'],
  ['different-task-id', 'stream', { frame: 1 }, 'invalid-response identity'],
  ['premature-eof', 'stream', {}, 'invalid-response lifecycle'],
  ['cut-stream', 'stream', { afterFrames: 1 }, 'transport read'],
  ['bad-status-details', 'get-missing', { details: 'malformed' }, 'http-protocol error-envelope'],
  ['bad-status-details', 'get-missing', { details: 'other-code' }, 'http-protocol error-envelope'],
  ['bad-status-details', 'get-missing', { details: 'foreign-reason' }, 'remote TASK_NOT_CANCELABLE'],
];

// The kinds only HTTP or JSON text can carry: over gRPC the answer passes.
const passing: readonly (readonly [FaultKind, Call])[] = [
  ['premature-eof', 'send'],
  ['duplicate-keys', 'send'],
  ['wrong-jsonrpc-id', 'send'],
  ['result-and-error', 'send'],
  ['two-union-members', 'send'],
  ['wrong-media-type', 'send'],
  ['html-413', 'send'],
  ['redirect', 'send'],
  ['oversized-sse-line', 'stream'],
  ['two-union-members', 'stream'],
  ['bad-status-details', 'send'],
];

describe('the fault lab over GRPC', () => {
  it.each(changed)('%s on %s %o gives %s, dispatched', async (kind, call, extra, expected) => {
    mock.faults.set({ kind, operation: operationOf[call], ...extra } as FaultSpec);
    const error = await failure(call);
    expect(`${error.kind} ${error.reason}`).toBe(expected);
    expect(error.dispatched).toBe(true);
    expect(mock.faults.list()).toHaveLength(0);
  });

  it.each(passing)('%s on %s lets the answer through, and is spent', async (kind, call) => {
    mock.faults.set({ kind, operation: operationOf[call] } as FaultSpec);
    await expect(run(call)).resolves.toBeDefined();
    expect(mock.faults.list()).toHaveLength(0);
  });
});
