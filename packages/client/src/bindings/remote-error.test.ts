import { describe, expect, it } from 'vitest';
import { RemoteError } from '../core/errors.js';
import { resolveLimits } from '../core/limits.js';
import { type A2aErrorEntry, a2aErrors, errorDomain, errorInfoType } from '../protocol/error-codes.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { MediaType } from '../wire/http.js';
import { failedAnswer, fromJsonRpcError, fromRestEnvelope, fromRestStreamError } from './remote-error.js';

const secret = 'REMOTE-TEXT-7f3a';

function info(reason: string, domain: string = errorDomain): JsonValue {
  return { '@type': errorInfoType, reason, domain };
}

function envelope(code: number, status: string, details: JsonValue[] = []): JsonValue {
  return { error: { code, status, message: secret, details } };
}

function fields(error: RemoteError | undefined) {
  return error === undefined
    ? undefined
    : {
        remoteCode: error.remoteCode,
        reason: error.reason,
        httpStatus: error.httpStatus,
        dispatched: error.dispatched,
      };
}

const entries = Object.values(a2aErrors) as A2aErrorEntry[];

describe('fromRestEnvelope (docs/protocol-checks.md#unary-answers, the REST identity table)', () => {
  it.each(entries)('$reason: the v1.0.1 status pair is authoritative', (entry) => {
    const error = fromRestEnvelope(
      envelope(entry.httpStatus, entry.status, [info(entry.reason)]),
      entry.httpStatus,
    );
    expect(fields(error)).toEqual({
      remoteCode: entry.code,
      reason: entry.reason,
      httpStatus: entry.httpStatus,
      dispatched: true,
    });
  });

  it.each(entries)('$reason: the v1.0.0 status pair is authoritative too', (entry) => {
    const status = entry.legacyHttpStatus ?? entry.httpStatus;
    const error = fromRestEnvelope(
      envelope(status, entry.legacyStatus ?? entry.status, [info(entry.reason)]),
      status,
    );
    expect(error?.remoteCode).toBe(entry.code);
  });

  it.each<[string, number, JsonValue, number | undefined, string]>([
    [
      'NOT_FOUND + TASK_NOT_FOUND',
      404,
      envelope(404, 'NOT_FOUND', [info('TASK_NOT_FOUND')]),
      -32001,
      'TASK_NOT_FOUND',
    ],
    [
      'an inconsistent status string',
      404,
      envelope(404, 'INVALID_ARGUMENT', [info('TASK_NOT_FOUND')]),
      undefined,
      'TASK_NOT_FOUND',
    ],
    [
      'an HTTP status of another error',
      400,
      envelope(400, 'NOT_FOUND', [info('TASK_NOT_FOUND')]),
      undefined,
      'TASK_NOT_FOUND',
    ],
    [
      'a foreign domain',
      404,
      envelope(404, 'NOT_FOUND', [info('TASK_NOT_FOUND', 'example.com')]),
      undefined,
      'unidentified',
    ],
    [
      'a duplicated ErrorInfo',
      404,
      envelope(404, 'NOT_FOUND', [info('TASK_NOT_FOUND'), info('TASK_NOT_FOUND')]),
      undefined,
      'unidentified',
    ],
    [
      'two different ErrorInfos',
      400,
      envelope(400, 'INVALID_ARGUMENT', [info('INVALID_PARAMS'), info('PARSE_ERROR')]),
      undefined,
      'unidentified',
    ],
    [
      'an unknown reason',
      400,
      envelope(400, 'INVALID_ARGUMENT', [info('NOT_A_REASON')]),
      undefined,
      'unidentified',
    ],
    ['no details', 401, envelope(401, 'UNAUTHENTICATED'), undefined, 'unidentified'],
    [
      'details left out',
      500,
      { error: { code: 500, status: 'INTERNAL', message: secret } },
      undefined,
      'unidentified',
    ],
    [
      'a BadRequest beside the ErrorInfo',
      400,
      envelope(400, 'INVALID_ARGUMENT', [
        { '@type': 'type.googleapis.com/google.rpc.BadRequest' },
        info('INVALID_PARAMS'),
      ]),
      -32602,
      'INVALID_PARAMS',
    ],
  ])('%s', (_name, httpStatus, body, remoteCode, reason) => {
    const error = fromRestEnvelope(body, httpStatus);
    expect(fields(error)).toEqual({ remoteCode, reason, httpStatus, dispatched: true });
  });

  it.each<[string, number, JsonValue]>([
    ['a code that is not the HTTP status', 404, envelope(400, 'NOT_FOUND', [info('TASK_NOT_FOUND')])],
    ['an empty message', 404, { error: { code: 404, status: 'NOT_FOUND', message: '', details: [] } }],
    [
      'a message over 16 KiB',
      404,
      { error: { code: 404, status: 'NOT_FOUND', message: 'x'.repeat(16 * 1024 + 1) } },
    ],
    ['an empty status', 404, { error: { code: 404, status: '', message: secret } }],
    ['a status over 256 bytes', 404, { error: { code: 404, status: 'X'.repeat(257), message: secret } }],
    [
      'details that are not an array',
      404,
      { error: { code: 404, status: 'NOT_FOUND', message: secret, details: {} } },
    ],
    ['problem+json', 404, { type: 'about:blank', title: 'Not Found', status: 404, detail: secret }],
    ['a bare error object', 404, { code: 404, message: secret }],
    ['an array', 404, [envelope(404, 'NOT_FOUND')]],
  ])('is no envelope: %s', (_name, httpStatus, body) => {
    expect(fromRestEnvelope(body, httpStatus)).toBeUndefined();
  });

  it('never carries the remote text', () => {
    const error = fromRestEnvelope(envelope(404, 'NOT_FOUND', [info('TASK_NOT_FOUND')]), 404);
    expect(`${error?.message} ${error?.stack} ${JSON.stringify(error)}`).not.toContain(secret);
  });
});

