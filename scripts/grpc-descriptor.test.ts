/**
@module
The committed descriptors of the gRPC binding (`packages/client/src/protocol/grpc-descriptor.ts`) are what
`buf` compiles from the committed protos (`grpc-descriptor.ts`), so the binding speaks the proto the
repository holds, and the stripping of the `google.api` annotations leaves everything else as it was.
*/
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  a2aProtoDescriptor,
  errorDetailsProtoDescriptor,
  statusProtoDescriptor,
} from '../packages/client/src/protocol/grpc-descriptor.js';
import { compileDescriptors, protoFolder, stripGoogleApi } from './grpc-descriptor.js';

describe('stripGoogleApi', () => {
  it.each([
    ['a field behaviour', 'string id = 1 [(google.api.field_behavior) = REQUIRED];\n', 'string id = 1;\n'],
    [
      'an import',
      'import "google/api/annotations.proto";\nimport "google/protobuf/empty.proto";\n',
      'import "google/protobuf/empty.proto";\n',
    ],
    [
      'a method signature',
      'rpc A(B) returns (C) {\n    option (google.api.method_signature) = "id";\n}\n',
      'rpc A(B) returns (C) {\n}\n',
    ],
    [
      'an http option with nested bindings',
      'rpc A(B) returns (C) {\n    option (google.api.http) = {\n      post: "/a"\n      additional_bindings: { post: "/{tenant}/a" }\n    };\n}\n',
      'rpc A(B) returns (C) {\n}\n',
    ],
    [
      'a deprecated option, kept',
      'string url = 1 [deprecated = true];\n',
      'string url = 1 [deprecated = true];\n',
    ],
  ])('removes %s', (_name, proto, stripped) => {
    expect(stripGoogleApi(proto)).toBe(stripped);
  });

  it('leaves no google.api in the upstream proto, and every message and rpc in it', () => {
    const upstream = readFileSync(join(protoFolder, 'a2a.proto'), 'utf8');
    const stripped = stripGoogleApi(upstream);
    expect(stripped).not.toContain('google.api');
    const declarations = (text: string) => text.match(/^\s*(message|enum|rpc) \w+/gm) ?? [];
    expect(declarations(stripped)).toEqual(declarations(upstream));
    expect(declarations(upstream).filter((line) => line.trim().startsWith('rpc'))).toHaveLength(11);
  });
});

describe('the committed descriptors', () => {
  it('are what buf compiles from packages/client/proto', { timeout: 60_000 }, () => {
    const compiled = compileDescriptors();
    expect(a2aProtoDescriptor).toBe(compiled['a2a.proto']);
    expect(statusProtoDescriptor).toBe(compiled['google/rpc/status.proto']);
    expect(errorDetailsProtoDescriptor).toBe(compiled['google/rpc/error_details.proto']);
  });
});
