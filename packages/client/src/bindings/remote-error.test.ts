import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameOperation, RemoteError, type RemoteText } from '../core/errors.js';
import { resolveLimits } from '../core/limits.js';
import { type A2aErrorEntry, a2aErrors, errorDomain, errorInfoType } from '../protocol/error-codes.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { MediaType } from '../wire/http.js';
import {
  failedAnswer,
  fromJsonRpcError,
  fromRestEnvelope,
  fromRestStreamError,
  remoteText,
  remoteTextLength,
  type Said,
} from './remote-error.js';

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

// ARCHITECTURE.md#errors, `RemoteText`: what a caller gets of the peer's own words.
describe('remoteText', () => {
  const long = (unit: string, count: number) => unit.repeat(count);
  it.each<[string, Said, string | undefined, RemoteText]>([
    [
      'plain text as it is',
      { message: 'Task not found: t-1' },
      undefined,
      { message: 'Task not found: t-1', truncated: false },
    ],
    [
      'line breaks, a tab and a backslash escaped',
      { message: 'a\nb\r\nc\td\\e' },
      undefined,
      { message: 'a\\u{a}b\\u{d}\\u{a}c\\u{9}d\\\\e', truncated: false },
    ],
    [
      'controls, bidi and invisible characters escaped, an emoji kept',
      { message: '\u001b[2J\u0085\u202eevil\u2066\u200b\ufeff\u2028🙂\u{e0041}' },
      undefined,
      {
        message: '\\u{1b}[2J\\u{85}\\u{202e}evil\\u{2066}\\u{200b}\\u{feff}\\u{2028}🙂\\u{e0041}',
        truncated: false,
      },
    ],
    [
      'a lone surrogate escaped',
      { message: 'x\ud800y' },
      undefined,
      { message: 'x\\u{d800}y', truncated: false },
    ],
    [
      'a reflected token masked, everywhere',
      { message: 'bad token tok-1 (tok-1)', details: [{ metadata: { 'tok-1': 'tok-1' } }] },
      'tok-1',
      {
        message: 'bad token [credential] ([credential])',
        details: '[{"metadata":{"[credential]":"[credential]"}}]',
        truncated: false,
      },
    ],
    [
      'a JSON-RPC data object as its details; an empty list is none',
      { message: 'm', data: { why: 'x\ny' }, details: [] },
      undefined,
      { message: 'm', truncated: false },
    ],
    [
      'a JSON-RPC data value',
      { message: 'm', data: { why: 'x' } },
      undefined,
      { message: 'm', details: '{"why":"x"}', truncated: false },
    ],
    [
      'cut at 1024 code units',
      { message: long('a', 1025) },
      undefined,
      { message: long('a', remoteTextLength), truncated: true },
    ],
    [
      'never half a surrogate pair',
      { message: `${long('a', 1023)}🙂b` },
      undefined,
      { message: long('a', 1023), truncated: true },
    ],
    [
      'details of 1 MB cut, the message whole',
      { message: 'm', details: [long('d', 1024 * 1024)] },
      undefined,
      { message: 'm', details: `["${long('d', 1022)}`, truncated: true },
    ],
  ])('%s', (_name, said, credential, expected) => {
    expect(remoteText(said)(credential)).toEqual(expected);
  });

  const unsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
  it('never holds a control, format or lone surrogate code point, nor the credential, and stays bounded', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 3000 }),
        fc.stringMatching(/^tok[0-9]{6,12}$/),
        fc.boolean(),
        (text, token, reflect) => {
          const said = reflect ? `${text}${token}${text.slice(0, 7)}` : text;
          const { message, details } = remoteText({ message: said, details: [said] })(token);
          for (const shown of [message, details ?? '']) {
            expect(unsafe.test(shown)).toBe(false);
            expect(shown).not.toContain(token);
            expect(shown.length).toBeLessThanOrEqual(remoteTextLength * 10);
          }
        },
      ),
    );
  });

  it('reaches a caller only as `remote`, once the call ends, never in the message, stack or JSON', () => {
    const result = fromJsonRpcError(
      { code: -32001, message: `${secret}\n`, data: [info('TASK_NOT_FOUND')] },
      { authoritative: true, httpStatus: 200 },
    );
    const error = result.ok ? result.value : undefined;
    expect(error?.remote).toBeUndefined();
    if (error !== undefined) {
      nameOperation(error, 'GetTask', false, 'tok');
    }
    expect(error?.remote?.message).toBe(`${secret}\\u{a}`);
    expect(`${error?.message} ${error?.stack} ${JSON.stringify(error)}`).not.toContain(secret);
  });
});