describe('fromJsonRpcError (docs/protocol-checks.md#unary-answers, the JSON-RPC error object)', () => {
  const error = (code: number, data?: JsonValue): JsonValue =>
    data === undefined ? { code, message: secret } : { code, message: secret, data };

  it.each<[string, JsonValue, boolean, number | undefined, string]>([
    [
      'a table code with its ErrorInfo',
      error(-32001, [info('TASK_NOT_FOUND')]),
      true,
      -32001,
      'TASK_NOT_FOUND',
    ],
    ['a table code alone', error(-32602), true, -32602, 'INVALID_PARAMS'],
    [
      'a table code whose ErrorInfo names another error: the code wins',
      error(-32001, [info('INVALID_PARAMS')]),
      true,
      -32001,
      'TASK_NOT_FOUND',
    ],
    [
      'a code outside the table, named by its ErrorInfo',
      error(-32000, [info('UNSUPPORTED_OPERATION')]),
      true,
      -32000,
      'UNSUPPORTED_OPERATION',
    ],
    ['a code outside the table', error(-32050), true, -32050, 'unidentified'],
    ['v0.3 free-form data', error(-32004, { detail: secret }), true, -32004, 'UNSUPPORTED_OPERATION'],
    [
      'no authority: the ErrorInfo still names it',
      error(-32603, [info('INTERNAL_ERROR')]),
      false,
      undefined,
      'INTERNAL_ERROR',
    ],
    ['no authority and no ErrorInfo', error(-32001), false, undefined, 'unidentified'],
  ])('%s', (_name, value, authoritative, remoteCode, reason) => {
    const result = fromJsonRpcError(value, { authoritative, httpStatus: authoritative ? 200 : 500 });
    expect(result.ok).toBe(true);
    expect(fields(result.value)).toEqual({
      remoteCode,
      reason,
      httpStatus: authoritative ? 200 : 500,
      dispatched: true,
    });
  });

  it.each<[string, JsonValue, string, string]>([
    ['an empty message', { code: -32001, message: '' }, 'required', '$.error.message'],
    [
      'a message over 16 KiB',
      { code: -32001, message: 'x'.repeat(16 * 1024 + 1) },
      'max-bytes',
      '$.error.message',
    ],
    ['a fractional code', { code: -32001.5, message: secret }, 'integer', '$.error.code'],
    ['a string code', { code: '-32001', message: secret }, 'invalid_type', '$.error.code'],
    ['no code', { message: secret }, 'required', '$.error.code'],
    ['null', null, 'invalid_type', '$.error'],
  ])('is no error object: %s', (_name, value, rule, path) => {
    const result = fromJsonRpcError(value, { authoritative: true });
    expect(result.ok).toBe(false);
    expect(result.error?.violation).toEqual({ rule, path });
  });
});

