/**
@module
Which versions a client given the v0.3 binding speaks (`ClientOptions.protocolVersions`), which interfaces it
speaks in 0.3, how it reads a v0.3 card and which binding it builds for a v0.3 pin
(docs/protocol-checks.md#v03-peers). The client holds only the hand-over to it (`client/options.ts`,
`client/pin.ts`, `client/call.ts`, `discovery/card-fetch.ts`), so no root bundle grows.
*/
import { DiscoveryError, OptionsError } from '../../core/errors.js';
import { optionalMembers } from '../../core/optional-members.js';
import { AgentCard, type AgentInterface } from '../../protocol/agent-card.js';
import { decode } from '../../protocol/decode.js';
import { isJsonObject, type JsonValue } from '../../protocol/json-value.js';
import { cardFromV03 } from '../../protocol/v03/card.js';
import type { AdmittedVersions, Binding, V03Target } from '../binding.js';
import { createV03JsonRpcBinding } from './jsonrpc.js';
import { createV03RestBinding } from './rest.js';

// `0.3` or a `0.3.x` release (A2A spec §8.3.2 names a version as it is released; v0.3 cards say `0.3.0`).
const v03Version = /^0\.3(\.\d+)?$/;

/**
Whether `entry` is an interface the v0.3 binding speaks: JSON-RPC or HTTP+JSON, in `0.3` or a `0.3.x`
release.

@example
```ts
speaksV03({ url, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3.0' }); // true
```
*/
export function speaksV03(entry: AgentInterface): boolean {
  return (
    (entry.protocolBinding === 'JSONRPC' || entry.protocolBinding === 'HTTP+JSON') &&
    v03Version.test(entry.protocolVersion)
  );
}

/** The v0.3 binding of one selected interface, JSON-RPC or HTTP+JSON as its pin names. */
function createV03Binding(nextId: () => number, target: V03Target): Binding {
  const { pin, limits, subscribeMethod } = target;
  const options = { url: pin.url, limits, subscribeMethod, ...optionalMembers({ tenant: pin.tenant }) };
  return pin.binding === 'HTTP+JSON'
    ? createV03RestBinding(options)
    : createV03JsonRpcBinding({ ...options, nextId });
}

/**
A v0.3 card's v1.0 JSON, or `undefined` when `raw` is no v0.3 card: a v0.3 card names its version at its top
(a 1.0 card names it on each interface, A2A spec §8.3.2) and fails the 1.0 card contract. A card that passes
that contract is read as 1.0 whatever its top says; one that fails it is read as v0.3 even where it also
carries a `supportedInterfaces` list, as the official JS SDK's v0.3 card does beside its v0.3 members.

@throws DiscoveryError `InvalidAgentCard` (`schema`) for what a v0.3 card says that v1.0 cannot
  (docs/protocol-checks.md#v03-peers).
@example
```ts
v03CardJson({ protocolVersion: '0.3.0', url: 'https://agent.example/a2a', … }); // { supportedInterfaces: [{ …, protocolVersion: '0.3.0' }], … }
```
*/
export function v03CardJson(raw: JsonValue): JsonValue | undefined {
  if (!isJsonObject(raw) || !v03Version.test(String(raw['protocolVersion'])) || decode(AgentCard, raw).ok) {
    return undefined;
  }
  const mapped = cardFromV03(raw);
  if (!mapped.ok) {
    throw new DiscoveryError('InvalidAgentCard', { detail: 'schema', violation: mapped.error });
  }
  return mapped.value;
}

/**
Checks `protocolVersions` for a client given the v0.3 binding: a non-empty array of `1.0` and `0.3`, each
once, else `OptionsError` (`protocolVersions`, or `protocolVersions.<index>`, `malformed`). `undefined` when
it names `1.0` alone (the default), otherwise the versions admitted, 1.0 preferred wherever a card offers it.

@example
```ts
admitVersions(['0.3'])?.versionOf({ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }, true); // undefined
```
*/
export function admitVersions(versions: unknown = ['1.0']): AdmittedVersions | undefined {
  if (!Array.isArray(versions) || versions.length === 0) {
    throw new OptionsError('protocolVersions', 'malformed');
  }
  versions.forEach((version: unknown, index) => {
    if ((version !== '1.0' && version !== '0.3') || versions.indexOf(version) !== index) {
      throw new OptionsError(`protocolVersions.${index}`, 'malformed');
    }
  });
  if (!versions.includes('0.3')) {
    return undefined;
  }
  const v10 = versions.includes('1.0');
  return Object.freeze({
    versionOf: (entry: AgentInterface, speaks: boolean) =>
      v10 && speaks && entry.protocolVersion === '1.0' ? '1.0' : speaksV03(entry) ? '0.3' : undefined,
    card: v03CardJson,
    createBinding: createV03Binding,
  });
}
