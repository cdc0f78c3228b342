import { describe, expect, it } from 'vitest';
import { decode } from './decode.js';
import { a2aErrors, errorDomain, errorInfoType } from './error-codes.js';
import {
  errorByCode,
  errorByReason,
  errorFromDetails,
  JsonRpcError,
  matchesRestIdentity,
  RestErrorEnvelope,
} from './error-envelope.js';

describe('a2aErrors', () => {
  it('is the table of A2A spec §5.4 (v1.0.1) and §9.5, with the v1.0.0 columns where they differed', () => {
    expect(a2aErrors).toMatchInlineSnapshot(`
      {
        "ContentTypeNotSupported": {
          "code": -32005,
          "httpStatus": 400,
          "legacyHttpStatus": 415,
          "reason": "CONTENT_TYPE_NOT_SUPPORTED",
          "status": "INVALID_ARGUMENT",
        },
        "ExtendedAgentCardNotConfigured": {
          "code": -32007,
          "httpStatus": 400,
          "reason": "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
          "status": "FAILED_PRECONDITION",
        },
        "ExtensionSupportRequired": {
          "code": -32008,
          "httpStatus": 400,
          "reason": "EXTENSION_SUPPORT_REQUIRED",
          "status": "FAILED_PRECONDITION",
        },
        "InternalError": {
          "code": -32603,
          "httpStatus": 500,
          "reason": "INTERNAL_ERROR",
          "status": "INTERNAL",
        },
        "InvalidAgentResponse": {
          "code": -32006,
          "httpStatus": 500,
          "legacyHttpStatus": 502,
          "reason": "INVALID_AGENT_RESPONSE",
          "status": "INTERNAL",
        },
        "InvalidParams": {
          "code": -32602,
          "httpStatus": 400,
          "reason": "INVALID_PARAMS",
          "status": "INVALID_ARGUMENT",
        },
        "InvalidRequest": {
          "code": -32600,
          "httpStatus": 400,
          "reason": "INVALID_REQUEST",
          "status": "INVALID_ARGUMENT",
        },
        "MethodNotFound": {
          "code": -32601,
          "httpStatus": 404,
          "reason": "METHOD_NOT_FOUND",
          "status": "NOT_FOUND",
        },
        "ParseError": {
          "code": -32700,
          "httpStatus": 400,
          "reason": "PARSE_ERROR",
          "status": "INVALID_ARGUMENT",
        },
        "PushNotificationNotSupported": {
          "code": -32003,
          "httpStatus": 400,
          "legacyStatus": "UNIMPLEMENTED",
          "reason": "PUSH_NOTIFICATION_NOT_SUPPORTED",
          "status": "FAILED_PRECONDITION",
        },
        "TaskNotCancelable": {
          "code": -32002,
          "httpStatus": 400,
          "legacyHttpStatus": 409,
          "reason": "TASK_NOT_CANCELABLE",
          "status": "FAILED_PRECONDITION",
        },
        "TaskNotFound": {
          "code": -32001,
          "httpStatus": 404,
          "reason": "TASK_NOT_FOUND",
          "status": "NOT_FOUND",
        },
        "UnsupportedOperation": {
          "code": -32004,
          "httpStatus": 400,
          "legacyStatus": "UNIMPLEMENTED",
          "reason": "UNSUPPORTED_OPERATION",
          "status": "FAILED_PRECONDITION",
        },
        "VersionNotSupported": {
          "code": -32009,
          "httpStatus": 400,
          "legacyStatus": "UNIMPLEMENTED",
          "reason": "VERSION_NOT_SUPPORTED",
          "status": "FAILED_PRECONDITION",
        },
      }
    `);
  });

  it('gives every error its own code and reason', () => {
    const values = Object.values(a2aErrors);
    expect(new Set(values.map((entry) => entry.code)).size).toBe(values.length);
    expect(new Set(values.map((entry) => entry.reason)).size).toBe(values.length);
  });

  it('keeps the A2A-specific codes in -32001..-32099 (A2A spec §9.5)', () => {
    for (const entry of Object.values(a2aErrors)) {
      expect(entry.code >= -32099 && entry.code <= -32001).toBe(
        !entry.reason.match(/^(PARSE_ERROR|INVALID_REQUEST|METHOD_NOT_FOUND|INVALID_PARAMS|INTERNAL_ERROR)$/),
      );
    }
  });
});

describe('lookups', () => {
  it.each(Object.entries(a2aErrors))('finds %s by code and by reason', (name, entry) => {
    expect(errorByCode(entry.code)).toEqual({ name, ...entry });
    expect(errorByReason(entry.reason)).toEqual({ name, ...entry });
  });

  it.each([[-32000], [-32099], [0], [404]])('knows no code %i', (code) => {
    expect(errorByCode(code)).toBeUndefined();
  });

  it.each([['task_not_found'], ['TASK_NOT_FOUND_ERROR'], ['toString'], ['']])(
    'knows no reason %j',
    (reason) => {
      expect(errorByReason(reason)).toBeUndefined();
    },
  );
});

