import { describe, expect, expectTypeOf, it } from 'vitest';
import { decode } from './decode.js';
import { type AuthenticationInfo, TaskPushNotificationConfig } from './push.js';
import { ListTaskPushNotificationConfigsResponse } from './requests.js';

function rule(schema: Parameters<typeof decode>[0], value: unknown): string | undefined {
  const result = decode(schema, value);
  return result.ok ? undefined : `${result.error.violation.rule} at ${result.error.violation.path}`;
}

// The official server's create answers (docs/interop.md#the-official-js-sdk-server) and the flat v1.0 shape
// of A2A spec §4.3.1.
const created = { id: 'ab3ca95b', taskId: '8a208d65', url: 'http://127.0.0.1:41241/webhook', token: 'tok-1' };

describe('TaskPushNotificationConfig', () => {
  it.each([
    [created],
    [{ url: 'https://hooks.example/a2a' }],
    [{ ...created, tenant: 'acme', authentication: { scheme: 'Bearer', credentials: 'secret' } }],
    [{ ...created, authentication: { scheme: 'Basic' } }],
  ])('accepts %j', (config) => {
    expect(decode(TaskPushNotificationConfig, config)).toEqual({ ok: true, value: config });
  });

  it.each([
    ['a missing url', { taskId: 't' }, 'required at $.url'],
    ['a relative url', { url: '/webhook' }, 'url at $.url'],
    [
      'a token with a line break',
      { ...created, token: 'a\r\nX-Injected: 1' },
      'control-character at $.token',
    ],
    ['a token over 16 KiB', { ...created, token: 'a'.repeat(16 * 1024 + 1) }, 'max-bytes at $.token'],
    [
      'authentication without a scheme',
      { ...created, authentication: { credentials: 'c' } },
      'required at $.authentication.scheme',
    ],
    [
      'a v0.3 nested config only',
      { taskId: 't', pushNotificationConfig: { url: 'https://h.example' } },
      'required at $.url',
    ],
  ])('refuses %s', (_name, config, expected) => {
    expect(rule(TaskPushNotificationConfig, config)).toBe(expected);
  });

  it('keeps a 16 KiB token', () => {
    expect(rule(TaskPushNotificationConfig, { ...created, token: 'a'.repeat(16 * 1024) })).toBeUndefined();
  });

  it('types the flat v1.0 shape', () => {
    // zod's optional members read `T | undefined` (a member may be present as undefined), which TypeScript 7
    // tells apart from `?: T` under exactOptionalPropertyTypes.
    expectTypeOf<TaskPushNotificationConfig>().toEqualTypeOf<{
      tenant?: string | undefined;
      id?: string | undefined;
      taskId?: string | undefined;
      url: string;
      token?: string | undefined;
      authentication?: AuthenticationInfo | undefined;
    }>();
  });
});

describe('ListTaskPushNotificationConfigsResponse', () => {
  it('reads the official server’s list (no real paging: nextPageToken "")', () => {
    const page = { configs: [created], nextPageToken: '' };
    expect(decode(ListTaskPushNotificationConfigsResponse, page)).toEqual({ ok: true, value: page });
  });

  it('reads dropped defaults: no configs, no token', () => {
    expect(decode(ListTaskPushNotificationConfigsResponse, {})).toEqual({
      ok: true,
      value: { configs: [], nextPageToken: '' },
    });
  });

  it('holds the page to 256 configs', () => {
    const configs = (count: number) => Array.from({ length: count }, (_, i) => ({ ...created, id: `c${i}` }));
    expect(rule(ListTaskPushNotificationConfigsResponse, { configs: configs(256) })).toBeUndefined();
    expect(rule(ListTaskPushNotificationConfigsResponse, { configs: configs(257) })).toBe(
      'max-items at $.configs',
    );
  });
});
