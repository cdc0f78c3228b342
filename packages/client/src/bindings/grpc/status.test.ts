import { describe, expect, it } from 'vitest';
import { nameOperation, RemoteError } from '../../core/errors.js';
import { errorDomain, errorInfoType } from '../../protocol/error-codes.js';
import { grpcTarget } from './binding.js';
import { createGrpcCodec } from './codec.js';
import { type Cancelled, type GrpcEnd, grpcFailure } from './status.js';

const codec = createGrpcCodec();
const trailers = (bytes: Uint8Array) => codec.status(bytes);

/** A `google.rpc.Status` in binary, with one ErrorInfo of `reason` when given. */
function statusBytes(code: number, reason?: string): Uint8Array {
  const details =
    reason === undefined
      ? []
      : [{ '@type': errorInfoType, reason, domain: errorDomain, metadata: { taskId: 't-1' } }];
  return codec.encode('google.rpc.Status', { code, message: 'remote words', details });
}

const fromPeer = (code: number, statusDetails?: Uint8Array): GrpcEnd => ({
  code,
  fromPeer: true,
  ...(statusDetails === undefined ? {} : { statusDetails }),
});

describe('grpcFailure (docs/protocol-checks.md#grpc)', () => {
  it.each<[string, GrpcEnd | null, { established: boolean; why?: Cancelled }, object]>([
    [
      'NOT_FOUND + TASK_NOT_FOUND',
      fromPeer(5, statusBytes(5, 'TASK_NOT_FOUND')),
      { established: false },
      { kind: 'remote', reason: 'TASK_NOT_FOUND', remoteCode: -32001 },
    ],
    [
      'FAILED_PRECONDITION + TASK_NOT_CANCELABLE',
      fromPeer(9, statusBytes(9, 'TASK_NOT_CANCELABLE')),
      { established: false },
      { kind: 'remote', reason: 'TASK_NOT_CANCELABLE', remoteCode: -32002 },
    ],
    [
      'UNIMPLEMENTED + UNSUPPORTED_OPERATION (the v1.0.0 column)',
      fromPeer(12, statusBytes(12, 'UNSUPPORTED_OPERATION')),
      { established: false },
      { kind: 'remote', reason: 'UNSUPPORTED_OPERATION', remoteCode: -32004 },
    ],
    [
      'INTERNAL + TASK_NOT_FOUND: the codes disagree, no remoteCode',
      fromPeer(13, statusBytes(13, 'TASK_NOT_FOUND')),
      { established: false },
      { kind: 'remote', reason: 'TASK_NOT_FOUND', remoteCode: undefined },
    ],
    [
      'a status without details',
      fromPeer(5),
      { established: false },
      { kind: 'remote', reason: 'unidentified', remoteCode: undefined },
    ],
    [
      'details without an A2A ErrorInfo',
      fromPeer(3, statusBytes(3)),
      { established: false },
      { kind: 'remote', reason: 'unidentified' },
    ],
    [
      'details naming another code than the call',
      fromPeer(5, statusBytes(9, 'TASK_NOT_FOUND')),
      { established: false },
      { kind: 'http-protocol', reason: 'error-envelope' },
    ],
    [
      'details that are no google.rpc.Status',
      fromPeer(5, new Uint8Array([0xff, 0xff, 0xff])),
      { established: false },
      { kind: 'http-protocol', reason: 'error-envelope' },
    ],
    [
      'UNAVAILABLE before a stream was established',
      fromPeer(14),
      { established: false },
      { kind: 'transport', reason: 'network' },
    ],
    ['UNAVAILABLE after it', fromPeer(14), { established: true }, { kind: 'transport', reason: 'read' }],
    [
      'an INTERNAL grpc-js made up (a reset stream)',
      { code: 13, fromPeer: false },
      { established: true },
      { kind: 'transport', reason: 'read' },
    ],
    [
      "an INTERNAL the peer sent is the peer's",
      fromPeer(13),
      { established: true },
      { kind: 'remote', reason: 'unidentified' },
    ],
    ['DEADLINE_EXCEEDED', fromPeer(4), { established: false }, { kind: 'transport', reason: 'timeout' }],
    [
      'a RESOURCE_EXHAUSTED of grpc-js (a message over its bound)',
      { code: 8, fromPeer: false },
      { established: true },
      { kind: 'invalid-response', reason: 'body-too-large' },
    ],
    [
      "a RESOURCE_EXHAUSTED the peer sent is the peer's",
      fromPeer(8),
      { established: false },
      { kind: 'remote', reason: 'unidentified' },
    ],
    [
      'our deadline',
      fromPeer(1),
      { established: false, why: 'timeout' },
      { kind: 'transport', reason: 'timeout' },
    ],
    [
      'our idle bound',
      fromPeer(1),
      { established: true, why: 'idle' },
      { kind: 'transport', reason: 'idle' },
    ],
    [
      "the caller's signal",
      fromPeer(1),
      { established: true, why: 'aborted' },
      { kind: 'transport', reason: 'aborted' },
    ],
    [
      'an answer over its bound',
      null,
      { established: false, why: 'too-large' },
      { kind: 'invalid-response', reason: 'body-too-large' },
    ],
    ['no status at all', null, { established: true }, { kind: 'transport', reason: 'read' }],
  ])('%s', (_name, end, context, expected) => {
    const error = grpcFailure(end, { ...context, why: context.why, trailers });
    expect(error).toMatchObject({ ...expected, dispatched: true });
    expect(error).not.toHaveProperty('httpStatus', expect.any(Number));
    // No remote text reaches the error (ARCHITECTURE.md#errors).
    expect(JSON.stringify(error)).not.toContain('remote words');
    expect(error.message).not.toContain('remote words');
  });
});

