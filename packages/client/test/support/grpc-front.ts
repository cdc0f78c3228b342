/**
@module
Test support: what `durable-peers.ts` puts in front of the mock agent over HTTP, as grpc-js server
interceptors in front of its gRPC mount (`@surecall/mocks/grpc`): a log of the calls that reached it (before
any fault, as the MSW log) and a hook when an answer is about to leave. Interceptors run outside the mount's
fault lab, so nothing here can sit between the lab and the agent as the HTTP stage and deduplicating front do.
*/
import { ServerInterceptingCall, type ServerInterceptor } from '@grpc/grpc-js';
import { createGrpcCodec } from '../../src/bindings/grpc/codec.js';
import { grpcMessages } from '../../src/protocol/grpc-service.js';

const codec = createGrpcCodec();

/** The operation of an RPC path, `/lf.a2a.v1.A2AService/<Operation>`. */
export function operationOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Records each call's operation and, for a send, its request as ProtoJSON. */
export function recording(
  record: (operation: string, params: Record<string, unknown>) => void,
): ServerInterceptor {
  return (method, call) =>
    new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMessage: (message: unknown, forward) => {
            const operation = operationOf(method.path);
            const params =
              operation === 'SendMessage' && Buffer.isBuffer(message)
                ? (codec.decode(grpcMessages.sendMessage.request, message) as Record<string, unknown>)
                : {};
            record(operation, params);
            forward(message);
          },
        }),
    });
}

/** Calls `answered` each time an answer message is about to leave. */
export function answering(answered: () => void): ServerInterceptor {
  return (_method, call) =>
    new ServerInterceptingCall(call, {
      sendMessage: (message: unknown, next) => {
        answered();
        next(message);
      },
    });
}
