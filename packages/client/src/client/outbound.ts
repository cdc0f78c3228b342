import type { OperationSchemas } from '../bindings/result.js';
import { AuthorizationError, CapabilityError, RequestError } from '../core/errors.js';
import type { AgentCard } from '../protocol/agent-card.js';
import { decode } from '../protocol/decode.js';
import { methods } from '../protocol/methods.js';
import type { ClientMethod, OperationRequest } from '../protocol/operations.js';
import type { ResolvedSecurity } from './security.js';
import type { skillCallScopes } from './skill-scopes.js';

/**
The parameters of an operation as a caller writes them: its request without `tenant`, which only the pinned
interface sets (docs/protocol-checks.md#requests: contract types refuse an inbound tenant override).

@example
```ts
const params: OperationParams<'getTask'> = { id: 'task-1', historyLength: 10 };
```
*/
export type OperationParams<N extends ClientMethod> = Omit<OperationRequest<N>, 'tenant'>;

/** What {@link prepareCall} needs: the client's card and security, the operation and the caller's input. */
export type PrepareInput = {
  readonly card: AgentCard;
  readonly security: ResolvedSecurity;
  readonly operation: ClientMethod;
  readonly params: unknown;
  /**
  The `skill` the call names (`CallOptions.skill`), with the rule that picks its scopes (`skill-scopes.ts`),
  which the caller loads with the first such call; `undefined` for the card's scopes.
  */
  readonly skill: { readonly id: unknown; readonly scopesOf: typeof skillCallScopes } | undefined;
  /**
  The operation's request schema, from `schemasOf(operation)` (`bindings/result.ts`): SendMessage's is on the
  path, the others load with their first call.
  */
  readonly schema: OperationSchemas[ClientMethod]['request'];
};

/** A request that may be sent, and what the token provider learns about it. */
export type PreparedCall = {
  /** The decoded request: unknown members dropped, enums by name, no `tenant`. */
  readonly request: object;
  /** The task the request targets, if any (docs/protocol-checks.md#token-provider). */
  readonly taskId: string | undefined;
  /** The token's scopes: the skill's when it declares requirements, otherwise the card's. */
  readonly scopes: readonly string[];
};

const capabilityReasons = {
  streaming: 'streaming',
  pushNotifications: 'push-notifications',
  extendedAgentCard: 'extended-agent-card',
} as const;

function invalid(rule: string, path?: string): RequestError {
  return new RequestError('invalid-params', { violation: path === undefined ? { rule } : { rule, path } });
}

function member(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function stringMember(value: unknown, key: string): string | undefined {
  const found = member(value, key);
  return typeof found === 'string' ? found : undefined;
}

// docs/protocol-checks.md#requests: capabilities before anything else, so a card that cannot serve the call
// never sees it.
function gate(card: AgentCard, security: ResolvedSecurity, operation: ClientMethod, params: unknown): void {
  const { capability } = methods[operation] as { readonly capability?: keyof typeof capabilityReasons };
  if (capability !== undefined && !card.capabilities[capability]) {
    throw new CapabilityError(capabilityReasons[capability]);
  }
  // A2A spec §3.3.4: a send that registers a webhook needs the push capability too.
  const sends = operation === 'sendMessage' || operation === 'sendStreamingMessage';
  if (
    sends &&
    member(member(params, 'configuration'), 'taskPushNotificationConfig') !== undefined &&
    !card.capabilities.pushNotifications
  ) {
    throw new CapabilityError('push-notifications');
  }
  // docs/protocol-checks.md#extended-card (A2A spec §13.3): the extended card needs credentials; an anonymous
  // client never asks.
  if (operation === 'getExtendedAgentCard' && security.kind === 'anonymous') {
    throw new AuthorizationError('unauthenticated');
  }
}

/**
The task a request targets: task-scoped operations, and a send continuing a task
(docs/protocol-checks.md#token-provider).
*/
function targetTask(operation: ClientMethod, request: object): string | undefined {
  switch (operation) {
    case 'getTask':
    case 'cancelTask':
    case 'subscribeToTask':
      return stringMember(request, 'id');
    case 'createTaskPushNotificationConfig':
    case 'getTaskPushNotificationConfig':
    case 'listTaskPushNotificationConfigs':
    case 'deleteTaskPushNotificationConfig':
      return stringMember(request, 'taskId');
    case 'sendMessage':
    case 'sendStreamingMessage':
      return stringMember(member(request, 'message'), 'taskId');
    default:
      return undefined;
  }
}

/**
Everything decided before a request may leave (docs/protocol-checks.md#requests), in order: the capability
gates (`CapabilityError`), credentials for the extended card (`AuthorizationError('unauthenticated')`), then
the outbound contract (`RequestError('invalid-params')` with the violation): no caller `tenant`; the
operation's request schema (role `ROLE_USER`, no `taskId` in a send's push config, `historyLength` ≤ 256,
ListTasks `pageSize` 1..100, push-config `pageSize` 1..256, ids ≤ 512 B, page tokens ≤ 2048 B); a `taskId` for
a new push config; a known `skill` whose requirements the client can satisfy. Nothing here sends anything.

@example
```ts
const { request: schema } = await schemasOf('getTask');
const { request, taskId, scopes } = prepareCall({ card, security, operation: 'getTask', params: { id: 't-1' }, skill: undefined, schema });
```
*/
export function prepareCall(input: PrepareInput): PreparedCall {
  const { card, security, operation, params } = input;
  gate(card, security, operation, params);
  if (typeof params === 'object' && params !== null && Object.hasOwn(params, 'tenant')) {
    throw invalid('tenant', '$.tenant');
  }
  const decoded = decode(input.schema, params ?? {});
  if (!decoded.ok) {
    throw new RequestError('invalid-params', { violation: decoded.error.violation });
  }
  const request = decoded.value as object;
  // The route of CreateTaskPushNotificationConfig names the task (A2A spec §3.1.7); the schema leaves it
  // optional because a send's config must omit it.
  if (operation === 'createTaskPushNotificationConfig' && stringMember(request, 'taskId') === undefined) {
    throw invalid('required', '$.taskId');
  }
  return {
    request,
    taskId: targetTask(operation, request),
    scopes:
      input.skill === undefined ? security.scopes : input.skill.scopesOf(card, security, input.skill.id),
  };
}
