import { OptionsError } from '@surecall/client';
import type { OperationName } from '@surecall/client/protocol';
import { handleJsonRpc } from '../http/jsonrpc.js';
import { handleRest } from '../http/rest.js';
import { v03Event } from '../v03/answers.js';
import { v03Card } from '../v03/card.js';
import { handleV03JsonRpc } from '../v03/jsonrpc.js';
import { handleV03Rest } from '../v03/rest.js';
import { agentCardPath, agentCardResponse, buildAgentCard, jsonRpcPath, restPath } from './card.js';
import { createExecutionCounter, type Executions } from './executions.js';
import { createKeyIndex, type IdempotencyMode } from './idempotency.js';
import { type MessageIds, withoutMessageIds } from './message-ids.js';
import { createOperations, type Operations } from './operations.js';
import {
  createSerializer,
  parseSerializerStyles,
  type Serializer,
  type SerializerStyle,
  serializerStyles,
  type WireType,
} from './serializer.js';
import { createTaskStore } from './store.js';
import type { WireStreamResponse } from './wire.js';

export type { Executions } from './executions.js';
export type { IdempotencyMode } from './idempotency.js';
export type { MessageIds } from './message-ids.js';

/** How a mock agent behaves. Every field is optional. */
export type AgentOptions = {
  /**
  How the agent treats idempotency keys: `honouring` claims and replays them, `refusing` rejects keyed sends,
  `foreign` ignores keys. @default 'honouring'
  */
  readonly mode?: IdempotencyMode;
  /**
  Every request must carry a tenant (REST `/{tenant}/…` prefix, JSON-RPC `params.tenant`). @default false
  */
  readonly tenantRequired?: boolean;
  /** Pause between the scripted steps of a task, so streams show progress. @default 25 */
  readonly stepMs?: number;
  /** How long an idempotency key is held; checked when a send claims it. @default 24 h */
  readonly keyTtlMs?: number;
  /**
  Live idempotency keys a tenant may hold; a send with a new key past it is refused (HTTP 503 / -32603) and
  runs nothing. @default 100_000
  */
  readonly keyCapPerTenant?: number;
  /** Clock for timestamps and key TTLs. @default Date.now */
  readonly now?: () => number;
  /**
  How the agent prints its answers: one ProtoJSON style or several combined
  (docs/interop.md#serializer-styles). @default the styles named by the environment variable
  `SURECALL_MOCK_SERIALIZER` in Node (`emit-defaults,proto-names`), else 'omit-defaults'
  */
  readonly serializer?: SerializerStyle | readonly SerializerStyle[];
  /**
  Terminal tasks are forgotten this long after their last status change, so a keyed retry can meet a key that
  outlived its task (it answers TaskNotFound and runs nothing). @default never
  */
  readonly taskTtlMs?: number;
  /**
  `omitted`: the messages of every answer (a direct reply, a task's status message and history, a status
  update's message) leave out `contextId` and `taskId`, which the A2A proto makes optional, as agents not
  built on the official SDKs do (`message-ids.ts`). @default 'set'
  */
  readonly messageIds?: MessageIds;
  /**
  When set, GetExtendedAgentCard answers only a bearer token that grants this scope, and refuses any other
  with PermissionDenied (HTTP 403 over HTTP+JSON): the mock reads a token as the scopes it grants, joined
  by `+`, a token68 character (RFC 9110 §11.2): `read+card.extended`, which a test's token provider mints from
  `TokenContext.scopes`.
  @default any non-empty bearer token reads it
  */
  readonly extendedCardScope?: string;
  /**
  The A2A version the agent speaks. `'0.3'` makes it a v0.3-only agent over the same core (tasks, executions
  and idempotency keys): a v0.3 card at the card path, A2A v0.3's JSON-RPC methods at the JSON-RPC path and
  its HTTP+JSON routes (`/v1/…`) below the HTTP+JSON path (`mocks/src/v03/`), a v1.0 method refused as no
  method (-32601), and no gRPC binding. The fault lab works on it as on v1.0. Neither `serializer` (its styles
  print v1.0 answers; the environment's are not applied) nor `tenantRequired` (v0.3 has no tenant) can be set
  with it. @default '1.0'
  */
  readonly protocol?: '1.0' | '0.3';
};

/** A running mock agent. */
export type MockAgent = {
  /**
  Serves `GET /.well-known/agent-card.json`, JSON-RPC at `/a2a/jsonrpc`, HTTP+JSON at `/a2a/rest` (and
  `/a2a/rest/{tenant}/…`). URLs in the card use the request's origin. Anything else: 404.
  */
  readonly handle: (request: Request) => Promise<Response>;
  /** How many business actions ran: what a test asserts to prove a retry did or did not run again. */
  readonly executions: Executions;
  /** The idempotency mode the agent was created with. */
  readonly mode: IdempotencyMode;
  /** The A2A version the agent speaks (`AgentOptions.protocol`). */
  readonly protocol: '1.0' | '0.3';
  /** Stops every pending timer (slow tasks, scripted steps). */
  close(): void;
};

