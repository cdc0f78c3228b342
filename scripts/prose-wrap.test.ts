/**
@module
The prose wrapper (`prose-wrap.ts`): what it refills, what it keeps, that a second pass changes nothing.
*/
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fill, opensBlock, wordsOf, wrapProse, wrapRepository, wrapSource } from './prose-wrap.js';

describe('fill', () => {
  it.each([
    ['one two three four', 9, ['one two', 'three', 'four']],
    ['a `code span` b', 8, ['a', '`code span`', 'b']],
    ['see {@link decodeSse} now', 12, ['see', '{@link decodeSse}', 'now']],
    ['one of -32700 - and', 10, ['one of', '-32700 -', 'and']],
    ['words go on - item', 12, ['words go', 'on - item']],
    ['names @surecall/x here', 12, ['names @surecall/x', 'here']],
    ['text then 1. more', 10, ['text', 'then 1.', 'more']],
  ])('%j at %d', (text, width, lines) => {
    expect(fill(text, '', '', width)).toEqual(lines);
  });

  it('puts the prefixes before the first and the later lines', () => {
    expect(fill('aa bb cc', '- ', '  ', 7)).toEqual(['- aa bb', '  cc']);
  });
});

describe('wrapProse', () => {
  it('refills a long paragraph and a long list item, keeping each indentation', () => {
    expect(
      wrapProse(['alpha beta gamma delta', '', '- one two three four', '  five', '- six'], '', 12),
    ).toEqual(['alpha beta', 'gamma delta', '', '- one two', '  three four', '  five', '- six']);
  });

  it('keeps fences, tables, headings and paragraphs already inside the width', () => {
    const lines = [
      '# A heading that is long',
      '```ts',
      'const long = "a very long line of code";',
      '```',
      '| a | b |',
      'short',
      'lines',
    ];
    expect(wrapProse(lines, '', 12)).toEqual(lines);
  });

  it('keeps a line indented as code outside a list', () => {
    expect(wrapProse(['text', '    code that runs far past', 'more'], '', 10)).toEqual([
      'text',
      '    code that runs far past',
      'more',
    ]);
  });

  it('gives a JSDoc tag its paragraph, its continuation indented', () => {
    expect(wrapProse(['@param name what the name is for'], '', 16)).toEqual([
      '@param name what',
      '  the name is',
      '  for',
    ]);
  });
});

describe('wrapSource', () => {
  it('refills doc blocks and whole-line comments past the width, nothing else', () => {
    const text = [
      '/** A short one. */',
      '/** A single-line block that runs past the width. */',
      'const a = 1; // a trailing comment that runs far past the width',
      "const b = '// not a comment, a string that runs far past the width';",
      '  // a run of line comments that runs past the width',
      '  // and its second line',
      '// biome-ignore lint/suspicious/noExplicitAny: a directive that is long',
      '',
    ].join('\n');
    expect(wrapSource('example.ts', text, 40).split('\n')).toEqual([
      '/** A short one. */',
      '/**',
      'A single-line block that runs past the',
      'width.',
      '*/',
      'const a = 1; // a trailing comment that runs far past the width',
      "const b = '// not a comment, a string that runs far past the width';",
      '  // a run of line comments that runs',
      '  // past the width and its second line',
      '// biome-ignore lint/suspicious/noExplicitAny: a directive that is long',
      '',
    ]);
  });

  it('keeps the example inside a doc block', () => {
    const text = [
      '/**',
      'Says what it does, at some length here.',
      '',
      '```ts',
      'call(withAVeryLongArgumentName);',
      '```',
      '*/',
      '',
    ];
    expect(wrapSource('example.ts', text.join('\n'), 30).split('\n')).toEqual([
      '/**',
      'Says what it does, at some',
      'length here.',
      '',
      '```ts',
      'call(withAVeryLongArgumentName);',
      '```',
      '*/',
      '',
    ]);
  });
});

describe('a second pass', () => {
  const word = fc.stringMatching(/^[a-z`@#>|\-1.]{1,12}$/);
  const paragraph = fc.array(word, { minLength: 1, maxLength: 40 }).map((words) => words.join(' '));

  it('changes nothing, and only a lone word or words held together pass the width', () => {
    fc.assert(
      fc.property(
        fc.array(paragraph, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 16, max: 60 }),
        (texts, width) => {
          const lines = texts.flatMap((text, index) => (index === 0 ? [`x ${text}`] : ['', `x ${text}`]));
          const once = wrapProse(lines, '', width);
          expect(wrapProse(once, '', width)).toEqual(once);
          for (const line of once) {
            // Past the width: one word, or words held together by one that must not open a line.
            const words = wordsOf(line);
            const carried = words.slice(1).some((entry) => opensBlock.test(entry));
            expect(line.length <= width || words.length === 1 || carried, line).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

// CONTRIBUTING.md rule 17: the repository's own comments and Markdown are already wrapped (`npm run wrap`
// writes them).
describe('the repository', () => {
  it('has every comment and Markdown paragraph wrapped at the width', () => {
    expect(wrapRepository().map(({ path }) => path)).toEqual([]);
  });
});
