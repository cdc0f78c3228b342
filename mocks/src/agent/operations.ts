import type { OperationName } from '@surecall/client/protocol';
import type { CallContext, Outcome } from './call.js';
import { buildAgentCard } from './card.js';
import type { ExecutionCounter } from './executions.js';
import type { Params } from './fields.js';
import type { IdempotencyMode, KeyIndex } from './idempotency.js';
import { createLifecycle } from './lifecycle.js';
import { createPush } from './push.js';
import { AgentError } from './remote-errors.js';
import { agentMessage, createScripts } from './scripts.js';
import { createSend } from './send.js';
import type { Serializer } from './serializer.js';
import type { TaskStore } from './store.js';
import type { TaskRecord } from './task-record.js';
import { terminalStates } from './task-states.js';
import { createTaskStreams } from './task-streams.js';
import {
  parseCreatePushConfig,
  parseGetTaskRequest,
  parseListPushConfigs,
  parseListTasksRequest,
  parsePushConfigRef,
  parseTaskRef,
} from './validate.js';

// The headers both bindings check have their own module; the bindings keep importing them from here.
export {
  activatedExtensions,
  checkVersion,
  extensionHeaders,
  isJsonContentType,
  protocolVersion,
} from '../http/headers.js';

/** The operations over one task store, independent of any binding. */
export type Operations = {
  /** Run one operation; A2A errors are thrown as `AgentError`. */
  call(operation: OperationName, params: Params, context: CallContext): Promise<Outcome>;
  /** Stop every timer and webhook delivery, end every open stream, and release every waiting send. */
  close(): void;
};

/** What the operations need from the agent. */
export type OperationsOptions = {
  readonly mode: IdempotencyMode;
  readonly tenantRequired: boolean;
  readonly stepMs: number;
  readonly store: TaskStore;
  readonly keys: KeyIndex;
  readonly executions: ExecutionCounter;
  /** How webhook bodies are printed (the agent's serializer). */
  readonly print: Serializer;
  /** The scope a token must grant to read the extended card (`AgentOptions.extendedCardScope`). */
  readonly extendedCardScope: string | undefined;
  /** The gRPC interface's URL the cards list, read per call (a gRPC mount binds its port after the agent). */
  readonly grpcUrl: () => string | undefined;
};

