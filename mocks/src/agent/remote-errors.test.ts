import { a2aErrors } from '@surecall/client/protocol';
import { describe, expect, it } from 'vitest';
import {
  AgentError,
  type AgentErrorName,
  agentErrors,
  jsonRpcError,
  restError,
  toAgentError,
} from './remote-errors.js';

const shared = Object.keys(a2aErrors) as (keyof typeof a2aErrors)[];

describe('agentErrors', () => {
  it('answers every protocol error with the client’s own table', () => {
    for (const name of shared) {
      expect(agentErrors[name]).toBe(a2aErrors[name]);
    }
  });

  it('adds only the mock’s own Unavailable, Unauthenticated and PermissionDenied', () => {
    const extra = Object.keys(agentErrors).filter((name) => !(shared as string[]).includes(name));
    expect(extra.sort()).toEqual(['PermissionDenied', 'Unauthenticated', 'Unavailable']);
    expect(agentErrors.PermissionDenied).toMatchObject({
      code: -32000,
      httpStatus: 403,
      status: 'PERMISSION_DENIED',
    });
    expect(agentErrors.Unavailable).toMatchObject({ code: -32603, httpStatus: 503, status: 'UNAVAILABLE' });
    expect(agentErrors.Unauthenticated).toMatchObject({
      code: -32000,
      httpStatus: 401,
      status: 'UNAUTHENTICATED',
    });
  });
});

describe('wire forms', () => {
  const notFound = new AgentError('TaskNotFound', 'Task not found: t-1', { taskId: 't-1' });
  const errorInfo = {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'TASK_NOT_FOUND',
    domain: 'a2a-protocol.org',
    metadata: { taskId: 't-1' },
  };

  it('a JSON-RPC error object carries the ErrorInfo in data', () => {
    expect(jsonRpcError(notFound)).toEqual({
      code: -32001,
      message: 'Task not found: t-1',
      data: [errorInfo],
    });
  });

  it('an AIP-193 body carries the HTTP status, the gRPC status and the ErrorInfo', () => {
    expect(restError(notFound)).toEqual({
      error: { code: 404, status: 'NOT_FOUND', message: 'Task not found: t-1', details: [errorInfo] },
    });
  });

  it.each<AgentErrorName>(['InvalidParams', 'VersionNotSupported', 'Unavailable'])(
    '%s without metadata has none',
    (name) => {
      const [detail] = jsonRpcError(new AgentError(name, 'x')).data;
      expect(detail).not.toHaveProperty('metadata');
      expect(detail?.reason).toBe(agentErrors[name].reason);
    },
  );
});

describe('toAgentError', () => {
  it('keeps an AgentError', () => {
    const error = new AgentError('TaskNotCancelable', 'done');
    expect(toAgentError(error)).toBe(error);
  });

  it.each([new Error('secret detail'), 'secret detail', undefined])(
    'turns %j into a fixed InternalError',
    (thrown) => {
      const error = toAgentError(thrown);
      expect(error).toMatchObject({ error: 'InternalError', message: 'Internal error' });
      expect(JSON.stringify(restError(error))).not.toContain('secret');
    },
  );
});
