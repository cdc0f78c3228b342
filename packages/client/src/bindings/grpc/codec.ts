/**
@module
Protocol Buffers for the gRPC binding, the one owner of `@bufbuild/protobuf` (ARCHITECTURE.md#import-rules):
the proto's messages (`protocol/grpc-descriptor.ts`) in a registry, a request's ProtoJSON written as binary,
an answer's binary read back as ProtoJSON, so every answer check of docs/protocol-checks.md reads the same
value whichever binding carried it, and a `google.rpc.Status` read from a call's trailers (A2A spec §10.6).
*/
import {
  createFileRegistry,
  type DescMessage,
  fromBinary,
  fromJson,
  type JsonValue as ProtoJsonValue,
  type Registry,
  toBinary,
  toJson,
} from '@bufbuild/protobuf';
import { base64Decode } from '@bufbuild/protobuf/wire';
import {
  type Any,
  anyUnpack,
  FileDescriptorProtoSchema,
  file_google_protobuf_any,
  file_google_protobuf_empty,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
} from '@bufbuild/protobuf/wkt';
import { InvalidResponseError, RequestError } from '../../core/errors.js';
import {
  a2aProtoDescriptor,
  errorDetailsProtoDescriptor,
  statusProtoDescriptor,
} from '../../protocol/grpc-descriptor.js';
import type { JsonValue } from '../../protocol/json-value.js';

/** A `google.rpc.Status` as the binding reads it: its details are ProtoJSON objects with their `@type`. */
export type GrpcStatusDetails = {
  readonly code: number;
  readonly message: string;
  readonly details: readonly JsonValue[];
};

/** What the binding asks of Protocol Buffers. */
export type GrpcCodec = {
  /**
  A request's ProtoJSON as the binary of message `type`.
  @throws RequestError `invalid-params` (not dispatched) when it is no such message.
  */
  encode(type: string, value: unknown): Uint8Array;
  /**
  An answer's binary as the ProtoJSON of message `type` (defaults omitted, enums by name, lowerCamelCase
  names).
  @throws InvalidResponseError `schema` (dispatched) with the rule `protobuf` when the bytes are no such
    message.
  */
  decode(type: string, bytes: Uint8Array): JsonValue;
  /** The `grpc-status-details-bin` trailer, or `undefined` when the bytes are no `google.rpc.Status`. */
  status(bytes: Uint8Array): GrpcStatusDetails | undefined;
};

/**
The A2A proto's messages (with `google.rpc.Status` and `ErrorInfo`) in one registry, and a lookup that fails
loudly for a name the proto does not hold: the client's codec reads through it, and so does the mock agent's
gRPC mount (`@surecall/mocks/grpc`), so both read and write exactly the same messages.
*/
export type GrpcRegistry = {
  /** The registry, for `fromJson`/`toJson` options and `anyUnpack`. */
  readonly types: Registry;
  /**
  The descriptor of message `name`.
  @throws TypeError when the proto has no such message (a programming error: the operation table names only
    messages of the descriptor, protocol/grpc-service.ts).
  */
  message(name: string): DescMessage;
};

/**
Builds the registry of the committed descriptors (`protocol/grpc-descriptor.ts`,
ARCHITECTURE.md#the-grpc-binding)
over the well-known types they import.

@example
```ts
const { message } = createGrpcRegistry();
message('lf.a2a.v1.GetTaskRequest').typeName; // 'lf.a2a.v1.GetTaskRequest'
```
*/
export function createGrpcRegistry(): GrpcRegistry {
  const imports = [
    file_google_protobuf_any,
    file_google_protobuf_empty,
    file_google_protobuf_struct,
    file_google_protobuf_timestamp,
  ];
  const resolve = (name: string) => imports.find((file) => file.proto.name === name);
  const file = (base64: string) => fromBinary(FileDescriptorProtoSchema, base64Decode(base64));
  const types = createFileRegistry(
    createFileRegistry(file(a2aProtoDescriptor), resolve),
    createFileRegistry(file(statusProtoDescriptor), resolve),
    createFileRegistry(file(errorDetailsProtoDescriptor), resolve),
  );
  return {
    types,
    message(name) {
      const desc = types.getMessage(name);
      if (desc === undefined) {
        throw new TypeError(`no message ${name} in the A2A descriptor`);
      }
      return desc;
    },
  };
}

const notProtobuf = () =>
  new InvalidResponseError('schema', { dispatched: true, violation: { rule: 'protobuf', path: '$' } });

/**
Builds the codec of the A2A proto: one registry per binding, made once.

@example
```ts
const codec = createGrpcCodec();
const bytes = codec.encode('lf.a2a.v1.GetTaskRequest', { id: 'task-1' });
codec.decode('lf.a2a.v1.GetTaskRequest', bytes); // { id: 'task-1' }
```
*/
export function createGrpcCodec(): GrpcCodec {
  const { types, message } = createGrpcRegistry();
  const statusType = message('google.rpc.Status');
  return {
    encode(type, value) {
      const desc = message(type);
      try {
        return toBinary(desc, fromJson(desc, value as ProtoJsonValue, { registry: types }));
      } catch (cause) {
        throw new RequestError('invalid-params', { cause });
      }
    },
    decode(type, bytes) {
      const desc = message(type);
      try {
        return toJson(desc, fromBinary(desc, bytes), { registry: types }) as JsonValue;
      } catch {
        throw notProtobuf();
      }
    },
    status(bytes) {
      try {
        // A message of a registry's type is a plain object of its fields by their local names, and
        // `details` are the well-known `google.protobuf.Any` of the registry's import.
        const status = fromBinary(statusType, bytes) as unknown as {
          readonly code: number;
          readonly message: string;
          readonly details: readonly Any[];
        };
        const details = status.details.map((any): JsonValue => {
          // A detail whose type the registry does not hold still names its `@type`, and nothing else.
          const unpacked = anyUnpack(any, types);
          return unpacked === undefined
            ? { '@type': any.typeUrl }
            : ({
                '@type': any.typeUrl,
                ...(toJson(message(unpacked.$typeName), unpacked) as Record<string, JsonValue>),
              } as JsonValue);
        });
        return { code: status.code, message: status.message, details };
      } catch {
        return undefined;
      }
    },
  };
}