describe("a gRPC refusal's own words (ARCHITECTURE.md#errors)", () => {
  it('are the status message and its details, masked, as the HTTP bindings keep an error body', () => {
    const bytes = codec.encode('google.rpc.Status', {
      code: 5,
      message: 'no task t-1 for tok',
      details: [{ '@type': errorInfoType, reason: 'TASK_NOT_FOUND', domain: errorDomain }],
    });
    const error = grpcFailure(fromPeer(5, bytes), { established: false, why: undefined, trailers });
    expect(error).toBeInstanceOf(RemoteError);
    nameOperation(error, 'GetTask', false, 'tok');
    expect((error as RemoteError).remote).toEqual({
      message: 'no task t-1 for [credential]',
      details: `[{"@type":"${errorInfoType}","reason":"TASK_NOT_FOUND","domain":"${errorDomain}"}]`,
      truncated: false,
    });
    // Never in the message, nor in what the error prints.
    expect(error.message).not.toContain('no task');
    expect(JSON.stringify(error)).not.toContain('no task');
  });
});

describe('grpcTarget', () => {
  it.each([
    ['http://127.0.0.1:50051', { address: '127.0.0.1:50051', secure: false }],
    ['http://127.0.0.1:50051/', { address: '127.0.0.1:50051', secure: false }],
    ['https://agent.example', { address: 'agent.example:443', secure: true }],
    ['https://agent.example:8443', { address: 'agent.example:8443', secure: true }],
    ['http://[::1]:7000', { address: '[::1]:7000', secure: false }],
  ])('%s', (url, expected) => {
    expect(grpcTarget(url)).toMatchObject(expected);
  });

  it.each([
    'https://agent.example/a2a/grpc',
    'agent.example:443',
    'grpc://agent.example:443',
    'https://user@agent.example',
    'https://agent.example/?q=1',
  ])('refuses %s', (url) => {
    expect(() => grpcTarget(url)).toThrow(
      expect.objectContaining({ kind: 'options', reason: 'inconsistent' }),
    );
  });
});
