import { describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  CapabilityError,
  HttpProtocolError,
  InvalidResponseError,
  LedgerError,
  RemoteError,
  RequestError,
  TransportError,
} from '../core/errors.js';
import { notAppliedCodes } from '../idempotency/retry.js';
import type { LedgerRecord, LedgerState } from '../ledger/ledger.js';
import { classifyProbeFailure, classifySendFailure, durableOutcome, statusOf } from './outcome.js';

const remote = (remoteCode?: number) =>
  new RemoteError({ dispatched: true, httpStatus: 200, ...(remoteCode === undefined ? {} : { remoteCode }) });

describe('classifySendFailure (docs/durable-send.md#classifying-a-failure)', () => {
  it.each<[string, unknown, string]>([
    ['a request the client refused', new RequestError('invalid-params'), 'not-started'],
    ['a cancellation before dispatch', new RequestError('aborted'), 'not-started'],
    ['an unavailable token provider', new AuthorizationError('unavailable'), 'not-started'],
    ['a denied token', new AuthorizationError('permission-denied'), 'not-started'],
    ['a capability the card lacks', new CapabilityError('push-notifications'), 'not-started'],
    [
      'a connection refused before dispatch',
      new TransportError('network', { dispatched: false }),
      'not-started',
    ],
    ['ParseError −32700', remote(-32700), 'not-applied'],
    ['InvalidRequest −32600', remote(-32600), 'not-applied'],
    ['InvalidParams −32602', remote(-32602), 'not-applied'],
    ['MethodNotFound −32601', remote(-32601), 'not-applied'],
    ['UnsupportedOperation −32004', remote(-32004), 'not-applied'],
    ['ContentTypeNotSupported −32005', remote(-32005), 'not-applied'],
    ['ExtensionSupportRequired −32008', remote(-32008), 'not-applied'],
    ['VersionNotSupported −32009', remote(-32009), 'not-applied'],
    ['TaskNotFound −32001', remote(-32001), 'unknown'],
    ['InternalError −32603', remote(-32603), 'unknown'],
    ['InvalidAgentResponse −32006', remote(-32006), 'unknown'],
    ['a remote error without an authoritative code', remote(), 'unknown'],
    ['a lost answer', new TransportError('network', { dispatched: true }), 'unknown'],
    ['a timeout after dispatch', new TransportError('timeout', { dispatched: true }), 'unknown'],
    ['a cancellation after dispatch', new TransportError('aborted', { dispatched: true }), 'unknown'],
    [
      'a 503 that is not A2A',
      new HttpProtocolError('error-envelope', { dispatched: true, httpStatus: 503 }),
      'unknown',
    ],
    ['a redirect', new HttpProtocolError('redirect', { dispatched: true, httpStatus: 302 }), 'unknown'],
    [
      'an answer that breaks the protocol',
      new InvalidResponseError('schema', { dispatched: true }),
      'unknown',
    ],
    ['something that is not a client error', new TypeError('boom'), 'unknown'],
  ])('%s → %s', (_name, error, outcome) => {
    const failure = classifySendFailure(error);
    expect(failure.outcome).toBe(outcome);
  });

  it('keeps only the public-safe summary of a client error as the cause, and none for anything else', () => {
    expect(classifySendFailure(remote(-32602))).toEqual({
      outcome: 'not-applied',
      cause: {
        name: 'RemoteError',
        kind: 'remote',
        reason: 'unidentified',
        dispatched: true,
        httpStatus: 200,
        remoteCode: -32602,
      },
    });
    expect(classifySendFailure(new Error('secret remote text'))).toEqual({ outcome: 'unknown' });
  });

  it('names exactly the eight pre-application codes', () => {
    expect([...notAppliedCodes].sort()).toEqual(
      [-32700, -32602, -32601, -32600, -32009, -32008, -32005, -32004].sort(),
    );
  });
});

