/**
@module
The gRPC binding (A2A spec §10): each operation is the RPC of the same name on `lf.a2a.v1.A2AService`, its
request the proto message the JSON-RPC binding sends as `params` (with the interface's `tenant` in the
message's own `tenant` field, A2A spec §8.3.2), written in binary by `codec.ts`; each answer, or each message
of a server stream, is read back as ProtoJSON and goes through the same decoding and answer checks as the
other bindings' (docs/protocol-checks.md#grpc). Node only: its entry (`entry.ts`) is `null` for browsers.
*/
import { OptionsError } from '../../core/errors.js';
import { optionalMembers } from '../../core/optional-members.js';
import { grpcMessages, grpcServiceName } from '../../protocol/grpc-service.js';
import type { JsonObject } from '../../protocol/json-value.js';
import { methods } from '../../protocol/methods.js';
import { operationSchemas } from '../../protocol/operation-schemas.js';
import type { ClientMethod, OperationRequest } from '../../protocol/operations.js';
import type { Binding, BindingOptions, CallContext, StreamFrame } from '../binding.js';
import { decodeStreamEvent } from '../frames.js';
import { decodeResult } from '../push-config-answer.js';
import { interfaceUrl } from '../request.js';
import { type GrpcCall, type GrpcTarget, openGrpcChannel } from './channel.js';
import { createGrpcCodec } from './codec.js';

// Every gRPC answer travels in an HTTP/2 response with status 200 (gRPC over HTTP/2, "Responses"); the events
// and the errors of a call say so.
const httpStatus = 200;

/**
The channel target of an interface URL: `http:` is plaintext, `https:` TLS (port 443 unless given). A gRPC
method's path is fixed (`/lf.a2a.v1.A2AService/<name>`), so an interface URL with a path of its own names an
endpoint no gRPC channel can reach, and is refused rather than sent elsewhere.

@throws OptionsError `url` (`inconsistent`).
@example
```ts
grpcTarget('http://127.0.0.1:50051'); // { address: '127.0.0.1:50051', secure: false, url: 'http://127.0.0.1:50051/' }
```
*/
export function grpcTarget(url: string): GrpcTarget {
  const parsed = interfaceUrl(url);
  if (parsed.pathname !== '/') {
    throw new OptionsError('url', 'inconsistent');
  }
  const secure = parsed.protocol === 'https:';
  const port = parsed.port === '' ? (secure ? '443' : '80') : parsed.port;
  return { address: `${parsed.hostname}:${port}`, secure, url: parsed.href };
}

/**
Creates the gRPC binding of one interface. Nothing connects until the first call; a call first waits for the
channel to be ready, so an unreachable peer is `TransportError('network')` with `dispatched: false`, and from
the moment the RPC starts every failure has `dispatched: true`.

@example
```ts
const binding = createGrpcBinding({ url: 'http://127.0.0.1:50051', limits: resolveLimits() });
const { value: task } = await binding.unary('getTask', { id: 'task-1' }, {});
```
*/
export function createGrpcBinding(options: BindingOptions): Binding {
  const { limits, tenant } = options;
  const channel = openGrpcChannel(grpcTarget(options.url), limits);
  const codec = createGrpcCodec();
  const source = optionalMembers({ tenant, httpStatus });
  const trailers = (bytes: Uint8Array) => codec.status(bytes);

  function prepare<N extends ClientMethod>(
    operation: N,
    request: OperationRequest<N>,
    context: CallContext,
  ): GrpcCall {
    // A2A spec, §8.3.2: the interface's tenant, never the caller's.
    const message = tenant === undefined ? request : { ...(request as JsonObject), tenant };
    return {
      path: `/${grpcServiceName}/${methods[operation].name}`,
      body: codec.encode(grpcMessages[operation].request, message),
      context,
      trailers,
    };
  }

  return {
    protocolBinding: 'GRPC',

    async unary(operation, request, context) {
      const call = prepare(operation, request, context);
      const bytes = await channel.unary(call);
      const raw = codec.decode(grpcMessages[operation].response, bytes);
      const schema = operationSchemas[operation].response;
      return { value: decodeResult(operation, raw, source, schema), raw, httpStatus };
    },

    async stream(operation, request, context) {
      const call = prepare(operation, request, context);
      const messages = await channel.stream(call);
      const type = grpcMessages[operation].response;
      const schema = operationSchemas[operation].response;
      const frames: AsyncIterableIterator<StreamFrame, undefined, undefined> = {
        async next() {
          const step = await messages.next();
          if (step.done === true) {
            return step;
          }
          let raw: ReturnType<typeof codec.decode>;
          let event: ReturnType<typeof decodeStreamEvent>;
          try {
            raw = codec.decode(type, step.value);
            event = decodeStreamEvent(raw, schema);
          } catch (error) {
            await messages.return();
            throw error;
          }
          return { done: false, value: { event, raw, wireBytes: step.value.byteLength } };
        },
        return: () => messages.return(),
        [Symbol.asyncIterator]() {
          return this;
        },
      };
      return frames;
    },
  };
}
