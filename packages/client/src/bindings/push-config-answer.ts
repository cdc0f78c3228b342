/**
@module
The answers of the push-config operations beyond their schemas (docs/protocol-checks.md#unary-answers): the
empty answer of a delete, and a push config's `tenant`, which may only repeat the interface's. Only those
operations reach this, so it loads with their schemas (`deferred.ts`, ARCHITECTURE.md#decisions, "Code loads
with its first use"); every other operation's answer is decoded by `decodeAnswer` (`result.ts`) alone.
*/
import { InvalidResponseError } from '../core/errors.js';
import { isJsonObject, type JsonValue } from '../protocol/json-value.js';
import type { ClientMethod, OperationResponse } from '../protocol/operations.js';
import type { TaskPushNotificationConfig } from '../protocol/push.js';
import {
  decodeAnswer,
  failureInit,
  type OperationSchemas,
  type ResultSource,
  schemaError,
} from './result.js';

function isEmptyAnswer(raw: JsonValue): boolean {
  return raw === null || (isJsonObject(raw) && Object.keys(raw).length === 0);
}

/**
A push config's `tenant` may only repeat the interface's; it is then dropped, since callers never see tenants
(docs/protocol-checks.md#requests).
*/
function withoutTenant(
  config: TaskPushNotificationConfig,
  source: ResultSource,
  path: string,
): TaskPushNotificationConfig {
  const { tenant, ...rest } = config;
  if (tenant !== undefined && tenant !== source.tenant) {
    throw new InvalidResponseError('identity', {
      ...failureInit(source.httpStatus),
      violation: { rule: 'tenant', path },
    });
  }
  return rest;
}

/**
Decodes the result of any unary operation: `null` or `{}` for DeleteTaskPushNotificationConfig
(google.protobuf.Empty; docs/protocol-checks.md#unary-answers, delete), `decodeAnswer` (`result.ts`) for the
rest, then the push config's tenant.

@throws InvalidResponseError `schema` or `identity` (dispatched).
@example
```ts
const config = decodeResult('getTaskPushNotificationConfig', raw, { httpStatus: 200, tenant }, (await schemasOf('getTaskPushNotificationConfig')).response);
```
*/
export function decodeResult<N extends ClientMethod>(
  operation: N,
  raw: JsonValue,
  source: ResultSource,
  schema: OperationSchemas[N]['response'],
): OperationResponse<N> {
  if (operation === 'deleteTaskPushNotificationConfig') {
    if (!isEmptyAnswer(raw)) {
      throw schemaError(source, { rule: 'empty', path: '$' });
    }
    return {} as OperationResponse<N>;
  }
  const value: unknown = decodeAnswer(operation, raw, source, schema);
  switch (operation) {
    case 'createTaskPushNotificationConfig':
    case 'getTaskPushNotificationConfig':
      return withoutTenant(value as TaskPushNotificationConfig, source, '$.tenant') as OperationResponse<N>;
    case 'listTaskPushNotificationConfigs': {
      const page = value as OperationResponse<'listTaskPushNotificationConfigs'>;
      const configs = page.configs.map((config, index) =>
        withoutTenant(config, source, `$.configs[${index}].tenant`),
      );
      return { ...page, configs } as OperationResponse<N>;
    }
    default:
      return value as OperationResponse<N>;
  }
}
