/**
@module
Protocol Buffers for the gRPC mount, the mocks' one owner of `@bufbuild/protobuf`: the client's compiled
descriptors of the A2A proto (`@surecall/client/protocol`, ARCHITECTURE.md#the-grpc-binding) in a registry, so
the mock reads and writes exactly the messages the client does and no second copy of the proto exists. A
request's binary is read as the ProtoJSON the agent's operations take (the JSON-RPC `params` of the same
call), an answer's ProtoJSON is written as binary, and an A2A error becomes a `google.rpc.Status` (A2A spec
§10.6).
*/
import {
  create,
  createFileRegistry,
  type DescMessage,
  fromBinary,
  fromJson,
  type JsonValue,
  type Registry,
  toBinary,
  toJson,
} from '@bufbuild/protobuf';
import { base64Decode } from '@bufbuild/protobuf/wire';
import {
  anyPack,
  FileDescriptorProtoSchema,
  file_google_protobuf_any,
  file_google_protobuf_empty,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
} from '@bufbuild/protobuf/wkt';
import {
  a2aProtoDescriptor,
  errorDetailsProtoDescriptor,
  statusProtoDescriptor,
} from '@surecall/client/protocol';

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

function registry(): Registry {
  const imports = [
    file_google_protobuf_any,
    file_google_protobuf_empty,
    file_google_protobuf_struct,
    file_google_protobuf_timestamp,
  ];
  const resolve = (name: string) => imports.find((file) => file.proto.name === name);
  const file = (base64: string) => fromBinary(FileDescriptorProtoSchema, base64Decode(base64));
  return createFileRegistry(
    createFileRegistry(file(a2aProtoDescriptor), resolve),
    createFileRegistry(file(statusProtoDescriptor), resolve),
    createFileRegistry(file(errorDetailsProtoDescriptor), resolve),
  );
}

function message(types: Registry, name: string): DescMessage {
  const desc = types.getMessage(name);
  if (desc === undefined) {
    // The service table names only messages of the descriptor (`@surecall/client/protocol`, grpcMessages).
    throw new TypeError(`no message ${name} in the A2A descriptor`);
  }
  return desc;
}

/**
The codec of the A2A proto, its registry built once.

@example
```ts
const codec = createGrpcCodec();
codec.read('lf.a2a.v1.GetTaskRequest', codec.write('lf.a2a.v1.GetTaskRequest', { id: 't-1' })); // { id: 't-1' }
```
*/
export function createGrpcCodec(): GrpcCodec {
  const types = registry();
  const statusType = message(types, 'google.rpc.Status');
  const errorInfoType = message(types, 'google.rpc.ErrorInfo');
  return {
    read(type, bytes) {
      const desc = message(types, type);
      return toJson(desc, fromBinary(desc, bytes), { registry: types });
    },
    write(type, value) {
      // fromJson reads every style the agent prints (ProtoJSON: proto or JSON names, enum names or numbers,
      // defaults written or not), so a gRPC answer is the same message whichever style is set.
      const desc = message(types, type);
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
