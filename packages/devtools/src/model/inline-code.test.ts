import { describe, expect, it } from 'vitest';
import { type InlinePiece, inlineCode } from './inline-code.js';

describe('inlineCode', () => {
  it.each<[string, string, InlinePiece[]]>([
    ['no code', 'Ends in FAILED.', [{ code: false, text: 'Ends in FAILED.' }]],
    [
      'one span',
      'Adds `{ "a": 1 }` in',
      [
        { code: false, text: 'Adds ' },
        { code: true, text: '{ "a": 1 }' },
        { code: false, text: ' in' },
      ],
    ],
    ['a lone backtick stays text', 'a ` b', [{ code: false, text: 'a ` b' }]],
    ['a double run holds a backtick', '``a`b``', [{ code: true, text: 'a`b' }]],
    ['one space stripped from each end', '`` `x` ``', [{ code: true, text: '`x`' }]],
    [
      'HTML stays text',
      '`<b>` <i>',
      [
        { code: true, text: '<b>' },
        { code: false, text: ' <i>' },
      ],
    ],
    ['a run closes only on a run of its length', '`a`` b`', [{ code: true, text: 'a`` b' }]],
  ])('%s', (_, text, pieces) => {
    expect(inlineCode(text)).toEqual(pieces);
  });
});
