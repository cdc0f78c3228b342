/**
Helpers for this package's own tests: build A2A requests for `agent.handle` on either binding, and read their
answers. Not part of the public API.
*/
import type { MockAgent } from '../../src/agent/agent.js';
import { randomId } from '../../src/agent/ids.js';
import type { Part, WireStreamResponse, WireTask } from '../../src/agent/wire.js';

/** The origin every test request uses; the card's URLs follow it. */
export const origin = 'http://agent.test';

/** The headers of every A2A request: JSON and protocol 1.0. */
export const a2aHeaders: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  'a2a-version': '1.0',
});

/** A message as a test sends it: the required fields, plus anything a test adds. */
export type TestMessage = {
  readonly messageId: string;
  readonly role: string;
  readonly parts: readonly { readonly text: string }[];
  readonly [field: string]: unknown;
};

/** A user message with a fresh messageId. */
export function userMessage(text: string, extra: Readonly<Record<string, unknown>> = {}): TestMessage {
  return { messageId: randomId(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** A user message whose metadata carries the idempotency key. */
export function keyedMessage(
  text: string,
  key: string,
  extra: Readonly<Record<string, unknown>> = {},
): TestMessage {
  return userMessage(text, { metadata: { 'a2a-rust.com/idempotency-key': key }, ...extra });
}

/** The text of each part that has one. */
export function texts(parts: readonly Part[] | undefined): string[] {
  return (parts ?? []).flatMap((part) => ('text' in part ? [part.text] : []));
}

/** POST one JSON-RPC request, id 7. */
export function rpc(
  agent: MockAgent,
  method: string,
  params: Readonly<Record<string, unknown>> = {},
  headers: Readonly<Record<string, string>> = {},
): Promise<Response> {
  return agent.handle(
    new Request(`${origin}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { ...a2aHeaders, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    }),
  );
}

/** One HTTP+JSON request below `/a2a/rest`. */
export function rest(
  agent: MockAgent,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> } = {},
): Promise<Response> {
  return agent.handle(
    new Request(`${origin}/a2a/rest${path}`, {
      method,
      headers: { ...a2aHeaders, ...options.headers },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    }),
  );
}

/** Every `data` payload of an SSE body, parsed as JSON, read to the end of the stream. */
export async function readSse(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) =>
      JSON.parse(
        block
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice('data: '.length))
          .join('\n'),
      ),
    );
}

/**
Each event's member name, with the state of `task` and `statusUpdate` events: `task:SUBMITTED`,
`artifactUpdate`, …
*/
export function eventKinds(events: readonly WireStreamResponse[]): string[] {
  return events.map((event) => {
    if ('task' in event) {
      return `task:${event.task.status.state.replace('TASK_STATE_', '')}`;
    }
    if ('statusUpdate' in event) {
      return `statusUpdate:${event.statusUpdate.status.state.replace('TASK_STATE_', '')}`;
    }
    return 'message' in event ? 'message' : 'artifactUpdate';
  });
}

/** The first event's task, failing the test when it is not one. */
export function firstTask(events: readonly WireStreamResponse[]): WireTask {
  const [first] = events;
  if (first === undefined || !('task' in first)) {
    throw new Error('the stream did not start with a task');
  }
  return first.task;
}

/** The chunks of a stream's artifact events. */
export function artifactChunks(events: readonly WireStreamResponse[]) {
  return events.flatMap((event) => ('artifactUpdate' in event ? [event.artifactUpdate] : []));
}

/** The answer of one unary call, the same shape for both bindings. */
export type CallResult =
  | {
      readonly ok: true;
      readonly status: number;
      readonly value: unknown;
      readonly response: Response;
      /** The whole answer body, parsed; `null` when empty. */
      readonly body: unknown;
    }
  | {
      readonly ok: false;
      readonly status: number;
      /** The `ErrorInfo.reason` of the error. */
      readonly reason: string;
      /** JSON-RPC `error.code`, or the AIP-193 `error.code` (the HTTP status). */
      readonly code: number;
      readonly message: string;
      readonly response: Response;
      readonly body: unknown;
    };

/** One binding, driven with the operation's fields as JSON-RPC `params`, so one test runs on both. */
export type TestBinding = {
  readonly name: 'JSONRPC' | 'HTTP+JSON';
  /** The raw HTTP exchange of one operation. */
  exchange(
    agent: MockAgent,
    operation: string,
    params?: Readonly<Record<string, unknown>>,
    headers?: Readonly<Record<string, string>>,
  ): Promise<Response>;
  /** One unary operation. */
  call(
    agent: MockAgent,
    operation: string,
    params?: Readonly<Record<string, unknown>>,
    headers?: Readonly<Record<string, string>>,
  ): Promise<CallResult>;
  /** One streaming operation, read to its end: the StreamResponse payloads, unwrapped from JSON-RPC. */
  stream(
    agent: MockAgent,
    operation: string,
    params?: Readonly<Record<string, unknown>>,
    headers?: Readonly<Record<string, string>>,
  ): Promise<WireStreamResponse[]>;
};

type ErrorBody = { readonly code: number; readonly message: string; readonly reason: string };
type Detail = { readonly reason?: string };

async function unary(response: Response, jsonRpc: boolean): Promise<CallResult> {
  const text = await response.text();
  const body: unknown = text === '' ? null : JSON.parse(text);
  const { status } = response;
  let error: ErrorBody | undefined;
  let value: unknown = body;
  if (jsonRpc) {
    const envelope = body as { result?: unknown; error?: { code: number; message: string; data?: Detail[] } };
    value = envelope.result;
    if (envelope.error !== undefined) {
      const { code, message, data = [] } = envelope.error;
      error = { code, message, reason: data[0]?.reason ?? '' };
    }
  } else if (status >= 400) {
    const {
      code,
      message,
      details = [],
    } = (body as { error: { code: number; message: string; details?: Detail[] } }).error;
    error = { code, message, reason: details[0]?.reason ?? '' };
  }
  return error === undefined
    ? { ok: true, status, value, response, body }
    : { ok: false, status, ...error, response, body };
}

const enc = (value: unknown): string => encodeURIComponent(String(value));

function restRequest(
  operation: string,
  params: Readonly<Record<string, unknown>>,
): { method: string; path: string; body?: unknown } {
  const { tenant, ...fields } = params;
  const { id, taskId, ...others } = fields;
  const prefix = typeof tenant === 'string' && tenant !== '' ? `/${enc(tenant)}` : '';
  const query = (): string => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(others)) {
      search.set(name, String(value));
    }
    const text = search.toString();
    return text === '' ? '' : `?${text}`;
  };
  const configs = `${prefix}/tasks/${enc(taskId)}/pushNotificationConfigs`;
  switch (operation) {
    case 'SendMessage':
      return { method: 'POST', path: `${prefix}/message:send`, body: fields };
    case 'SendStreamingMessage':
      return { method: 'POST', path: `${prefix}/message:stream`, body: fields };
    case 'GetTask':
      return { method: 'GET', path: `${prefix}/tasks/${enc(id)}${query()}` };
    case 'ListTasks':
      return { method: 'GET', path: `${prefix}/tasks${query()}` };
    case 'CancelTask':
      return { method: 'POST', path: `${prefix}/tasks/${enc(id)}:cancel`, body: others };
    case 'SubscribeToTask':
      return { method: 'POST', path: `${prefix}/tasks/${enc(id)}:subscribe` };
    case 'CreateTaskPushNotificationConfig':
      return { method: 'POST', path: configs, body: { ...others, ...(id === undefined ? {} : { id }) } };
    case 'GetTaskPushNotificationConfig':
      return { method: 'GET', path: `${configs}/${enc(id)}` };
    case 'ListTaskPushNotificationConfigs':
      return { method: 'GET', path: `${configs}${query()}` };
    case 'DeleteTaskPushNotificationConfig':
      return { method: 'DELETE', path: `${configs}/${enc(id)}` };
    case 'GetExtendedAgentCard':
      return { method: 'GET', path: `${prefix}/extendedAgentCard` };
    default:
      throw new Error(`no HTTP+JSON route for ${operation}`);
  }
}

async function streamed(response: Response, unwrap: boolean): Promise<WireStreamResponse[]> {
  if (response.headers.get('content-type') !== 'text/event-stream') {
    throw new Error(`the answer is not a stream: ${await response.text()}`);
  }
  const events = await readSse(response);
  return events.map((event) =>
    unwrap ? (event as { result: WireStreamResponse }).result : (event as WireStreamResponse),
  );
}

/** The JSON-RPC binding. */
export const jsonRpcBinding: TestBinding = {
  name: 'JSONRPC',
  exchange: (agent, operation, params = {}, headers = {}) => rpc(agent, operation, params, headers),
  call: async (agent, operation, params = {}, headers = {}) =>
    unary(await rpc(agent, operation, params, headers), true),
  stream: async (agent, operation, params = {}, headers = {}) =>
    streamed(await rpc(agent, operation, params, headers), true),
};

/** The HTTP+JSON binding. */
export const restBinding: TestBinding = {
  name: 'HTTP+JSON',
  exchange: (agent, operation, params = {}, headers = {}) => {
    const { method, path, body } = restRequest(operation, params);
    return rest(agent, method, path, { body, headers });
  },
  call: async (agent, operation, params = {}, headers = {}) =>
    unary(await restBinding.exchange(agent, operation, params, headers), false),
  stream: async (agent, operation, params = {}, headers = {}) =>
    streamed(await restBinding.exchange(agent, operation, params, headers), false),
};

/** Both bindings, for `describe.each`. */
export const bindings: readonly TestBinding[] = [jsonRpcBinding, restBinding];

/** The value of a successful call as the type the test expects, failing the test on an error. */
export function resultOf<T>(result: CallResult): T {
  if (!result.ok) {
    throw new Error(`the call failed: ${result.reason} ${result.message}`);
  }
  return result.value as T;
}

/** The task of a SendMessage answer. */
export function taskOf(result: CallResult): WireTask {
  return resultOf<{ task: WireTask }>(result).task;
}
