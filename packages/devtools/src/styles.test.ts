import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The panel's stylesheet is embedded in host pages: every rule must sit under the panel's root class, so no
// host element or class (`.error`, `.panel`, `table`) is ever restyled (README.md, "Embed it").
function topLevelSelectors(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const selectors: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '{') {
      if (depth === 0) {
        selectors.push(text.slice(start, index).trim());
      }
      depth++;
    } else if (char === '}') {
      depth--;
      if (depth === 0) {
        start = index + 1;
      }
    } else if (char === ';' && depth === 0) {
      selectors.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  expect(depth).toBe(0);
  expect(text.slice(start).trim()).toBe('');
  return selectors;
}

describe('the panel stylesheet', () => {
  it('nests every rule under .surecall-devtools', () => {
    const css = readFileSync(new URL('./styles.css', import.meta.url), 'utf8');
    expect(topLevelSelectors(css)).toEqual(['.surecall-devtools']);
  });

  it('is told apart from a stylesheet with a global rule', () => {
    expect(topLevelSelectors('.surecall-devtools { & .a { color: red } }\n.error { color: red }')).toEqual([
      '.surecall-devtools',
      '.error',
    ]);
    expect(topLevelSelectors('@media (width < 1px) { .x { color: red } }')).toEqual(['@media (width < 1px)']);
  });
});
