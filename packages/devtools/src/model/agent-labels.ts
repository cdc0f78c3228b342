/**
@module
The Agent panel’s words for what `agentView` found: how the card was trusted, where the pin came from, whether
the peer honours idempotency keys, and the security the client was built with.
*/
import type { AgentView, CardRequest, Honouring, SecurityChoice, TrustChoice } from './agent-view.js';

const trustLabels: Readonly<Record<TrustChoice, string>> = Object.freeze({
  tls: 'TLS: the https card URL’s verified server',
  'expected-digest': 'the digest given when connecting',
  'first-fetch-digest': 'the digest of the first fetch (a loopback http card; TLS cannot vouch for it)',
});

const cardRequestLabels: Readonly<Record<CardRequest, string>> = Object.freeze({
  versioned: 'GET with A2A-Version: 1.0',
  'plain-fallback': 'a plain GET: the agent refused the preflight A2A-Version causes',
});

const pinNotes: Readonly<Record<AgentView['pinSource'], string>> = Object.freeze({
  connection: 'as pinned',
  inferred: 'inferred: the only 1.0 interface of this binding',
  ambiguous: 'the card lists several interfaces of this binding; the pin was not reported',
});

const honoursLabels: Readonly<Record<Honouring, string>> = Object.freeze({
  yes: 'yes, says the client',
  no: 'no, says the client',
  unknown: 'unknown: this client does not report it',
});

/**
`yes` or `no`.

@example
```ts
yesNo(true); // 'yes'
```
*/
export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/**
What vouched for the card.

@example
```ts
trustLabel('expected-digest'); // 'the digest given when connecting'
```
*/
export function trustLabel(trust: TrustChoice): string {
  return trustLabels[trust];
}

/**
How the card was asked for (docs/interop.md#browsers).

@example
```ts
cardRequestLabel('plain-fallback'); // 'a plain GET: the agent refused the preflight A2A-Version causes'
```
*/
export function cardRequestLabel(request: CardRequest): string {
  return cardRequestLabels[request];
}

/**
Where the binding's pinned interface came from, beside the binding's name.

@example
```ts
pinNote('connection'); // 'as pinned'
```
*/
export function pinNote(source: AgentView['pinSource']): string {
  return pinNotes[source];
}

/**
Whether the peer honours idempotency keys, as the client reports it.

@example
```ts
honoursLabel('unknown'); // 'unknown: this client does not report it'
```
*/
export function honoursLabel(honours: Honouring): string {
  return honoursLabels[honours];
}

/**
The security the client was built with, without its token; `not reported` when whoever built it did not say.

@example
```ts
securityLabel({ kind: 'bearer', scheme: 'bearer' }); // 'bearer token, scheme “bearer”'
```
*/
export function securityLabel(security: SecurityChoice | undefined): string {
  if (security === undefined) {
    return 'not reported';
  }
  return security.kind === 'anonymous' ? 'anonymous' : `bearer token, scheme “${security.scheme}”`;
}
