/**
@module
The JSON-RPC binding of a v0.3 interface (docs/protocol-checks.md#v03-peers): the request the client already
checked against the v1.0 contract is written as its v0.3 method and params (`protocol/v03/requests.ts`) and
POSTed without `A2A-Version`, which a v0.3 peer does not read and which makes a server with v0.3
compatibility serve the request as v0.3 (A2A spec §3.6.2); the answer's envelope gets every check of the
v1.0 binding (JSON-RPC 2.0 §5, docs/protocol-checks.md#unary-answers), its `result` is read as v0.3
(`protocol/v03/answers.ts`, `card.ts`) and then decoded by the v1.0 schemas, so every bound, union and
identity rule a v1.0 answer meets holds here too. What v0.3 cannot say (ListTasks, a tenant, a data part that
is no object) is `RequestError('invalid-params')` before anything is sent.
*/
import { RequestError } from '../../core/errors.js';
import type { JsonObject, JsonValue } from '../../protocol/json-value.js';
import { operationSchemas } from '../../protocol/operation-schemas.js';
import type { ClientMethod, OperationRequest } from '../../protocol/operations.js';
import {
  pushConfigFromV03,
  pushConfigListFromV03,
  sendResultFromV03,
  taskFromV03,
} from '../../protocol/v03/answers.js';
import { cardFromV03 } from '../../protocol/v03/card.js';
import type { V03Mapping } from '../../protocol/v03/refusal.js';
import { v03Request } from '../../protocol/v03/requests.js';
import { exchange, type HttpExchangeRequest, type MediaKind } from '../../wire/http.js';
import type { Binding, BindingOptions, CallContext, UnaryMethod } from '../binding.js';
import { envelopeError, isEnvelope, readEnvelope } from '../jsonrpc-envelope.js';
import { jsonRpcFailure, jsonRpcRemoteError } from '../jsonrpc-error.js';
import { decodeResult } from '../push-config-answer.js';
import { interfaceUrl } from '../request.js';
import { parseBody, schemaError } from '../result.js';
import { v03Stream } from './stream.js';

/** Options of {@link createV03JsonRpcBinding}: the interface, plus the client's id counter. */
export type V03JsonRpcBindingOptions = BindingOptions & {
  /** The next request id, from the client's one counter (docs/protocol-checks.md#requests). */
  readonly nextId: () => number;
};

// A delete answers v0.3 `null`, which the v1.0 delete rule reads as it is (push-config-answer.ts).
const asIs = (raw: JsonValue): V03Mapping => ({ ok: true, value: raw });

/** How each v0.3 unary `result` is read as the v1.0 answer (`protocol/v03/answers.ts`, `card.ts`). */
const answers: Readonly<Record<Exclude<UnaryMethod, 'listTasks'>, (raw: JsonValue) => V03Mapping>> = {
  sendMessage: sendResultFromV03,
  getTask: taskFromV03,
  cancelTask: taskFromV03,
  createTaskPushNotificationConfig: pushConfigFromV03,
  getTaskPushNotificationConfig: pushConfigFromV03,
  listTaskPushNotificationConfigs: pushConfigListFromV03,
  deleteTaskPushNotificationConfig: asIs,
  getExtendedAgentCard: cardFromV03,
};

/**
Creates the v0.3 JSON-RPC binding of one interface. A tenant cannot reach a v0.3 peer: an interface with one
refuses every call before dispatch (`no-tenant`), as ListTasks is refused (`no-list-tasks`).

@example
```ts
let id = 0;
const binding = createV03JsonRpcBinding({ url: 'https://agent.example/a2a', limits: resolveLimits(), nextId: () => ++id });
const { value } = await binding.unary('getTask', { id: 't-1' }, {}); // sent as v0.3 tasks/get
```
*/
export function createV03JsonRpcBinding(options: V03JsonRpcBindingOptions): Binding {
  const url = interfaceUrl(options.url).href;
  const { limits, tenant, nextId } = options;

  function prepare<N extends ClientMethod>(
    operation: N,
    request: OperationRequest<N>,
    context: CallContext,
    accept: MediaKind,
  ): { readonly id: number; readonly http: HttpExchangeRequest } {
    // The interface's tenant goes where the v1.0 binding puts it, so the mapping refuses it (v0.3 has none).
    const built = v03Request(
      operation,
      tenant === undefined ? request : { ...(request as JsonObject), tenant },
    );
    if (!built.ok) {
      throw new RequestError('invalid-params', { violation: built.error });
    }
    const id = nextId();
    const params = built.params === undefined ? {} : { params: built.params };
    return {
      id,
      http: {
        method: 'POST',
        url,
        body: JSON.stringify({ jsonrpc: '2.0', id, method: built.method, ...params }),
        contentType: 'application/json',
        accept,
        limits,
        ...context,
        a2aVersion: false,
      },
    };
  }

  return {
    protocolBinding: 'JSONRPC',

    async unary(operation, request, context) {
      const { id, http } = prepare(operation, request, context, 'json');
      const response = await exchange(http);
      const httpStatus = response.status;
      if (httpStatus < 200 || httpStatus > 299) {
        throw jsonRpcFailure(response, id, limits);
      }
      const envelope = readEnvelope(parseBody(response.body, limits, httpStatus), id);
      if (!isEnvelope(envelope)) {
        throw envelopeError(envelope, httpStatus);
      }
      if ('error' in envelope) {
        throw jsonRpcRemoteError(envelope.error, httpStatus);
      }
      // ListTasks never gets here: `v03Request` refused it before dispatch.
      const mapped = answers[operation as Exclude<UnaryMethod, 'listTasks'>](envelope.result);
      if (!mapped.ok) {
        throw schemaError({ httpStatus }, mapped.error);
      }
      return {
        value: decodeResult(operation, mapped.value, { httpStatus }, operationSchemas[operation].response),
        raw: envelope.result,
        httpStatus,
      };
    },

    async stream(operation, request, context) {
      const { id, http } = prepare(operation, request, context, 'sse');
      return v03Stream(operation, { id, http, limits, signal: context.signal });
    },
  };
}
