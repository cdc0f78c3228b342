/**
@module
The one request handler of the mock agent: `createMockHandle` puts the fault lab around the agent and adds the
control routes. The loopback server serves it as it is, and the MSW mount (`handlers.ts`) hands it to MSW, so
every mount answers exactly alike. This module imports nothing from MSW, so the loopback server, its command
and the Playwright fixture run without it.

Control routes (JSON bodies; never faulted):

| route | answer |
|---|---|
| `GET /__faults` | 200 `{ "faults": ActiveFault[] }` |
| `POST /__faults` with a `FaultSpec` | 201 `{ "id": FaultId }`; 400 `{ "error": { "code": "invalid-json" \| "invalid-fault", "field"?, "message" } }` |
| `DELETE /__faults` | 204, every fault cleared |
| `DELETE /__faults/{id}` | 204; 404 `{ "error": { "code": "unknown-fault", … } }` |
| `GET /__executions` | 200 `{ "total": n }` |
| `GET /__executions?messageId=a&messageId=b[&tenant=t]` | 200 `{ "total": n, "byMessageId": { "a": n, "b": n } }` (counted in that tenant, when given) |
| `DELETE /__executions` | 204, counters reset |
*/
import type { MockAgent } from '../agent/agent.js';
import { agentCardPath, jsonRpcPath, restPath } from '../agent/card.js';
import type { Handle } from '../faults/fault-types.js';
import { type FaultId, type FaultLab, safeParseFaultSpec } from '../faults/faults.js';

/** What the handle needs: the agent (its handler and execution counter) and a fault lab. */
export type MockHandleOptions = {
  readonly agent: Pick<MockAgent, 'handle' | 'executions'>;
  readonly faults: FaultLab;
};

/** The control routes' paths: answered by the handle, never faulted. */
export const controlPaths = /^\/__(?:faults(?:\/[^/]+)?|executions)$/;

/** Whether a path is one of the agent's own (its card, either binding). */
export function isAgentPath(path: string): boolean {
  return (
    path === agentCardPath || path === jsonRpcPath || path === restPath || path.startsWith(`${restPath}/`)
  );
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

function problem(status: number, code: string, message: string, field?: string): Response {
  return json(status, { error: { code, message, ...(field === undefined ? {} : { field }) } });
}

function methodNotAllowed(allow: string): Response {
  return problem(405, 'method-not-allowed', `Use ${allow}`, undefined);
}

async function faultsRoute(request: Request, faults: FaultLab, id: string | undefined): Promise<Response> {
  if (id !== undefined) {
    if (request.method !== 'DELETE') {
      return methodNotAllowed('DELETE');
    }
    if (!faults.list().some((fault) => fault.id === id)) {
      return problem(404, 'unknown-fault', 'No armed fault has this id');
    }
    faults.clear(id as FaultId);
    return new Response(null, { status: 204 });
  }
  switch (request.method) {
    case 'GET':
      return json(200, { faults: faults.list() });
    case 'DELETE':
      faults.clear();
      return new Response(null, { status: 204 });
    case 'POST': {
      let body: unknown;
      try {
        body = JSON.parse(await request.text());
      } catch {
        return problem(400, 'invalid-json', 'The body must be one JSON object: a fault spec');
      }
      const result = safeParseFaultSpec(body);
      if (!result.ok) {
        return problem(400, 'invalid-fault', result.error.message, result.error.field);
      }
      return json(201, { id: faults.set(result.value) });
    }
    default:
      return methodNotAllowed('GET, POST, DELETE');
  }
}

function executionsRoute(request: Request, executions: MockAgent['executions']): Response {
  if (request.method === 'DELETE') {
    executions.reset();
    return new Response(null, { status: 204 });
  }
  if (request.method !== 'GET') {
    return methodNotAllowed('GET, DELETE');
  }
  const query = new URL(request.url).searchParams;
  const messageIds = query.getAll('messageId');
  if (messageIds.length === 0) {
    return json(200, { total: executions.total() });
  }
  const tenant = query.get('tenant') ?? undefined;
  const byMessageId = Object.fromEntries(messageIds.map((id) => [id, executions.of(id, tenant)]));
  return json(200, { total: executions.total(), byMessageId });
}

/**
The agent's handler with the fault lab around it and the control routes (`/__faults`, `/__executions`) beside
it. The loopback server and the MSW handlers both serve this.

@example
```ts
const agent = createAgent();
const faults = createFaultLab();
const handle = createMockHandle({ agent, faults });
const response = await handle(new Request('http://127.0.0.1/__faults'));
```
*/
export function createMockHandle({ agent, faults }: MockHandleOptions): Handle {
  const faulted = faults.wrap(agent.handle);
  return async (request) => {
    const path = new URL(request.url).pathname;
    if (!controlPaths.test(path)) {
      return faulted(request);
    }
    if (path === '/__executions') {
      return executionsRoute(request, agent.executions);
    }
    const id = path.startsWith('/__faults/')
      ? decodeURIComponent(path.slice('/__faults/'.length))
      : undefined;
    return faultsRoute(request, faults, id);
  };
}