const hour = 3_600_000;

/**
What a mount that does not speak `Request` and `Response` reads of an agent (the gRPC mount,
`mocks/src/grpc/`): the printed operations the HTTP bindings serve, so tasks, executions and idempotency keys
are one, and where the cards list that mount. Internal: the package never exports it.
*/
export type AgentInternals = {
  readonly operations: Operations;
  readonly mode: IdempotencyMode;
  /** List a GRPC interface at `url` in the agent's cards (`undefined`: none again). */
  serveGrpc(url: string | undefined): void;
};

const internals = new WeakMap<MockAgent, AgentInternals>();

/** The internals of an agent made by {@link createAgent}; throws a `TypeError` for any other object. */
export function agentInternals(agent: MockAgent): AgentInternals {
  const found = internals.get(agent);
  if (found === undefined) {
    throw new TypeError('agent: expected an agent made by createAgent');
  }
  return found;
}

function checkWhole(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value)) {
    throw new OptionsError(name, 'not-a-whole-number');
  }
  if (value < min) {
    throw new OptionsError(name, 'below-minimum');
  }
  return value;
}

/**
A reference A2A v1.0 agent that answers `Request`s with `Response`s, with no network of its own: put it behind
MSW, a loopback `node:http` server or a Playwright route, or call `handle` directly in a unit test.

The first word of a message's first text part picks a behaviour: `echo …` (a direct Message), `task w1 w2 …`
(an artifact streamed one chunk per word), `input` (INPUT_REQUIRED until a follow-up carrying the taskId;
`input N` for N follow-ups), `auth` (AUTH_REQUIRED, then completes by itself), `slow N` (N seconds of
progress, cancelable), `fail`, `reject`, `big N` (one text part of N KiB), `files` (an artifact of a raw and a
url file part); anything else works like `task` with all the words. A part whose `mediaType` is outside the
input modes (the card's defaults, or the named data skill's) is refused with ContentTypeNotSupported before
anything runs.

Tasks are kept per tenant. Push-config webhooks are POSTed only to literal loopback hosts (127.0.0.0/8,
[::1]); any other URL is accepted and stored but never called, so a test cannot make the mock reach the
outside world. GetExtendedAgentCard accepts any non-empty bearer token, or one that grants
`extendedCardScope` when set.

@example
```ts
import { createAgent } from '@surecall/mocks';

const agent = createAgent({ stepMs: 0 });
const response = await agent.handle(
  new Request('http://agent.test/a2a/rest/message:send', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'task a b' }] } }),
  }),
);
const { task } = await response.json(); // task.status.state === 'TASK_STATE_COMPLETED'
agent.executions.of('m-1'); // 1
agent.close();
```
*/
export function createAgent(options: AgentOptions = {}): MockAgent {
  const mode = options.mode ?? 'honouring';
  if (mode !== 'honouring' && mode !== 'refusing' && mode !== 'foreign') {
    throw new OptionsError('mode', 'inconsistent');
  }
  const stepMs = checkWhole('stepMs', options.stepMs ?? 25, 0);
  const ttlMs = checkWhole('keyTtlMs', options.keyTtlMs ?? 24 * hour, 1);
  const capPerTenant = checkWhole('keyCapPerTenant', options.keyCapPerTenant ?? 100_000, 1);
  const taskTtlMs =
    options.taskTtlMs === undefined ? undefined : checkWhole('taskTtlMs', options.taskTtlMs, 1);
  const protocol = options.protocol ?? '1.0';
  if (protocol !== '1.0' && protocol !== '0.3') {
    throw new OptionsError('protocol', 'inconsistent');
  }
  if (protocol === '0.3' && options.tenantRequired === true) {
    throw new OptionsError('tenantRequired', 'inconsistent');
  }
  if (protocol === '0.3' && options.serializer !== undefined) {
    throw new OptionsError('serializer', 'inconsistent');
  }
  // Read Date.now at each call, so fake timers installed after the agent was made still drive it.
  const now = options.now ?? (() => Date.now());
  const counter = createExecutionCounter();
  const print = createSerializer(checkStyles(options.serializer ?? stylesFromEnvironment()));
  const store = createTaskStore({ now, taskTtlMs });
  let grpcUrl: string | undefined;
  const operations = createOperations({
    mode,
    tenantRequired: options.tenantRequired ?? false,
    stepMs,
    store,
    keys: createKeyIndex({ ttlMs, capPerTenant, now }),
    executions: counter,
    // A v0.3 agent's webhooks get the bare v0.3 object, as its streams do.
    print: protocol === '0.3' ? (_type, value) => v03Event(value) : print,
    extendedCardScope: options.extendedCardScope,
    grpcUrl: () => grpcUrl,
  });
  const messageIds = options.messageIds ?? 'set';
  if (messageIds !== 'set' && messageIds !== 'omitted') {
    throw new OptionsError('messageIds', 'inconsistent');
  }
  const write: Serializer =
    messageIds === 'set' ? print : (type, value) => print(type, withoutMessageIds(value));
  const binding = { operations: printing(operations, write), mode };
  const v03 = {
    operations:
      messageIds === 'set' ? operations : printing(operations, (_type, value) => withoutMessageIds(value)),
    mode,
    bindings: ['JSONRPC', 'HTTP+JSON'],
  };

  const agent: MockAgent = {
    async handle(request) {
      const { pathname, origin } = new URL(request.url);
      if (protocol === '0.3') {
        return handleV03(request, { pathname, origin });
      }
      if (pathname === agentCardPath) {
        return agentCardResponse(
          request,
          print('AgentCard', buildAgentCard({ origin, mode, extended: false, grpcUrl })),
        );
      }
      if (pathname === jsonRpcPath) {
        return handleJsonRpc(request, binding);
      }
      if (pathname === restPath || pathname.startsWith(`${restPath}/`)) {
        return handleRest(request, pathname.slice(restPath.length), binding);
      }
      return new Response(null, { status: 404 });
    },
    executions: { total: counter.total, of: counter.of, reset: counter.reset },
    mode,
    protocol,
    close: () => operations.close(),
  };
  function handleV03(request: Request, { pathname, origin }: { pathname: string; origin: string }) {
    if (pathname === agentCardPath) {
      const card = buildAgentCard({ origin, mode, extended: false });
      return agentCardResponse(request, v03Card(card, v03.bindings));
    }
    if (pathname === jsonRpcPath) {
      return handleV03JsonRpc(request, v03);
    }
    return pathname.startsWith(`${restPath}/`)
      ? handleV03Rest(request, pathname.slice(restPath.length), v03)
      : Promise.resolve(new Response(null, { status: 404 }));
  }
  internals.set(agent, {
    ...binding,
    serveGrpc: (url) => {
      grpcUrl = url;
    },
  });
  return agent;
}

