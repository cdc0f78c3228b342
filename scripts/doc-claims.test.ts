/**
@module
The counts and lists the repository's own documents state about the code
(CONTRIBUTING.md#docs-that-stay-true), checked against the code: the operations, the error classes and their
kinds, the root entry's values, the ledger stores, the bounds tables, the CLI's exit codes and the folders,
suites, specs and scripts ARCHITECTURE.md's package table names, and that a name the shipped comments borrow
(StateKnot) points at the page that says what it is. A claim the code no longer bears out fails
here, in the same change that made it stale.
*/
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as root from '@surecall/client';
import { operationNames } from '@surecall/client/protocol';
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../packages/cli/src/exit-code.js';
import { limitCeilings } from '../packages/client/src/core/limits.js';
import { notAppliedCodes } from '../packages/client/src/idempotency/retry.js';
import { repositoryRoot, sourceFiles } from './source-facts.js';

const read = (path: string) => readFileSync(join(repositoryRoot, path), 'utf8');
const documents = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'] as const;

const numberWords = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** Every number a text puts before `noun` (`eleven operations`, `29 values`), with where it stands. */
function countsBefore(text: string, noun: string): { readonly count: number; readonly at: string }[] {
  const pattern = new RegExp(`\\b(${numberWords.join('|')}|\\d+)\\s+${noun}\\b`, 'gi');
  return [...text.matchAll(pattern)].map((match) => {
    const word = (match[1] ?? '').toLowerCase();
    const count = /^\d+$/.test(word) ? Number(word) : numberWords.indexOf(word);
    return {
      count,
      at: text.slice(Math.max(0, (match.index ?? 0) - 40), (match.index ?? 0) + match[0].length),
    };
  });
}

/** The body rows of the first Markdown table after `heading`, as trimmed cells. */
function tableAfter(text: string, heading: string): string[][] {
  const start = `\n${text}`.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const table = lines
    .slice(first)
    .filter((_, index, all) => all.slice(0, index + 1).every((l) => l.startsWith('|')));
  return table.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim()),
  );
}

/** The names a cell puts in backticks. */
const quoted = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');

/** The exchange's error classes and their kinds, read from the classes that extend `ExchangeError`. */
function exchangeErrorClasses(): { readonly name: string; readonly kind: string }[] {
  const text = read('packages/client/src/core/errors.ts');
  return [
    ...text.matchAll(/export class (\w+) extends ExchangeError \{[^}]*?readonly kind = '([a-z-]+)'/g),
  ].map((match) => ({ name: match[1] ?? '', kind: match[2] ?? '' }));
}

const KiB = 1024;
const MiB = 1024 * KiB;

/**
A bound as ARCHITECTURE.md's table writes it: times in s or min, sizes in KiB or MiB, counts in spaced
thousands.
*/
function formatBound(name: string, value: number): string {
  if (name.endsWith('Ms')) {
    return value % 60_000 === 0 && value >= 60_000 * 15 ? `${value / 60_000} min` : `${value / 1000} s`;
  }
  if (name.endsWith('Bytes')) {
    return value >= MiB ? `${value / MiB} MiB` : `${value / KiB} KiB`;
  }
  return value < 10_000 ? String(value) : value.toLocaleString('en-US').replaceAll(',', ' ');
}