describe('matchesRestIdentity', () => {
  it.each([
    ['TaskNotFound', 404, 'NOT_FOUND', true],
    ['TaskNotFound', 400, 'NOT_FOUND', false],
    ['TaskNotCancelable', 400, 'FAILED_PRECONDITION', true],
    ['TaskNotCancelable', 409, 'FAILED_PRECONDITION', true],
    ['TaskNotCancelable', 409, 'INVALID_ARGUMENT', false],
    ['UnsupportedOperation', 400, 'FAILED_PRECONDITION', true],
    ['UnsupportedOperation', 400, 'UNIMPLEMENTED', true],
    ['UnsupportedOperation', 501, 'UNIMPLEMENTED', false],
    ['ContentTypeNotSupported', 415, 'INVALID_ARGUMENT', true],
    ['InvalidAgentResponse', 502, 'INTERNAL', true],
    ['InvalidAgentResponse', 502, 'UNAVAILABLE', false],
    ['InvalidParams', 400, 'INVALID_ARGUMENT', true],
    ['InternalError', 500, 'INTERNAL', true],
    ['InternalError', 503, 'INTERNAL', false],
  ] as const)('%s with %i %s: %s', (name, httpStatus, status, expected) => {
    expect(matchesRestIdentity(a2aErrors[name], httpStatus, status)).toBe(expected);
  });
});

describe('errorFromDetails', () => {
  const info = (reason: string, extra: Record<string, unknown> = {}) => ({
    '@type': errorInfoType,
    reason,
    domain: errorDomain,
    ...extra,
  });

  it.each([
    ['one ErrorInfo', [info('TASK_NOT_FOUND', { metadata: { taskId: 't' } })], 'TaskNotFound'],
    [
      'beside other details',
      [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [] }, info('INVALID_PARAMS')],
      'InvalidParams',
    ],
    [
      'beside an unknown reason',
      [info('SOMETHING_NEW'), info('VERSION_NOT_SUPPORTED')],
      'VersionNotSupported',
    ],
    ['none', [], undefined],
    ['two known reasons (no single error)', [info('TASK_NOT_FOUND'), info('TASK_NOT_CANCELABLE')], undefined],
    ['another domain', [info('TASK_NOT_FOUND', { domain: 'example.com' })], undefined],
    ['another type', [info('TASK_NOT_FOUND', { '@type': 'ErrorInfo' })], undefined],
    ['a non-string reason', [info('TASK_NOT_FOUND', { reason: 1 })], undefined],
    ['non-objects', [null, 'TASK_NOT_FOUND', [info('TASK_NOT_FOUND')]], undefined],
  ])('reads %s', (_name, details, expected) => {
    expect(errorFromDetails(details)?.name).toBe(expected);
  });
});

describe('JsonRpcError', () => {
  // The official server's answers (docs/interop.md#the-official-js-sdk-server).
  it.each([
    [
      {
        code: -32009,
        message: "The requested A2A protocol version '0.3' is not supported.",
        data: [{ '@type': errorInfoType, reason: 'VERSION_NOT_SUPPORTED', domain: errorDomain }],
      },
    ],
    [{ code: -32700, message: 'Invalid JSON payload.' }],
    [{ code: -32001, message: 'Task not found', data: { legacy: 'v0.3 object' } }],
  ])('accepts %j', (error) => {
    expect(decode(JsonRpcError, error)).toEqual({ ok: true, value: error });
  });

  it.each([
    ['a missing code', { message: 'x' }, 'required at $.code'],
    ['a fractional code', { code: -32001.5, message: 'x' }, 'integer at $.code'],
    ['a string code', { code: '-32001', message: 'x' }, 'invalid_type at $.code'],
    ['an empty message', { code: -32001, message: '' }, 'required at $.message'],
    ['a message over 16 KiB', { code: -32001, message: 'a'.repeat(16 * 1024 + 1) }, 'max-bytes at $.message'],
  ])('refuses %s', (_name, error, expected) => {
    const result = decode(JsonRpcError, error);
    expect(result.ok ? undefined : `${result.error.violation.rule} at ${result.error.violation.path}`).toBe(
      expected,
    );
  });
});

describe('RestErrorEnvelope', () => {
  it('reads the official server’s 404 and defaults missing details to []', () => {
    const body = {
      error: {
        code: 404,
        status: 'NOT_FOUND',
        message: 'Task not found: does-not-exist',
        details: [{ '@type': errorInfoType, reason: 'TASK_NOT_FOUND', domain: errorDomain }],
      },
    };
    expect(decode(RestErrorEnvelope, body)).toEqual({ ok: true, value: body });
    expect(decode(RestErrorEnvelope, { error: { code: 500, status: 'INTERNAL', message: 'x' } })).toEqual({
      ok: true,
      value: { error: { code: 500, status: 'INTERNAL', message: 'x', details: [] } },
    });
  });

  it.each([
    ['problem+json', { type: 'about:blank', title: 'Not Found', status: 404 }, 'required at $.error'],
    ['a non-HTTP code', { error: { code: 42, status: 'X', message: 'x' } }, 'range at $.error.code'],
    ['an empty status', { error: { code: 400, status: '', message: 'x' } }, 'required at $.error.status'],
    [
      'a status over 256 bytes',
      { error: { code: 400, status: 'A'.repeat(257), message: 'x' } },
      'max-bytes at $.error.status',
    ],
    [
      'details not a list',
      { error: { code: 400, status: 'X', message: 'x', details: {} } },
      'invalid_type at $.error.details',
    ],
  ])('refuses %s', (_name, body, expected) => {
    const result = decode(RestErrorEnvelope, body);
    expect(result.ok ? undefined : `${result.error.violation.rule} at ${result.error.violation.path}`).toBe(
      expected,
    );
  });
});