// A whole test suite runs against another printer by setting one variable (vite.config.ts does, per style);
// browsers have no environment.
function stylesFromEnvironment(): readonly SerializerStyle[] {
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const text = environment?.['SURECALL_MOCK_SERIALIZER'];
  if (text === undefined || text === '') {
    return [];
  }
  const styles = parseSerializerStyles(text);
  if (styles === undefined) {
    throw new OptionsError('serializer', 'inconsistent');
  }
  return styles;
}

function checkStyles(styles: SerializerStyle | readonly SerializerStyle[]): readonly SerializerStyle[] {
  const list = typeof styles === 'string' ? [styles] : styles;
  if (!list.every((style) => serializerStyles.includes(style))) {
    throw new OptionsError('serializer', 'inconsistent');
  }
  return list;
}

// What each operation answers with, so the printer knows the message it writes.
const responseTypes: Readonly<Record<OperationName, WireType>> = {
  SendMessage: 'SendMessageResponse',
  SendStreamingMessage: 'StreamResponse',
  GetTask: 'Task',
  ListTasks: 'ListTasksResponse',
  CancelTask: 'Task',
  SubscribeToTask: 'StreamResponse',
  CreateTaskPushNotificationConfig: 'TaskPushNotificationConfig',
  GetTaskPushNotificationConfig: 'TaskPushNotificationConfig',
  ListTaskPushNotificationConfigs: 'ListTaskPushNotificationConfigsResponse',
  DeleteTaskPushNotificationConfig: 'Empty',
  GetExtendedAgentCard: 'AgentCard',
};

/** The operations, with every answer and stream event printed in the agent's style. */
function printing(operations: Operations, print: Serializer): Operations {
  return {
    async call(operation, params, context) {
      const outcome = await operations.call(operation, params, context);
      if (outcome.kind === 'value') {
        return { kind: 'value', value: print(responseTypes[operation], outcome.value) };
      }
      const events = outcome.events.pipeThrough(
        new TransformStream<WireStreamResponse, WireStreamResponse>({
          transform(event, controller) {
            controller.enqueue(print('StreamResponse', event) as WireStreamResponse);
          },
        }),
      );
      return { kind: 'stream', events };
    },
    close: () => operations.close(),
  };
}
