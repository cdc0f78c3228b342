/**
@module
The gRPC binding's proto as data (ARCHITECTURE.md#the-grpc-binding): compiles `packages/client/proto/` with
`buf` (`@bufbuild/buf`, a dev dependency) into one `google.protobuf.FileDescriptorProto` per file, without
source info, and writes them base64-encoded into `packages/client/src/protocol/grpc-descriptor.ts`. The
upstream `a2a.proto` is kept verbatim; its `google.api` annotations (HTTP routes, field behaviour, method
signatures) are removed before compiling, since the binding reads none of them and they would bring the
googleapis protos along. `grpc-descriptor.test.ts` compiles again and holds the committed module to it.

Run `node --import tsx scripts/grpc-descriptor.ts --write` after changing a proto.
*/
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { repositoryRoot } from './source-facts.js';

/** Where the protos live, and the module the descriptors are written to. */
export const protoFolder = join(repositoryRoot, 'packages/client/proto');
const modulePath = join(repositoryRoot, 'packages/client/src/protocol/grpc-descriptor.ts');

/** The proto files compiled, by the names their descriptors carry. */
export const protoFiles = ['a2a.proto', 'google/rpc/status.proto', 'google/rpc/error_details.proto'] as const;

function withoutHttpOptions(proto: string): string {
  let out = '';
  let index = 0;
  for (;;) {
    const start = proto.indexOf('option (google.api.http) = {', index);
    if (start === -1) {
      return out + proto.slice(index);
    }
    out += proto.slice(index, proto.lastIndexOf('\n', start) + 1);
    let depth = 0;
    let at = proto.indexOf('{', start);
    for (; at < proto.length; at++) {
      depth += proto[at] === '{' ? 1 : proto[at] === '}' ? -1 : 0;
      if (depth === 0) {
        break;
      }
    }
    const end = proto.indexOf(';', at) + 1;
    index = proto[end] === '\n' ? end + 1 : end;
  }
}

/**
The proto without its `google.api` imports and annotations: the `google.api.http` options (nested braces
included), the `google.api.method_signature` options and the `google.api.field_behavior` field options.

@example
```ts
stripGoogleApi('string id = 1 [(google.api.field_behavior) = REQUIRED];'); // 'string id = 1;'
```
*/
export function stripGoogleApi(proto: string): string {
  return withoutHttpOptions(proto)
    .replace(/^import "google\/api\/[^"]+";\n/gm, '')
    .replace(/^\s*option \(google\.api\.method_signature\) = "[^"]*";\n/gm, '')
    .replace(/ \[\(google\.api\.field_behavior\) = [A-Z_]+\]/g, '');
}

/** Compiles the protos with `buf` and returns each file's descriptor, base64-encoded, by file name. */
export function compileDescriptors(): Readonly<Record<(typeof protoFiles)[number], string>> {
  const work = mkdtempSync(join(tmpdir(), 'surecall-proto-'));
  try {
    const sources = join(work, 'proto');
    mkdirSync(sources);
    cpSync(join(protoFolder, 'google'), join(sources, 'google'), { recursive: true });
    writeFileSync(
      join(sources, 'a2a.proto'),
      stripGoogleApi(readFileSync(join(protoFolder, 'a2a.proto'), 'utf8')),
    );
    const output = join(work, 'set.binpb');
    const buf = join(repositoryRoot, 'node_modules/.bin/buf');
    execFileSync(buf, ['build', '--exclude-source-info', '--exclude-imports', '-o', output], {
      cwd: sources,
    });
    const set = fromBinary(FileDescriptorSetSchema, readFileSync(output));
    const encoded = (name: string) => {
      const file = set.file.find((candidate) => candidate.name === name);
      if (file === undefined) {
        throw new Error(`buf did not compile ${name}`);
      }
      return Buffer.from(toBinary(FileDescriptorProtoSchema, file)).toString('base64');
    };
    return {
      'a2a.proto': encoded('a2a.proto'),
      'google/rpc/status.proto': encoded('google/rpc/status.proto'),
      'google/rpc/error_details.proto': encoded('google/rpc/error_details.proto'),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function replaceConstant(text: string, name: string, value: string): string {
  const pattern = new RegExp(`(export const ${name} =\\s*')[A-Za-z0-9+/=]*(';)`);
  if (!pattern.test(text)) {
    throw new Error(`no constant ${name} in the descriptor module`);
  }
  return text.replace(pattern, `$1${value}$2`);
}

if (process.argv.includes('--write')) {
  const descriptors = compileDescriptors();
  let text = readFileSync(modulePath, 'utf8');
  text = replaceConstant(text, 'a2aProtoDescriptor', descriptors['a2a.proto']);
  text = replaceConstant(text, 'statusProtoDescriptor', descriptors['google/rpc/status.proto']);
  text = replaceConstant(text, 'errorDetailsProtoDescriptor', descriptors['google/rpc/error_details.proto']);
  writeFileSync(modulePath, text);
}
