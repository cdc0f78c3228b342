import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { A2aClient } from '../client.js';
import { OptionsError } from '../core/errors.js';
import type { AgentCard, Part } from '../protocol/index.js';
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
  it.each<[string, unknown, { ok: boolean; paths?: string[] }]>([
    ['a valid value', { a: 1, list: [1] }, { ok: true }],
    ['a wrong member', { a: 'x', list: [1] }, { ok: false, paths: ['$.a'] }],
    ['a wrong element', { a: 1, list: [1, 'x'] }, { ok: false, paths: ['$.list[1]'] }],
    ['no object at all', 'x', { ok: false, paths: ['$'] }],
  ])('%s', async (_, value, expected) => {
    const result = await check(v.object({ a: v.number(), list: v.array(v.number()) }), value);
    expect(result.ok).toBe(expected.ok);
    if (!result.ok) {
      expect(result.issues.map((issue) => issue.path)).toEqual(expected.paths);
      // Only paths: a validator's message may quote the value.
      expect(JSON.stringify(result.issues)).not.toContain('"x"');
    }
  });

  it('keeps the value the schema outputs (a transform), not the one given', async () => {
    expect(await check(v.pipe(v.string(), v.transform(Number)), '42')).toEqual({ ok: true, value: 42 });
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
