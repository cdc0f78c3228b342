/**
@module
A card's descriptions (A2A spec §4.4.5: a skill's `description` may be CommonMark) with their inline code
spans told apart, and nothing else of Markdown: a span between two backtick runs of the same length is code,
shown in a `<code>` element the devtools make; every other character, a lone backtick included, stays text.
Nothing is ever parsed as HTML.
*/

/** One piece of a description: text, or the inside of a code span. */
export type InlinePiece = { readonly code: boolean; readonly text: string };

/**
The pieces of `text`: code spans (CommonMark §6.1: a backtick run, then the same run closes it, one space
stripped from each end when both are spaces) and the text around them.

@example
```ts
inlineCode('Adds `{ "a": 1 }` up'); // [{ code: false, text: 'Adds ' }, { code: true, text: '{ "a": 1 }' }, { code: false, text: ' up' }]
```
*/
export function inlineCode(text: string): InlinePiece[] {
  const pieces: InlinePiece[] = [];
  let plain = '';
  let index = 0;
  while (index < text.length) {
    const run = /^`+/.exec(text.slice(index))?.[0];
    if (run === undefined) {
      plain += text[index];
      index++;
      continue;
    }
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
    close.lastIndex = index + run.length;
    const end = close.exec(text);
    if (end === null) {
      plain += run;
      index += run.length;
      continue;
    }
    let inside = text.slice(index + run.length, end.index);
    if (inside.length > 2 && inside.startsWith(' ') && inside.endsWith(' ') && inside.trim() !== '') {
      inside = inside.slice(1, -1);
    }
    if (plain !== '') {
      pieces.push({ code: false, text: plain });
      plain = '';
    }
    pieces.push({ code: true, text: inside });
    index = end.index + run.length;
  }
  if (plain !== '') {
    pieces.push({ code: false, text: plain });
  }
  return pieces;
}