describe('classifyProbeFailure (docs/durable-send.md#probe-failures)', () => {
  it.each<[string, unknown, string, string]>([
    [
      'a lost page',
      new TransportError('network', { dispatched: true }),
      'transient-error',
      'dependency-unavailable',
    ],
    [
      'a timeout',
      new TransportError('timeout', { dispatched: true }),
      'transient-error',
      'dependency-unavailable',
    ],
    [
      'an unavailable token provider',
      new AuthorizationError('unavailable'),
      'transient-error',
      'dependency-unavailable',
    ],
    ['a remote error without a code', remote(), 'transient-error', 'remote-unavailable'],
    ['InternalError', remote(-32603), 'transient-error', 'remote-unavailable'],
    [
      'TaskNotFound (a key that outlived its task, or a race)',
      remote(-32001),
      'transient-error',
      'remote-unavailable',
    ],
    ['a denied token', new AuthorizationError('permission-denied'), 'refused', 'permission-denied'],
    [
      'no credentials for the operation',
      new AuthorizationError('unauthenticated'),
      'refused',
      'operation-unsupported',
    ],
    ['InvalidParams (a key held by another message)', remote(-32602), 'refused', 'operation-rejected'],
    ['UnsupportedOperation', remote(-32004), 'refused', 'operation-rejected'],
    ['a request the client refused', new RequestError('body-too-large'), 'refused', 'operation-unsupported'],
    ['a capability the card lacks', new CapabilityError('streaming'), 'refused', 'operation-unsupported'],
    [
      'an answer that is not A2A',
      new HttpProtocolError('media-type', { dispatched: true, httpStatus: 200 }),
      'conflict',
      'invalid-response',
    ],
    [
      'a page that breaks the protocol',
      new InvalidResponseError('page', { dispatched: true }),
      'conflict',
      'invalid-response',
    ],
  ])('%s → %s (%s)', (_name, error, result, rule) => {
    expect(classifyProbeFailure(error)).toMatchObject({
      result,
      rule,
      cause: { kind: (error as { kind: string }).kind },
    });
  });

  it('is undefined for what is not a client error: a fault of this process is never evidence', () => {
    expect(classifyProbeFailure(new TypeError('bug'))).toBeUndefined();
    expect(classifyProbeFailure(new LedgerError('io'))).toBeUndefined();
  });
});

function recordIn(state: LedgerState): LedgerRecord {
  return {
    id: 'send-1',
    tenant: 't',
    run: 'r',
    agent: { cardDigest: `sha256:${'c'.repeat(64)}`, binding: 'JSONRPC', url: 'https://agent.test/a2a' },
    message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] },
    delivery: 'at-most-once',
    state,
    attempts: [],
    revision: 0,
    digest: `sha256:${'0'.repeat(64)}`,
    createdAt: 0,
    updatedAt: 0,
  };
}

const cause = { name: 'TransportError', kind: 'transport', reason: 'network', dispatched: true };

describe('statusOf', () => {
  it.each<[LedgerState, string]>([
    [{ status: 'prepared' }, 'in-flight'],
    [{ status: 'executing', attemptId: 'a', messageId: 'm' }, 'in-flight'],
    [{ status: 'committed', attemptId: 'a', result: { kind: 'message' } }, 'committed'],
    [{ status: 'failed', attemptId: 'a', cause, effect: 'not-applied' }, 'failed'],
    [{ status: 'unknown', attemptId: 'a', reason: 'ambiguous-outcome' }, 'unknown'],
    [{ status: 'unknown', attemptId: 'a', reason: 'crashed-while-executing' }, 'unknown'],
    [
      {
        status: 'unknown',
        attemptId: 'a',
        reason: 'ambiguous-outcome',
        pending: { notBefore: 5, probes: 1 },
      },
      'pending',
    ],
    [
      { status: 'unknown', attemptId: 'a', reason: 'no-evidence', pending: { notBefore: 5, probes: 3 } },
      'unresolved',
    ],
    [{ status: 'unknown', attemptId: 'a', reason: 'conflicting-evidence' }, 'unresolved'],
  ])('%j → %s', (state, status) => {
    expect(statusOf(recordIn(state))).toBe(status);
    expect(durableOutcome(recordIn(state))).toEqual({ status, id: 'send-1', record: recordIn(state) });
  });
});
