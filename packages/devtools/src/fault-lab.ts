/**
@module
The mock agent's control routes, over `fetch` on the agent's origin (`GET/POST/DELETE /__faults`,
`GET/DELETE /__executions`; see mocks/src/http/handlers.ts). The same calls reach the embedded mock in the
page and a loopback one (`npm run mock-agent`, which answers CORS to loopback pages and demands its per-run
token in `x-surecall-mock-token` on these routes; docs/interop.md#loopback-server-security).
*/
import type { ActiveFault, FaultSpec } from '@surecall/mocks';
import { type ExecutionCount, executionsPath, parseExecutions, parseFaultList } from './model/faults.js';

/** A control route failed; the message names the route and the status, never a body. */
export class FaultLabError extends Error {
  override readonly name = 'FaultLabError';
  /** The HTTP status, or `undefined` when nothing answered. */
  readonly status: number | undefined;
  constructor(message: string, status: number | undefined, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
  }
}

/** The control routes of one mock agent. */
export type FaultLabClient = {
  /** The armed faults, oldest first. */
  list(): Promise<ActiveFault[]>;
  /** Arms a fault; its id. A refused spec names the field. */
  arm(spec: FaultSpec): Promise<string>;
  /** Disarms one fault, or every fault without an id. */
  disarm(id?: string): Promise<void>;
  /** The execution counter, with the counts of these message ids. */
  executions(messageIds: readonly string[]): Promise<ExecutionCount>;
  /** Resets the counter. */
  resetExecutions(): Promise<void>;
};

async function call(
  url: string,
  init: RequestInit & { readonly headers?: Record<string, string> },
  route: string,
  token: string | undefined,
): Promise<Response> {
  const headers = token === undefined ? init.headers : { ...init.headers, 'x-surecall-mock-token': token };
  try {
    return await fetch(url, { ...init, ...(headers === undefined ? {} : { headers }), cache: 'no-store' });
  } catch (cause) {
    throw new FaultLabError(`${route}: no answer`, undefined, { cause });
  }
}

async function json(response: Response, route: string): Promise<unknown> {
  try {
    return await response.json();
  } catch (cause) {
    throw new FaultLabError(`${route}: the answer is not JSON`, response.status, { cause });
  }
}

function refused(response: Response, route: string): FaultLabError {
  return new FaultLabError(`${route}: HTTP ${response.status}`, response.status);
}

/**
The control routes of the mock agent at `origin`; `token` is a loopback agent's per-run control token (the
embedded mock needs none). A 401 means the token is missing or not this run's.

@example
```ts
const lab = createFaultLabClient('http://127.0.0.1:4100', tokenFromReadyLine);
await lab.arm({ kind: 'drop-after', operation: 'SendMessage' });
(await lab.executions([])).total;
```
*/
export function createFaultLabClient(origin: string, token?: string): FaultLabClient {
  const url = (path: string): string => new URL(path, origin).href;
  return {
    async list() {
      const route = 'GET /__faults';
      const response = await call(url('/__faults'), {}, route, token);
      if (!response.ok) {
        throw refused(response, route);
      }
      const faults = parseFaultList(await json(response, route));
      if (faults === undefined) {
        throw new FaultLabError(`${route}: not a fault list`, response.status);
      }
      return faults;
    },
    async arm(spec) {
      const route = 'POST /__faults';
      const response = await call(
        url('/__faults'),
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) },
        route,
        token,
      );
      const body = await json(response, route);
      const record =
        typeof body === 'object' && body !== null ? (body as { id?: unknown; error?: unknown }) : {};
      if (response.status === 201 && typeof record.id === 'string') {
        return record.id;
      }
      const error = record.error as { field?: unknown } | undefined;
      const field = typeof error?.field === 'string' ? ` (${error.field.slice(0, 64)})` : '';
      throw new FaultLabError(`${route}: HTTP ${response.status}${field}`, response.status);
    },
    async disarm(id) {
      const route = id === undefined ? 'DELETE /__faults' : 'DELETE /__faults/{id}';
      const path = id === undefined ? '/__faults' : `/__faults/${encodeURIComponent(id)}`;
      const response = await call(url(path), { method: 'DELETE' }, route, token);
      // 404: the fault was spent meanwhile, which is what disarming wanted.
      if (response.status !== 204 && response.status !== 404) {
        throw refused(response, route);
      }
    },
    async executions(messageIds) {
      const route = 'GET /__executions';
      const response = await call(url(executionsPath(messageIds)), {}, route, token);
      if (!response.ok) {
        throw refused(response, route);
      }
      const count = parseExecutions(await json(response, route));
      if (count === undefined) {
        throw new FaultLabError(`${route}: not an execution count`, response.status);
      }
      return count;
    },
    async resetExecutions() {
      const route = 'DELETE /__executions';
      const response = await call(url('/__executions'), { method: 'DELETE' }, route, token);
      if (response.status !== 204) {
        throw refused(response, route);
      }
    },
  };
}
