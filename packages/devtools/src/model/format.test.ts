import { TransportError } from '@surecall/client';
import { describe, expect, it } from 'vitest';
import {
  errorRecord,
  formatBytes,
  formatClock,
  formatDuration,
  formatError,
  formatState,
  shortId,
  stateSlug,
} from './format.js';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [512 * 1024, '512 KiB'],
    [1024 * 1024 - 1, '1024 KiB'],
    [2 * 1024 * 1024, '2 MiB'],
    [64 * 1024 * 1024, '64 MiB'],
  ])('%i bytes read %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('formatDuration', () => {
  it.each([
    [-5, '0 ms'],
    [0.4, '0 ms'],
    [250, '250 ms'],
    [999, '999 ms'],
    [1000, '1 s'],
    [1250, '1.3 s'],
    [59_999, '60 s'],
    [60_000, '1 min'],
    [60_999, '1 min'],
    [125_500, '2 min 5 s'],
  ])('%d ms read %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('formatClock', () => {
  it('writes the UTC time of day to the millisecond', () => {
    expect(formatClock(Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toBe('03:04:05.006');
  });
});

describe('formatState', () => {
  it.each([
    ['TASK_STATE_WORKING', 'working'],
    ['TASK_STATE_INPUT_REQUIRED', 'input required'],
    ['TASK_STATE_AUTH_REQUIRED', 'auth required'],
  ])('%s reads %s', (state, text) => {
    expect(formatState(state)).toBe(text);
    expect(stateSlug(state)).toBe(text.replaceAll(' ', '-'));
  });
});

describe('shortId', () => {
  it('keeps short ids whole and shortens long ones in the middle', () => {
    expect(shortId('task-1')).toBe('task-1');
    expect(shortId('0123456789abc')).toBe('0123456789abc');
    expect(shortId('0b5e7a1c-4f7e-4c1e-9a0e-3c2b1d0e9f8a')).toBe('0b5e7a…0e9f8a');
  });
});

describe('formatError', () => {
  it.each([
    [
      { name: 'TransportError', kind: 'transport', reason: 'network', dispatched: true },
      'TransportError: transport (network); the request may have been applied: outcome unknown',
    ],
    [
      { name: 'CapabilityError', kind: 'capability', reason: 'streaming', dispatched: false },
      'CapabilityError: capability (streaming); nothing was sent',
    ],
    [
      {
        name: 'HttpProtocolError',
        kind: 'http-protocol',
        reason: 'status',
        dispatched: true,
        httpStatus: 503,
      },
      'HttpProtocolError: http-protocol (status); HTTP 503; the request may have been applied: outcome unknown',
    ],
    [
      { name: 'RemoteError', kind: 'remote', reason: 'TaskNotFound', dispatched: true, remoteCode: -32001 },
      'RemoteError: remote (TaskNotFound); code -32001; the request may have been applied: outcome unknown',
    ],
    [
      {
        name: 'InvalidResponseError',
        kind: 'invalid-response',
        reason: 'json',
        dispatched: true,
        violation: { rule: 'duplicate-key', path: '$.result' },
      },
      'InvalidResponseError: invalid-response (json); rule duplicate-key at $.result; the request may have been applied: outcome unknown',
    ],
    [{ name: 'Error', kind: 'unexpected' }, 'Error: unexpected'],
    [{}, 'Error: unexpected'],
  ])('%j reads %j', (error, line) => {
    expect(formatError(error)).toBe(line);
  });
});

describe('errorRecord', () => {
  it('keeps a client error’s public form and nothing of any other error', () => {
    expect(errorRecord(new TransportError('network', { dispatched: true }))).toMatchObject({
      name: 'TransportError',
      kind: 'transport',
      reason: 'network',
      dispatched: true,
    });
    expect(errorRecord(new Error('secret https://x.example/?token=1'))).toEqual({
      name: 'Error',
      kind: 'unexpected',
    });
  });
});
