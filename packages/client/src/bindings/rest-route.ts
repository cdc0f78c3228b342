/**
@module
Where an HTTP+JSON request's fields go (A2A spec, §11.3–§11.5 and the proto's `google.api.http` rules;
docs/protocol-checks.md#requests): the path variables into their segments, the tenant into the leading
segment, every other field into the JSON body of a POST or the query of a GET or DELETE.
*/
import type { ClientMethod } from '../protocol/operations.js';
import { expandPath } from '../protocol/path-template.js';
import { type HttpMethod, routes } from '../protocol/routes.js';

/** A request's route below the interface URL: method, path with its query, and the JSON body of a POST. */
export type RestRoute = { readonly method: HttpMethod; readonly path: string; readonly body?: string };

/**
The query parameters of each GET and DELETE, in the order they are written (docs/protocol-checks.md#requests).
A field not listed is never sent: the path variables are in the path, and `tenant` is the path prefix.
*/
const queryFields: Readonly<Partial<Record<ClientMethod, readonly string[]>>> = Object.freeze({
  getTask: ['historyLength'],
  listTasks: [
    'contextId',
    'status',
    'pageSize',
    'pageToken',
    'historyLength',
    'statusTimestampAfter',
    'includeArtifacts',
  ],
  listTaskPushNotificationConfigs: ['pageSize', 'pageToken'],
});

/**
`pageSize` is always sent, so that the page an agent returns is checked against the size actually asked for
(docs/protocol-checks.md#requests, ARCHITECTURE.md#bounds).
*/
const defaultPageSize = 50;
const pagedOperations: ReadonlySet<ClientMethod> = new Set(['listTasks', 'listTaskPushNotificationConfigs']);

const templateVariable = /\{([A-Za-z]+)\}/g;

function pathVariables(template: string): readonly string[] {
  return Array.from(template.matchAll(templateVariable), (match) => match[1] ?? '');
}

function stringField(fields: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}

// A2A spec, §11.5: camelCase names, decimal numbers, `true`/`false`, enum names, timestamps as written; RFC
// 3986 percent-encoding.
function queryString(operation: ClientMethod, fields: Readonly<Record<string, unknown>>): string {
  const pairs: string[] = [];
  for (const name of queryFields[operation] ?? []) {
    let value = fields[name];
    if (name === 'pageSize' && value === undefined && pagedOperations.has(operation)) {
      value = defaultPageSize;
    }
    // A2A spec, §3.1.4: `includeArtifacts` defaults to false, so only `true` says anything.
    if (value === undefined || (name === 'includeArtifacts' && value !== true)) {
      continue;
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      pairs.push(`${name}=${encodeURIComponent(String(value))}`);
    }
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/**
The route of an already checked request (one without a `tenant`: see `prepareCall` in client/outbound.ts). The
tenant and the path variables never go into the body or the query: google.api.http binds them to the path, the
official JS SDK server takes the tenant from the path alone, and the reference mock refuses a body that names
another.

@throws RequestError `invalid-params` (not dispatched) when a path variable is missing, empty, `.` or `..`.
@example
```ts
restRoute('cancelTask', { id: 'a/b' }, 'acme'); // { method: 'POST', path: '/acme/tasks/a%2Fb:cancel', body: '{}' }
```
*/
export function restRoute(
  operation: ClientMethod,
  fields: Readonly<Record<string, unknown>>,
  tenant: string | undefined,
): RestRoute {
  const { method, path: template, fields: placement } = routes[operation];
  const variables = pathVariables(template);
  const values = Object.fromEntries(variables.map((name) => [name, stringField(fields, name)]));
  const path = expandPath(template, values, tenant);
  if (placement === 'query') {
    return { method, path: `${path}${queryString(operation, fields)}` };
  }
  if (placement === 'none') {
    return { method, path };
  }
  const inPath = new Set(variables);
  const body = Object.fromEntries(Object.entries(fields).filter(([name]) => !inPath.has(name)));
  return { method, path, body: JSON.stringify(body) };
}
