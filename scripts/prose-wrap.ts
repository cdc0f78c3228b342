/**
@module
`npm run wrap`: wraps the repository's prose at the formatter's width (`biome.json`'s `lineWidth`), which
Biome does not do for comments and does not do for Markdown (CONTRIBUTING.md#comments-and-citations). Doc
blocks and whole-line `//` comments of every TypeScript source (found by Babel's parser, so a `//` inside a
string is never touched) and the paragraphs and list items of every tracked Markdown file are refilled; code
fences, tables, headings, `@` tags' own lines and anything indented as code are kept as they are.
`prose-wrap.test.ts` holds the repository to it. With `--check` it only lists the files it would change.
*/
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@babel/parser';
import { repositoryRoot } from './source-facts.js';

/** The formatter's width: prose is held to the same width as code. */
export const proseWidth: number = (
  JSON.parse(readFileSync(join(repositoryRoot, 'biome.json'), 'utf8')) as { formatter: { lineWidth: number } }
).formatter.lineWidth;

/**
A word that must not open a line: it would read as a list item, a heading, a quote, a table row, HTML, a fence
or a JSDoc tag there (CommonMark lets a list item, a heading or a quote interrupt a paragraph).
*/
export const opensBlock: RegExp = /^([-*+]|#{1,6}|>.*|\|.*|<.*|@.*|\d+[.)]|```.*|~~~.*)$/;

/**
The words of prose: a code span and an inline tag (`{@link X}`) are one word, whatever spaces they hold.
*/
export function wordsOf(text: string): string[] {
  return text.match(/(?:`[^`]*`|\{@[^}]*\}|[^\s`{]|[`{])+/g) ?? [];
}

/** Fills `text`'s words into lines of at most `width`, the first after `first`, the rest after `rest`. */
export function fill(text: string, first: string, rest: string, width: number = proseWidth): string[] {
  const words = wordsOf(text);
  const lines: string[][] = [[]];
  let length = first.length;
  for (const word of words) {
    const line = lines.at(-1) as string[];
    if (line.length > 0 && length + 1 + word.length > width) {
      // A word that must not open the next line carries the words before it along, as many as it takes.
      const carried: string[] = [];
      while (opensBlock.test(carried[0] ?? word) && line.length > 1) {
        carried.unshift(line.pop() as string);
      }
      if (opensBlock.test(carried[0] ?? word)) {
        // No break can put a word that may open a line first: the line runs past the width instead.
        line.push(...carried, word);
        length = (lines.length === 1 ? first : rest).length + line.join(' ').length;
        continue;
      }
      lines.push([...carried, word]);
      length = rest.length + [...carried, word].join(' ').length;
    } else {
      line.push(word);
      length += (line.length > 1 ? 1 : 0) + word.length;
    }
  }
  return lines.map((line, index) => (index === 0 ? first : rest) + line.join(' '));
}

const listItem = /^(\s*)([-*+]|\d+\.) /;
const fence = /^\s*(```|~~~)/;

/** A line that starts a paragraph of its own in prose: a list item or a JSDoc tag. */
function opensParagraph(line: string): boolean {
  return listItem.test(line) || /^\s*@\w/.test(line);
}

/** A line kept exactly as written: a heading, a table row, HTML, a quote, a link definition, a lone tag. */
function keptAsIs(line: string): boolean {
  return (
    /^\s*(#|\||<|>|\[[^\]]+\]:)/.test(line) ||
    /^\s*@(example|module|internal|packageDocumentation)\s*$/.test(line)
  );
}

/**
Refills prose lines (a doc block's inside, a run of `//` comments' text, a Markdown file), each paragraph and
list item at its own indentation. `base` is the indentation of the prose itself; a line indented deeper
outside a list item is code, kept.
*/
export function wrapProse(lines: readonly string[], base: string, width: number = proseWidth): string[] {
  const out: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (fence.test(line)) {
      const close = lines.findIndex((next, at) => at > index && fence.test(next));
      const end = close === -1 ? lines.length : close + 1;
      out.push(...lines.slice(index, end));
      index = end;
      continue;
    }
    const indent = /^\s*/.exec(line)?.[0] ?? '';
    if (line.trim() === '' || keptAsIs(line) || (indent.length > base.length && !opensParagraph(line))) {
      out.push(line);
      index++;
      continue;
    }
    const item = listItem.exec(line);
    const tag = /^(\s*)@\w+ /.exec(line);
    const rest = item ? ' '.repeat(item[0].length) : tag ? `${indent}  ` : indent;
    const paragraph = [line.trim()];
    index++;
    while (index < lines.length) {
      const next = lines[index] ?? '';
      const nextIndent = /^\s*/.exec(next)?.[0] ?? '';
      const continues =
        next.trim() !== '' &&
        !fence.test(next) &&
        !keptAsIs(next) &&
        !opensParagraph(next) &&
        (item || tag
          ? nextIndent.length >= rest.length || nextIndent.length > indent.length
          : nextIndent === indent);
      if (!continues) {
        break;
      }
      paragraph.push(next.trim());
      index++;
    }
    // A paragraph already inside the width keeps its own line breaks.
    const written = lines.slice(index - paragraph.length, index);
    out.push(
      ...(written.every((entry) => entry.length <= width)
        ? written
        : fill(paragraph.join(' '), indent, rest, width)),
    );
  }
  return out;
}

type Comment = {
  type: 'CommentBlock' | 'CommentLine';
  value: string;
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
};

/**
Rewraps one TypeScript source's doc blocks and whole-line comments; returns the text unchanged where none is
long.
*/
export function wrapSource(path: string, text: string, width: number = proseWidth): string {
  const lines = text.split('\n');
  const ast = parse(text, {
    sourceType: 'module',
    plugins: ['typescript', ...(path.endsWith('.tsx') ? (['jsx'] as const) : [])],
  }) as unknown as { comments: Comment[] };
  // Runs of whole-line `//` comments at one indentation, and doc blocks on lines of their own.
  const edits: { start: number; end: number; lines: string[] }[] = [];
  const comments = ast.comments;
  for (let at = 0; at < comments.length; at++) {
    const comment = comments[at] as Comment;
    const startLine = comment.loc.start.line - 1;
    const before = (lines[startLine] ?? '').slice(0, comment.loc.start.column);
    if (before.trim() !== '') {
      continue;
    }
    if (comment.type === 'CommentBlock') {
      const edit = wrapDocBlock(comment, lines, before, width);
      if (edit !== undefined) {
        edits.push(edit);
      }
      continue;
    }
    let last = at;
    while (
      last + 1 < comments.length &&
      (comments[last + 1] as Comment).type === 'CommentLine' &&
      (comments[last + 1] as Comment).loc.start.line === (comments[last] as Comment).loc.start.line + 1 &&
      (comments[last + 1] as Comment).loc.start.column === comment.loc.start.column
    ) {
      last++;
    }
    const run = comments.slice(at, last + 1);
    at = last;
    const edit = wrapLineComments(run, lines, before, width);
    if (edit !== undefined) {
      edits.push(edit);
    }
  }
  for (const edit of edits.reverse()) {
    lines.splice(edit.start, edit.end - edit.start + 1, ...edit.lines);
  }
  return lines.join('\n');
}

const directive = /^\s*(biome-ignore|@ts-|eslint|prettier|#|\/|<reference)/;

function wrapLineComments(
  run: readonly Comment[],
  lines: readonly string[],
  indent: string,
  width: number,
): { start: number; end: number; lines: string[] } | undefined {
  const start = (run[0] as Comment).loc.start.line - 1;
  const end = start + run.length - 1;
  const original = lines.slice(start, end + 1);
  const tooLong = original.some((line) => line.length > width);
  if (!tooLong || run.some((comment) => directive.test(comment.value))) {
    return undefined;
  }
  // The text after `// `, with its own indentation kept, wrapped to what remains of the width.
  const texts = run.map((comment) => comment.value.replace(/^ /, ''));
  const wrapped = wrapProse(texts, '', width - indent.length - 3).map((line) =>
    line === '' ? `${indent}//` : `${indent}// ${line}`,
  );
  return { start, end, lines: wrapped };
}

function wrapDocBlock(
  comment: Comment,
  lines: readonly string[],
  indent: string,
  width: number,
): { start: number; end: number; lines: string[] } | undefined {
  if (!comment.value.startsWith('*')) {
    return undefined;
  }
  const start = comment.loc.start.line - 1;
  const end = comment.loc.end.line - 1;
  const after = (lines[end] ?? '').slice(comment.loc.end.column);
  if (after.trim() !== '' || lines.slice(start, end + 1).every((line) => line.length <= width)) {
    return undefined;
  }
  const inner = comment.value.slice(1);
  if (start === end) {
    // `/** text */` past the width becomes a block of its own lines.
    return {
      start,
      end,
      lines: [`${indent}/**`, ...wrapProse([`${indent}${inner.trim()}`], indent, width), `${indent}*/`],
    };
  }
  const body = inner.split('\n');
  const first = body[0]?.trim() ?? '';
  const last = body.at(-1)?.trim() ?? '';
  const content = [
    ...(first === '' ? [] : [`${indent}${first}`]),
    ...body.slice(1, -1),
    ...(last === '' ? [] : [`${indent}${last}`]),
  ];
  // A block written with ` * ` gutters is left alone: the repository's blocks have none.
  if (content.some((line) => /^\s*\*( |$)/.test(line))) {
    return undefined;
  }
  return { start, end, lines: [`${indent}/**`, ...wrapProse(content, indent, width), `${indent}*/`] };
}

/** Tracked and new source and Markdown files. */
export function proseFiles(): { readonly sources: string[]; readonly markdown: string[] } {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((path) => path !== '' && !path.includes('node_modules/'));
  return {
    sources: listed.filter((path) => /\.(ts|tsx|mts)$/.test(path) && !path.endsWith('.d.ts')),
    markdown: listed.filter((path) => path.endsWith('.md')),
  };
}

/** The whole repository's prose, wrapped: the paths whose text changes, each with its new text. */
export function wrapRepository(): { readonly path: string; readonly text: string }[] {
  const { sources, markdown } = proseFiles();
  const changed: { path: string; text: string }[] = [];
  for (const path of [...sources, ...markdown]) {
    const text = readFileSync(join(repositoryRoot, path), 'utf8');
    const wrapped = path.endsWith('.md')
      ? wrapProse(text.split('\n'), '').join('\n')
      : wrapSource(path, text);
    if (wrapped !== text) {
      changed.push({ path, text: wrapped });
    }
  }
  return changed;
}

if (import.meta.filename === process.argv[1]) {
  const changed = wrapRepository();
  if (process.argv.includes('--check')) {
    for (const { path } of changed) {
      process.stdout.write(`${path}\n`);
    }
    process.exitCode = changed.length === 0 ? 0 : 1;
  } else {
    for (const { path, text } of changed) {
      writeFileSync(join(repositoryRoot, path), text);
    }
    process.stdout.write(`wrapped ${changed.length} files at ${proseWidth} columns\n`);
  }
}
