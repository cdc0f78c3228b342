/**
@module
The request side both bindings share: the interface URL, read once. The request itself arrives already checked
against the outbound contract (`client/outbound.ts`, the one place that decides what may leave).
*/
import { OptionsError } from '../core/errors.js';

/**
The interface URL, parsed once when a binding is built: absolute `http:` or `https:`, with no credentials,
query or fragment (an interface URL is a base that paths are appended to; discovery refuses the rest too).

@throws OptionsError `url` (`inconsistent`).
@example
```ts
interfaceUrl('https://agent.example/a2a/').pathname; // '/a2a/'
```
*/
export function interfaceUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OptionsError('url', 'inconsistent');
  }
  const usable =
    (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.search === '' &&
    parsed.hash === '' &&
    !url.includes('#') &&
    !url.includes('?');
  if (!usable) {
    throw new OptionsError('url', 'inconsistent');
  }
  return parsed;
}