describe('the documents count what the code holds', () => {
  it('the operations', () => {
    const claims = [...documents, 'mocks/README.md', 'docs/interop.md', 'docs/durable-send.md'].flatMap(
      (path) => countsBefore(read(path), 'operations').map((claim) => ({ path, ...claim })),
    );
    expect(claims.length).toBeGreaterThan(0);
    for (const claim of claims) {
      expect(claim.count, `${claim.path}: ${claim.at}`).toBe(operationNames.length);
    }
  });

  it('the error classes of an exchange, their kinds and names', () => {
    const classes = exchangeErrorClasses();
    expect(classes.map((entry) => entry.name)).toContain('TransportError');
    for (const path of ['README.md', 'CONTRIBUTING.md']) {
      const claims = countsBefore(read(path), 'classes');
      expect(claims.length, path).toBeGreaterThan(0);
      for (const claim of claims) {
        expect(claim.count, `${path}: ${claim.at}`).toBe(classes.length);
      }
    }
    const readme = tableAfter(read('README.md'), '## Errors');
    expect(readme.map(([kind]) => quoted(kind ?? '')[0])).toEqual(classes.map((entry) => entry.kind));
    const architecture = tableAfter(read('ARCHITECTURE.md'), '## Errors');
    expect(architecture.map(([kind, name]) => [quoted(kind ?? '')[0], quoted(name ?? '')[0]])).toEqual(
      classes.map((entry) => [entry.kind, entry.name]),
    );
    for (const { name } of classes) {
      expect(Object.keys(root), name).toContain(name);
    }
  });

  it("the root entry's values, each one named", () => {
    const text = read('ARCHITECTURE.md');
    const paragraph = text.slice(text.indexOf('The root entry `@surecall/client` holds'));
    const sentence = paragraph.slice(0, paragraph.indexOf('. The rest'));
    const [claim] = countsBefore(sentence, 'values');
    expect(claim?.count).toBe(Object.keys(root).length);
    const named = quoted(sentence).filter((name) => name !== '@surecall/client');
    // "the seven error classes of the union" stands for those classes by name.
    const unionClasses = exchangeErrorClasses().map((entry) => entry.name);
    expect([...named, ...unionClasses].sort()).toEqual(Object.keys(root).sort());
  });

  it('the ledger stores', () => {
    // A store is a module a `./ledger…` export of the package points at that opens a ledger of its own: not
    // one that opens another of them (ledger/portable.ts opens the IndexedDB store where no condition names
    // the platform).
    const exports = (JSON.parse(read('packages/client/package.json')) as { exports: Record<string, unknown> })
      .exports;
    const targets = Object.entries(exports)
      .filter(([entry]) => entry.startsWith('./ledger'))
      .flatMap(([, conditions]) => JSON.stringify(conditions).match(/\.\/src\/[^"]+\.ts/g) ?? [])
      .map((target) => `packages/client/${target.slice(2)}`);
    const stores = sourceFiles(['packages/client/src/ledger']).filter(
      (file) =>
        targets.includes(file.path) &&
        file.exports.includes('openLedger') &&
        !file.imports.some((imported) => imported.target !== undefined && targets.includes(imported.target)),
    );
    const claims = countsBefore(read('ARCHITECTURE.md'), 'stores');
    expect(claims.length).toBeGreaterThan(0);
    for (const claim of claims) {
      expect(claim.count, claim.at).toBe(stores.length);
    }
  });

  it('the codes that prove nothing was applied', () => {
    const [claim] = countsBefore(read('docs/durable-send.md'), 'codes');
    expect(claim?.count).toBe(notAppliedCodes.size);
  });
});

describe('the bounds tables', () => {
  it("ARCHITECTURE.md's: every transport bound, its default and its ceiling", () => {
    const rows = tableAfter(read('ARCHITECTURE.md'), '## Bounds');
    const table = rows.map(([bound, fallback, ceiling]) => [quoted(bound ?? '')[0], fallback, ceiling]);
    expect(table).toEqual(
      Object.entries(root.defaultLimits).map(([name, value]) => [
        name,
        formatBound(name, value),
        formatBound(name, limitCeilings[name as keyof typeof limitCeilings]),
      ]),
    );
  });

  it("README.md's: every bound it names, at its default", () => {
    const rows = tableAfter(read('README.md'), '## Bounds');
    const shown = rows.flatMap(([bound, keys, fallback]) => {
      const names = quoted(keys ?? '');
      const values = (fallback ?? '').split(' / ');
      expect(values.length, bound).toBe(names.length);
      return names.map((name, index) => [name, values[index]]);
    });
    expect(shown.map(([name]) => name).sort()).toEqual(Object.keys(root.defaultLimits).sort());
    for (const [name, value] of shown) {
      const bound = root.defaultLimits[name as keyof typeof root.defaultLimits];
      expect(value, name).toBe(formatBound(name ?? '', bound));
    }
  });
});

describe("ARCHITECTURE.md's package table", () => {
  const rows = tableAfter(read('ARCHITECTURE.md'), '## Packages');
  const row = (folder: string) => rows.find(([name]) => name === `\`${folder}\``)?.[2] ?? '';

  it('has a row per workspace, with its package name', () => {
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    for (const folder of workspaces) {
      const name = (JSON.parse(read(`${folder}/package.json`)) as { name: string }).name;
      expect(rows.find(([cell]) => cell === `\`${folder}\``)?.[1], folder).toBe(`\`${name}\``);
    }
  });

  it("gives the CLI's exit codes as the CLI defines them", () => {
    const stated = [...row('packages/cli').matchAll(/\b(\d) ([a-z]+)/g)].map((match) => Number(match[1]));
    expect(stated).toEqual(Object.values(exitCodes));
  });

  it('names every bench suite, e2e spec and script', () => {
    const suites = [...read('bench/index.ts').matchAll(/\{ name: '([a-z]+)'/g)].map((match) => match[1]);
    const listed = /each suite \(([^)]+)\)/.exec(row('bench'))?.[1]?.split(', ');
    expect(listed).toEqual(suites);
    const specs = readdirSync(join(repositoryRoot, 'e2e/tests'))
      .filter((name) => name.endsWith('.e2e.ts'))
      .map((name) => name.replace('.e2e.ts', ''));
    const named = /Playwright specs \(([^)]+)\)/.exec(row('e2e'))?.[1]?.split(', ');
    expect(named?.slice().sort()).toEqual(specs.sort());
    const scripts = readdirSync(join(repositoryRoot, 'scripts'), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    for (const script of scripts) {
      expect(row('scripts'), script).toContain(`\`${script}\``);
    }
  });
});

describe('names the shipped code borrows', () => {
  it('StateKnot: every shipped source file that names it points at where the repository says what it is', () => {
    const naming = sourceFiles()
      .map((file) => file.path)
      .filter((path) => read(path).includes('StateKnot'));
    expect(naming.length).toBeGreaterThan(0);
    for (const path of naming) {
      expect(read(path), path).toContain('docs/durable-send.md#the-stateknot-profile');
    }
    expect(read('docs/durable-send.md')).toContain('\n### The StateKnot profile\n');
  });
});

describe('the readers', () => {
  it('find counts in words and digits, and table rows after a heading', () => {
    expect(
      countsBefore('all eleven operations; 29 values, Seven classes', '(operations|values|classes)'),
    ).toEqual([
      { count: 11, at: 'all eleven operations' },
      { count: 29, at: 'all eleven operations; 29 values' },
      { count: 7, at: 'all eleven operations; 29 values, Seven classes' },
    ]);
    const text = '# A\n\n| a | b |\n| - | - |\n| `x` | 1 |\n| `y` | 2 |\n\nafter\n| c | d |\n';
    expect(tableAfter(text, '# A')).toEqual([
      ['`x`', '1'],
      ['`y`', '2'],
    ]);
    expect(formatBound('requestTimeoutMs', 60_000)).toBe('60 s');
    expect(formatBound('requestTimeoutMs', 900_000)).toBe('15 min');
    expect(formatBound('sseLineBytes', 512 * KiB)).toBe('512 KiB');
    expect(formatBound('jsonValues', 131_072)).toBe('131 072');
  });
});