describe('fromRestStreamError (docs/protocol-checks.md#stream-events)', () => {
  it.each<[string, JsonValue, number | undefined, string]>([
    [
      'an envelope whose own code, status and ErrorInfo agree',
      envelope(400, 'FAILED_PRECONDITION', [info('UNSUPPORTED_OPERATION')]),
      -32004,
      'UNSUPPORTED_OPERATION',
    ],
    [
      'an envelope that disagrees with itself',
      envelope(404, 'FAILED_PRECONDITION', [info('UNSUPPORTED_OPERATION')]),
      undefined,
      'UNSUPPORTED_OPERATION',
    ],
    ['an envelope with no ErrorInfo', envelope(500, 'INTERNAL'), undefined, 'unidentified'],
    ['a bare A2A code', { code: -32004, message: secret }, -32004, 'UNSUPPORTED_OPERATION'],
    ['a bare HTTP status', { code: 500, message: secret }, undefined, 'unidentified'],
    [
      'a bare unknown code with an ErrorInfo',
      { code: 7, message: secret, data: [info('TASK_NOT_FOUND')] },
      undefined,
      'TASK_NOT_FOUND',
    ],
  ])('%s', (_name, value, remoteCode, reason) => {
    expect(fields(fromRestStreamError(value))).toEqual({
      remoteCode,
      reason,
      httpStatus: undefined,
      dispatched: true,
    });
  });

  it.each<[string, JsonValue]>([
    ['a StreamResponse', { task: { id: 't' } }],
    ['an envelope with an empty message', { error: { code: 500, status: 'INTERNAL', message: '' } }],
    ['a bare error without message', { code: -32004 }],
    ['a string', 'error'],
  ])('is no error: %s', (_name, value) => {
    expect(fromRestStreamError(value)).toBeUndefined();
  });
});

describe('failedAnswer', () => {
  const limits = resolveLimits();
  const answer = (status: number, mediaType: MediaType, body: string) => ({
    status,
    mediaType,
    body: new TextEncoder().encode(body),
  });
  const asRemote = () => new RemoteError({ dispatched: true, httpStatus: 404 });

  it.each<[string, ReturnType<typeof answer>, () => RemoteError | undefined, string]>([
    ['an empty body', answer(503, 'none', ''), asRemote, 'http-protocol:status'],
    ['an empty JSON body', answer(503, 'json', ''), asRemote, 'http-protocol:status'],
    [
      'an HTML page',
      answer(413, 'other', '<html>Payload Too Large</html>'),
      asRemote,
      'http-protocol:error-envelope',
    ],
    ['JSON under another media type', answer(404, 'other', '{}'), asRemote, 'http-protocol:error-envelope'],
    ['malformed JSON', answer(404, 'json', '{"a":1,"a":2}'), asRemote, 'http-protocol:error-envelope'],
    ['JSON that is no envelope', answer(404, 'json', '{}'), () => undefined, 'http-protocol:error-envelope'],
    ['an envelope', answer(404, 'json', '{}'), asRemote, 'remote:unidentified'],
  ])('%s', (_name, response, interpret, expected) => {
    const error = failedAnswer(response, limits, interpret);
    expect(`${error.kind}:${error.reason}`).toBe(expected);
    expect(error).toMatchObject({ dispatched: true, httpStatus: response.status });
  });
});
