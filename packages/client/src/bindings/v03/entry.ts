/**
@module
`@surecall/client/v03`: the binding that lets a client speak to v0.3 peers too
(docs/protocol-checks.md#v03-peers), kept out of the root entry so that an app that speaks 1.0 alone carries
none of it. Hand {@link v03Binding} to `discover()`, `fetchAgentCard()` or `createClient()` as `v03`, with
`protocolVersions` naming `0.3`: a v0.3 card is then read as the v1.0 card it maps to, a v0.3 JSON-RPC or
HTTP+JSON interface can be selected and pinned (a 1.0 interface is always preferred where the card offers
one), and every call and answer is mapped to and from the v1.0 types, under the same checks.
*/
import type { V03BindingProvider } from '../binding.js';
import { admitVersions } from './versions.js';

export type { AdmittedVersions, V03BindingProvider } from '../binding.js';

/**
The v0.3 binding, to hand to `discover()`, `fetchAgentCard()` or `createClient()` as `v03`.

@example
```ts
import { discover } from '@surecall/client';
import { v03Binding } from '@surecall/client/v03';

const client = await discover({
  cardUrl: 'https://agent.example/.well-known/agent-card.json',
  pins: [{ binding: 'JSONRPC', url: 'https://agent.example/a2a' }],
  trust: { kind: 'tls' },
  security: { kind: 'anonymous' },
  protocolVersions: ['1.0', '0.3'],
  v03: v03Binding,
});
```
*/
export const v03Binding: V03BindingProvider = Object.freeze({
  protocolVersion: '0.3',
  admit: admitVersions,
});
