import { describe, expect, it } from 'vitest';
import { RequestError } from '../core/errors.js';
import { dataPart, fileUrlPart, textPart, userMessage } from './builders.js';

describe('message and part builders', () => {
  it('build the plain wire values', () => {
    expect(textPart('hi')).toEqual({ text: 'hi' });
    expect(dataPart({ k: [1, null] }, { mediaType: 'application/json' })).toEqual({
      data: { k: [1, null] },
      mediaType: 'application/json',
    });
    expect(fileUrlPart('https://files.example/a.pdf', { filename: 'a.pdf' })).toEqual({
      url: 'https://files.example/a.pdf',
      filename: 'a.pdf',
    });
    const message = userMessage('hello', { contextId: 'ctx-1', messageId: 'm-1' });
    expect(message).toEqual({
      messageId: 'm-1',
      role: 'ROLE_USER',
      parts: [{ text: 'hello' }],
      contextId: 'ctx-1',
    });
  });

  it('give each message a fresh id unless one is given', () => {
    const a = userMessage([textPart('a')]);
    const b = userMessage(textPart('a'));
    expect(a.messageId).not.toBe(b.messageId);
    expect(a.parts).toEqual(b.parts);
  });

  it('refuse what a send would refuse, naming the field', () => {
    const refused = (build: () => unknown) => {
      try {
        build();
      } catch (error) {
        expect(error).toBeInstanceOf(RequestError);
        return (error as RequestError).violation;
      }
      throw new Error('not refused');
    };
    expect(refused(() => userMessage([]))?.path).toBe('message.parts');
    expect(refused(() => fileUrlPart(''))?.path).toMatch(/^part\.url/);
    expect(refused(() => userMessage([{ text: 'a' }, { url: '' }]))?.path).toBe('message.parts[1].url');
    expect(refused(() => userMessage('a', { messageId: '' }))?.path).toBe('message.messageId');
  });
});
