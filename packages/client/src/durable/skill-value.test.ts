import type { StandardSchemaV1 } from '@standard-schema/spec';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { A2aClient } from '../client/client.js';
import { OptionsError } from '../core/errors.js';
import type { AgentCard } from '../protocol/agent-card.js';
import type { Part } from '../protocol/message.js';
import { check, inputPart, outputOf, skillMedia } from './skill-value.js';

function clientWith(skill: Partial<AgentCard['skills'][number]>, defaults: string[]): A2aClient {
  const card = {
    defaultInputModes: defaults,
    defaultOutputModes: defaults,
    skills: [{ id: 's', name: 's', description: 'd', tags: [], ...skill }],
  } as unknown as AgentCard;
  return { card } as A2aClient;
}

describe('skillMedia', () => {
  it.each<[string, string[] | undefined, string[], 'data' | 'text' | 'refused']>([
    ['JSON in the skill', ['application/json'], ['text/plain'], 'data'],
    ['JSON with parameters, any case', ['Application/JSON; charset=utf-8'], ['text/plain'], 'data'],
    ['application/*', ['application/*'], ['text/plain'], 'data'],
    ['*/*', ['*/*'], ['text/plain'], 'data'],
    ['text only', ['text/plain'], ['application/json'], 'text'],
    ['text/*', ['text/*'], ['application/json'], 'text'],
    ['JSON wins over text', ['text/plain', 'application/json'], [], 'data'],
    ['the card defaults when the skill has none', undefined, ['text/plain'], 'text'],
    ['problem+json is not JSON', ['application/problem+json'], ['application/json'], 'refused'],
    ['images only', ['image/png'], ['application/json'], 'refused'],
  ])('%s', (_, modes, defaults, expected) => {
    const client = clientWith(modes === undefined ? {} : { inputModes: modes, outputModes: modes }, defaults);
    if (expected === 'refused') {
      expect(() => skillMedia(client, 's')).toThrow(new OptionsError('skill.inputModes', 'not-satisfied'));
      return;
    }
    expect(skillMedia(client, 's')).toMatchObject({ input: expected, output: expected });
  });

  it('refuses a skill the card does not list', () => {
    expect(() => skillMedia(clientWith({}, ['text/plain']), 'other')).toThrow(
      new OptionsError('skill', 'not-in-card'),
    );
  });
});

describe('check', () => {
  it.each<[string, unknown, { ok: boolean; caller?: string[]; peer?: string[] }]>([
    ['a valid value', { a: 1, list: [1] }, { ok: true }],
    ['a wrong member', { a: 'x', list: [1] }, { ok: false, caller: ['$.a'], peer: ['$[*]'] }],
    ['a wrong element', { a: 1, list: [1, 'x'] }, { ok: false, caller: ['$.list[1]'], peer: ['$[*][1]'] }],
    ['no object at all', 'x', { ok: false, caller: ['$'], peer: ['$'] }],
  ])('%s', async (_, value, expected) => {
    const schema = v.object({ a: v.number(), list: v.array(v.number()) });
    for (const origin of ['caller', 'peer'] as const) {
      const result = await check(schema, value, origin);
      expect(result.ok).toBe(expected.ok);
      if (!result.ok) {
        expect(result.issues.map((issue) => issue.path)).toEqual(expected[origin]);
        // Only paths: a validator's message may quote the value.
        expect(JSON.stringify(result.issues)).not.toContain('"x"');
      }
    }
  });

  it('keeps the value the schema outputs (a transform), not the one given', async () => {
    expect(await check(v.pipe(v.string(), v.transform(Number)), '42', 'peer')).toEqual({
      ok: true,
      value: 42,
    });
  });
});

/** A validator that reports one issue at each of the given paths, with a message that must never be kept. */
function issuesAt(...paths: (readonly (PropertyKey | StandardSchemaV1.PathSegment)[])[]): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: () => ({ issues: paths.map((path) => ({ message: 'quotes the value', path })) }),
    },
  };
}

const token = 'sk_live_abc123';

