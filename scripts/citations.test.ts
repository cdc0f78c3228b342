/**
@module
The repository explains itself (CONTRIBUTING.md#comments-and-citations): every pointer in code, tests and
configs lands inside the repository, on an A2A spec section or on an RFC. This suite fails on a pointer to a
document the repository does not hold, and on an in-repository anchor (`docs/durable-send.md#recovery-modes`)
whose heading does not exist.
*/
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const sourceRoots = ['packages', 'mocks', 'e2e', 'bench', 'scripts'];

/** Tracked and untracked (not ignored) files under the source roots, plus the root configs and docs. */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((path) => path !== '' && existsSync(join(root, path)))
    .filter((path) => /\.(ts|tsx|mts|mjs|js|json|html|css|md|sh)$/.test(path) || path === '.ci/run')
    .filter((path) => !path.endsWith('package-lock.json'));
}

const files = repositoryFiles();
const codeFiles = files.filter(
  (path) => sourceRoots.some((folder) => path.startsWith(`${folder}/`)) || !path.includes('/'),
);

// Spelled in pieces so that this file does not match its own patterns.
const outside = [
  ['digest', ' §'],
  ['DESIGN', '\\.md'],
  ['house', '-style'],
  ['seed 00', '[03]'],
  ['D', '§[0-9]'],
  ['a2a-js-sdk', '\\.md'],
  ['durable', '-client digest'],
  ['idempotency', ' digest'],
  ['ecosystem', ' digest'],
  ['\\.\\./', 'shared'],
].map(([a, b]) => new RegExp(`${a}${b}`, 'i'));

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

const anchorsByDoc = new Map<string, Set<string>>();
function anchorsOf(doc: string): Set<string> | undefined {
  if (!anchorsByDoc.has(doc)) {
    const path = join(root, doc);
    if (!existsSync(path)) {
      return undefined;
    }
    const headings = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => anchorOf(line.replace(/^#+ /, '')));
    anchorsByDoc.set(doc, new Set(headings));
  }
  return anchorsByDoc.get(doc);
}

describe('citations', () => {
  it('point at nothing outside the repository', () => {
    const found: string[] = [];
    for (const path of codeFiles) {
      if (path === 'scripts/citations.test.ts') {
        continue;
      }
      readFileSync(join(root, path), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (outside.some((pattern) => pattern.test(line))) {
            found.push(`${path}:${index + 1}: ${line.trim().slice(0, 120)}`);
          }
        });
    }
    expect(found).toEqual([]);
  });

  it('name in-repository anchors that exist', () => {
    const broken: string[] = [];
    const pointer = /\b((?:docs\/[a-z-]+|ARCHITECTURE|CONTRIBUTING|README)\.md)#([a-z0-9-]+)/g;
    for (const path of files) {
      const text = readFileSync(join(root, path), 'utf8');
      for (const [, doc = '', anchor = ''] of text.matchAll(pointer)) {
        const anchors = anchorsOf(doc);
        if (anchors === undefined || !anchors.has(anchor)) {
          broken.push(`${path}: ${doc}#${anchor}`);
        }
      }
    }
    expect([...new Set(broken)]).toEqual([]);
  });

  it('the README links every design document', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const docs = files.filter((path) => /^docs\/[^/]+\.md$/.test(path));
    for (const doc of ['ARCHITECTURE.md', 'CONTRIBUTING.md', ...docs]) {
      expect(readme, doc).toContain(`(${doc})`);
    }
  });
});