function bearerToken(authorization: string | null): string | undefined {
  const match = /^bearer +(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/**
The operations of the mock agent. Scripts advance on timers (`stepMs` apart); blocking sends wait on the
task's own events, never on a clock.

@example
```ts
const store = createTaskStore({ now: Date.now });
const operations = createOperations({ mode: 'honouring', tenantRequired: false, stepMs: 0, store,
  keys: createKeyIndex({ ttlMs: 86_400_000, capPerTenant: 100_000, now: Date.now }), executions: createExecutionCounter() });
const outcome = await operations.call('GetTask', { id: 't-1' }, context); // AgentError TaskNotFound
```
*/
export function createOperations(options: OperationsOptions): Operations {
  const { mode, tenantRequired, stepMs, store, keys, executions, print, extendedCardScope, grpcUrl } =
    options;
  const lifecycle = createLifecycle();
  const scripts = createScripts({ store, stepMs, lifecycle });
  const streams = createTaskStreams({ store, lifecycle });
  const push = createPush({ store, lifecycle, print });
  const send = createSend({ mode, store, keys, executions, lifecycle, scripts, streams, push });
  const { stop } = scripts;
  const { liveStream } = streams;
  const { addPushConfig } = push;

  function taskOf(tenant: string, id: string): TaskRecord {
    const record = store.get(tenant, id);
    if (record === undefined) {
      throw new AgentError('TaskNotFound', `Task not found: ${id}`, { taskId: id });
    }
    return record;
  }

  async function dispatch(operation: OperationName, params: Params, context: CallContext): Promise<Outcome> {
    const { tenant } = context;
    const value = (result: unknown): Outcome => ({ kind: 'value', value: result });
    switch (operation) {
      case 'SendMessage':
        return send(params, context, false);
      case 'SendStreamingMessage':
        return send(params, context, true);
      case 'GetTask': {
        const { id, historyLength } = parseGetTaskRequest(params);
        return value(store.view(taskOf(tenant, id), { historyLength, artifacts: 'when-present' }));
      }
      case 'ListTasks':
        return value(store.list(tenant, parseListTasksRequest(params)));
      case 'CancelTask': {
        const record = taskOf(tenant, parseTaskRef(params).id);
        if (terminalStates.has(record.task.status.state)) {
          throw new AgentError('TaskNotCancelable', `Task ${record.task.id} is already in a terminal state`, {
            taskId: record.task.id,
          });
        }
        stop(record);
        store.setStatus(record, 'TASK_STATE_CANCELED', agentMessage(record.task, 'canceled by client'));
        return value(store.view(record, { artifacts: 'when-present' }));
      }
      case 'SubscribeToTask': {
        const record = taskOf(tenant, parseTaskRef(params).id);
        if (terminalStates.has(record.task.status.state)) {
          // A2A spec §3.1.6: subscribing to a terminal task is UnsupportedOperation, not TaskNotFound.
          throw new AgentError('UnsupportedOperation', `Task ${record.task.id} is in a terminal state`, {
            taskId: record.task.id,
          });
        }
        const first = { task: store.view(record, { artifacts: 'when-present' }) };
        return { kind: 'stream', events: liveStream(record, first, context.signal) };
      }
      case 'CreateTaskPushNotificationConfig': {
        const input = parseCreatePushConfig(params);
        return value(structuredClone(addPushConfig(taskOf(tenant, input.taskId), input)));
      }
      case 'GetTaskPushNotificationConfig': {
        const { taskId, id } = parsePushConfigRef(params);
        const config = taskOf(tenant, taskId).pushConfigs.get(id);
        if (config === undefined) {
          // A2A spec §3.1.8: a missing config is reported as TaskNotFound.
          throw new AgentError('TaskNotFound', `Push notification config not found: ${id}`, {
            taskId,
            configId: id,
          });
        }
        return value(structuredClone(config));
      }
      case 'ListTaskPushNotificationConfigs': {
        const query = parseListPushConfigs(params);
        return value(store.listPushConfigs(taskOf(tenant, query.taskId), query));
      }
      case 'DeleteTaskPushNotificationConfig': {
        const { taskId, id } = parsePushConfigRef(params);
        // A2A spec §3.1.10: delete is idempotent, so a config that is already gone is not an error.
        store.deletePushConfig(taskOf(tenant, taskId), id);
        return value({});
      }
      case 'GetExtendedAgentCard': {
        const token = bearerToken(context.authorization);
        if (token === undefined) {
          // A2A spec §13.3: the extended card is served to authenticated callers only.
          throw new AgentError(
            'Unauthenticated',
            'GetExtendedAgentCard needs an Authorization: Bearer token',
          );
        }
        // The mock reads a token as the scopes it grants, joined by `+` (`AgentOptions.extendedCardScope`).
        if (extendedCardScope !== undefined && !token.split('+').includes(extendedCardScope)) {
          throw new AgentError(
            'PermissionDenied',
            `GetExtendedAgentCard needs a token that grants the scope ${extendedCardScope}`,
          );
        }
        return value(buildAgentCard({ origin: context.origin, mode, extended: true, grpcUrl: grpcUrl() }));
      }
    }
  }

  return {
    async call(operation, params, context) {
      if (tenantRequired && context.tenant === '') {
        throw new AgentError(
          'InvalidParams',
          'this agent requires a tenant: a /{tenant} path prefix over HTTP+JSON, params.tenant over JSON-RPC',
        );
      }
      return dispatch(operation, params, context);
    },
    close() {
      lifecycle.close();
      scripts.clear();
    },
  };
}