describe('the path of an issue', () => {
  it.each<[string, readonly (PropertyKey | StandardSchemaV1.PathSegment)[], string, string]>([
    ['the value itself', [], '$', '$'],
    ['a member and an index', ['items', 2, 'price'], '$.items[2].price', '$[*][2][*]'],
    ['segments as objects (valibot)', [{ key: 'items' }, { key: 0 }], '$.items[0]', '$[*][0]'],
    ['a token that looks like a member name', [token], `$.${token}`, '$[*]'],
    ['a line break', ['a\nb'], '$[*]', '$[*]'],
    ['a carriage return', ['a\rb'], '$[*]', '$[*]'],
    ['an escape sequence', ['\u001b[31mred'], '$[*]', '$[*]'],
    ['a bidi override', ['a\u202eb'], '$[*]', '$[*]'],
    ['a dot', ['a.b'], '$[*]', '$[*]'],
    ['an index as a key', ['[0]'], '$[*]', '$[*]'],
    ['a digit string', ['0'], '$[*]', '$[*]'],
    ['the empty key', [''], '$[*]', '$[*]'],
    ['__proto__', ['__proto__'], '$.__proto__', '$[*]'],
    ['a key of 64 characters', ['k'.repeat(64)], `$.${'k'.repeat(64)}`, '$[*]'],
    ['a key of 65 characters', ['k'.repeat(65)], '$[*]', '$[*]'],
    ['a key of 10 kB', ['k'.repeat(10_000)], '$[*]', '$[*]'],
    ['a symbol', [Symbol('key')], '$[*]', '$[*]'],
    ['a negative index', [-1], '$[*]', '$[*]'],
    ['a fractional index', [1.5], '$[*]', '$[*]'],
    ['an index beyond 2^53', [2 ** 60], '$[*]', '$[*]'],
  ])('%s', async (_, path, caller, peer) => {
    for (const [origin, expected] of [
      ['caller', caller],
      ['peer', peer],
    ] as const) {
      const result = await check(issuesAt(path), undefined, origin);
      expect(result.issues).toEqual([{ path: expected }]);
    }
  });

  it.each([
    ['zod', z.record(z.string(), z.number())],
    ['valibot', v.record(v.string(), v.number())],
  ])(
    'a %s record keeps no key of an answer, and names none of the caller’s that is not plain',
    async (_, schema) => {
      const value = { [token]: 'x', 'a.b': 'x', '\n': 'x' };
      const peer = await check(schema, value, 'peer');
      expect(peer.issues).toEqual([{ path: '$[*]' }, { path: '$[*]' }, { path: '$[*]' }]);
      const caller = await check(schema, value, 'caller');
      expect(caller.issues).toEqual([{ path: `$.${token}` }, { path: '$[*]' }, { path: '$[*]' }]);
    },
  );

  it('keeps one path at the root when a validator reports no issue at all', async () => {
    expect((await check(issuesAt(), undefined, 'peer')).issues).toEqual([{ path: '$' }]);
  });
});

describe('parts', () => {
  it.each<[string, 'data' | 'text', unknown, Part | undefined]>([
    ['a JSON value as one data part', 'data', { a: 1 }, { data: { a: 1 }, mediaType: 'application/json' }],
    ['null is JSON', 'data', null, { data: null, mediaType: 'application/json' }],
    ['undefined is not', 'data', undefined, undefined],
    ['a string as one text part', 'text', 'hi', { text: 'hi', mediaType: 'text/plain' }],
    ['an empty string is no text part', 'text', '', undefined],
    ['a number is no text', 'text', 3, undefined],
  ])('input: %s', (_, media, value, expected) => {
    expect(inputPart(media, value)).toEqual(expected);
  });

  it.each<[string, 'data' | 'text', Part[], { raw: unknown } | undefined]>([
    ['one data part', 'data', [{ data: { sum: 3 } }], { raw: { sum: 3 } }],
    ['one text part for text', 'text', [{ text: 'hi' }], { raw: 'hi' }],
    ['a text part where data is expected', 'data', [{ text: '{"sum":3}' }], undefined],
    ['two data parts', 'data', [{ data: 1 }, { data: 2 }], undefined],
    ['no part', 'data', [], undefined],
  ])('output: %s', (_, media, parts, expected) => {
    expect(outputOf(media, parts)).toEqual(expected);
  });
});
