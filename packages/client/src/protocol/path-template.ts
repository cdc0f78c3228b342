/**
@module
An HTTP+JSON route's path (A2A spec §11.3, §8.3.2): the template of the operation table (`operations.ts`)
filled with the request's values and the interface's tenant. Only the HTTP+JSON binding reads it, so it loads
with that binding (ARCHITECTURE.md#decisions, "Code loads with its first use").
*/
import { RequestError } from '../core/errors.js';

const TEMPLATE_VARIABLE = /\{([A-Za-z]+)\}/g;

/**
Fills an HTTP+JSON path template: each `{name}` becomes one percent-encoded path segment, so a `/`, `:` or `?`
inside an id can never change the route (docs/protocol-checks.md#requests), and the interface's `tenant`, when
it has one, becomes a leading segment (A2A spec §8.3.2). Throws `RequestError('invalid-params')` before
anything is sent when a value is missing or empty, is `.` or `..` (a URL parser would resolve it as a dot
segment, even percent-encoded), or is not well-formed UTF-16.

@example
```ts
expandPath('/tasks/{id}:cancel', { id: 'a/b' }, 'acme'); // '/acme/tasks/a%2Fb:cancel'
```
*/
export function expandPath(
  template: string,
  values: Readonly<Record<string, string | undefined>>,
  tenant?: string,
): string {
  const path = template.replace(TEMPLATE_VARIABLE, (_match, name: string) => segment(name, values[name]));
  return tenant === undefined ? path : `/${segment('tenant', tenant)}${path}`;
}

function segment(name: string, value: string | undefined): string {
  if (value !== undefined && value !== '' && value !== '.' && value !== '..') {
    try {
      return encodeURIComponent(value);
    } catch {
      // A lone surrogate: encodeURIComponent throws URIError; fall through to the refusal below.
    }
  }
  throw new RequestError('invalid-params', { violation: { rule: 'path-segment', path: `$.${name}` } });
}
