/**
@module
The refusal of what offers only v0.3, which this client does not speak
(docs/protocol-checks.md#discovery-steps, steps 10 and 11). It loads on demand (ARCHITECTURE.md#decisions,
"Code loads with its first use"): only a card that already failed the 1.0 contract, or offers no usable
interface, reaches it.
*/

import type { ClientOptions } from '../client/options.js';
import { speaks } from '../client/pin.js';
import { DiscoveryError } from '../core/errors.js';
import type { JsonValue } from '../core/json-value.js';
import type { AgentCard } from '../protocol/agent-card.js';
import { isJsonObject } from '../protocol/json-value.js';

// `0.3` or a `0.3.x` release; the detail names the version, a constant.
function v03Only(versions: readonly unknown[]): DiscoveryError | undefined {
  return versions.some((version) => /^0\.3(\.\d+)?$/.test(String(version)))
    ? new DiscoveryError('NoSupportedInterface', {
        detail: 'protocol-version-0.3',
        fix: { option: 'protocolVersions', value: '0.3' },
      })
    : undefined;
}

/**
Step 10: `NoSupportedInterface` with detail `protocol-version-0.3` when `raw`, a card that failed the 1.0
contract, names `0.3` or `0.3.x` as its top-level `protocolVersion`: a v0.3 card says its version there, a 1.0
card on each interface (A2A spec §8.3.2). Otherwise `undefined`, and the contract's refusal stands.

@example
```ts
v03Card({ protocolVersion: '0.3.0', url: 'https://agent.example/a2a' }); // detail 'protocol-version-0.3'
```
*/
export function v03Card(raw: JsonValue): DiscoveryError | undefined {
  return v03Only([isJsonObject(raw) && raw['protocolVersion']]);
}

/**
Step 11: the same refusal when `card` has no `1.0` interface over a binding this client has but some entry
over one of them speaks `0.3` or `0.3.x`. Otherwise `undefined`, and `no-usable-interface` stands.

@example
```ts
v03Interfaces(card, undefined); // detail 'protocol-version-0.3' when its JSON-RPC interface speaks 0.3
```
*/
export function v03Interfaces(card: AgentCard, grpc: ClientOptions['grpc']): DiscoveryError | undefined {
  return v03Only(
    card.supportedInterfaces.map((entry) => speaks(entry.protocolBinding, grpc) && entry.protocolVersion),
  );
}
