/**
@module
Protocol Buffers for the gRPC mount, the mocks' one owner of `@bufbuild/protobuf`: the client's own registry
of the A2A proto (`createGrpcRegistry` of `@surecall/client/grpc`, ARCHITECTURE.md#the-grpc-binding), so the
mock reads and writes exactly the messages the client does and no second copy of the proto or of its registry
exists. A request's binary is read as the ProtoJSON the agent's operations take (the JSON-RPC `params` of the
same call), an answer's ProtoJSON is written as binary, and an A2A error becomes a `google.rpc.Status` (A2A
spec §10.6).
*/
import { create, fromBinary, fromJson, type JsonValue, toBinary, toJson } from '@bufbuild/protobuf';
import { anyPack } from '@bufbuild/protobuf/wkt';
import { createGrpcRegistry } from '@surecall/client/grpc';

/** One `google.rpc.ErrorInfo` (A2A spec §10.6). */
export type GrpcErrorInfo = {
  readonly reason: string;
  readonly domain: string;
  readonly metadata?: Readonly<Record<string, string>> | undefined;
};

/** What the mount asks of Protocol Buffers. */
export type GrpcCodec = {
  /** A request's bytes as ProtoJSON; throws when they are no message `type`. */
  read(type: string, bytes: Uint8Array): unknown;
  /** An answer's ProtoJSON, in any of the agent's printing styles, as the bytes of message `type`. */
  write(type: string, value: unknown): Uint8Array;
  /** The bytes of a `google.rpc.Status` holding `infos` as its details. */
  status(code: number, message: string, infos: readonly GrpcErrorInfo[]): Uint8Array;
};

/**
The codec of the A2A proto, its registry built once.

@example
```ts
const codec = createGrpcCodec();
codec.read('lf.a2a.v1.GetTaskRequest', codec.write('lf.a2a.v1.GetTaskRequest', { id: 't-1' })); // { id: 't-1' }
```
*/
export function createGrpcCodec(): GrpcCodec {
  const { types, message } = createGrpcRegistry();
  const statusType = message('google.rpc.Status');
  const errorInfoType = message('google.rpc.ErrorInfo');
  return {
    read(type, bytes) {
      const desc = message(type);
      return toJson(desc, fromBinary(desc, bytes), { registry: types });
    },
    write(type, value) {
      // fromJson reads every style the agent prints (ProtoJSON: proto or JSON names, enum names or numbers,
      // defaults written or not), so a gRPC answer is the same message whichever style is set.
      const desc = message(type);
      return toBinary(desc, fromJson(desc, value as JsonValue, { registry: types }));
    },
    status(code, text, infos) {
      const details = infos.map((info) =>
        anyPack(
          errorInfoType,
          create(errorInfoType, { reason: info.reason, domain: info.domain, metadata: { ...info.metadata } }),
        ),
      );
      return toBinary(statusType, create(statusType, { code, message: text, details }));
    },
  };
}
