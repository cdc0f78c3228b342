/**
@module
`@surecall/client/grpc`: the gRPC binding (A2A spec §10) for Node, kept out of every other entry so that a web
app's bundle holds none of it (`browser` → `null` in `package.json`). `@grpc/grpc-js` and `@bufbuild/protobuf`
are optional peer dependencies that only this entry loads. A client given {@link grpcBinding} can select or
pin a `GRPC` interface under the same rules as the other two bindings (docs/protocol-checks.md#grpc).
*/
import type { GrpcBindingProvider } from '../binding.js';
import { createGrpcBinding } from './binding.js';

export type { GrpcBindingProvider } from '../binding.js';
export type { GrpcRegistry } from './codec.js';
// The registry the binding's codec reads through, for a peer of ours that must write the same messages (the
// mock agent's gRPC mount); the codec itself stays internal.
export { createGrpcRegistry } from './codec.js';

/**
The gRPC binding, to hand to `discover()` or `createClient()` as `grpc`.

@example
```ts
import { discover } from '@surecall/client';
import { grpcBinding } from '@surecall/client/grpc';

const client = await discover({
  cardUrl: 'https://agent.example/.well-known/agent-card.json',
  grpc: grpcBinding,
  pins: [{ binding: 'GRPC', url: 'https://agent.example' }],
  security: { kind: 'anonymous' },
  trust: { kind: 'tls' },
});
```
*/
export const grpcBinding: GrpcBindingProvider = Object.freeze({
  protocolBinding: 'GRPC',
  createBinding: createGrpcBinding,
});
