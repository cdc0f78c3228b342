/**
@module
A refused card in words that name the fix (README.md#the-surecall-command): the flag that admits what was
refused (`--loopback` for an `http:` card URL on this machine), a dead agent told apart from a refusing one
(nothing answered is not a refusal), and the rest as the library's `DiscoveryError` names it (its reason and
detail are constants, never a URL or card content: ARCHITECTURE.md#errors).
*/

// Keyed `<reason> <detail>`: the card fetch and the card URL's rules
// (docs/protocol-checks.md#discovery-steps).
const words: Readonly<Record<string, string>> = {
  'Discovery https-required':
    'the card URL must be https:, or http: to an agent on this machine (127.0.0.1 or [::1]) with --loopback',
  'Discovery literal-loopback-required':
    '--loopback admits a literal loopback address only: write 127.0.0.1 (or [::1]), never a name such as localhost',
  'Discovery agent-card-path-required': "the card URL's path must be /.well-known/agent-card.json",
  'Discovery embedded-credentials':
    'the card URL must not hold a user or password: give a token with --token-env or --token-stdin',
  'Discovery query-or-fragment': 'the card URL must have no query and no fragment',
  'Discovery network':
    'nothing answered at the card URL: the agent is not running there, or not on that port (nothing was sent)',
  'Discovery timeout': 'the card did not arrive within the discovery deadline (15 s)',
  'Discovery redirect': 'the card URL redirects, and a card is fetched without redirects: give the final URL',
  'Discovery media-type': 'the card URL answered, but not with JSON: is it the agent’s card?',
  // docs/protocol-checks.md#v03-peers: the refusal's fix is the library's protocolVersions.
  'NoSupportedInterface protocol-version-0.3':
    'the agent speaks A2A v0.3 only: add --protocol-versions 1.0,0.3 to speak v0.3 to it',
};

/** What the words are made of: a `DiscoveryError`'s public fields, read as any error's. */
export type RefusedCard = {
  readonly reason?: unknown;
  readonly detail?: unknown;
  readonly httpStatus?: unknown;
  readonly message?: unknown;
};

/**
The words for a refused card: a `DiscoveryError`, read by its fields (`failure.ts` reads every error so, to
work across copies of the client).

@example
```ts
discoveryText(new DiscoveryError('Discovery', { detail: 'https-required' })); // '… with --loopback (…)'
```
*/
export function discoveryText(error: RefusedCard): string {
  const message = typeof error.message === 'string' ? error.message : '';
  const known = words[`${String(error.reason)} ${String(error.detail)}`];
  if (known !== undefined) {
    return `${known} (${message})`;
  }
  if (error.reason === 'Discovery' && error.detail === 'status' && typeof error.httpStatus === 'number') {
    return `the card URL answered HTTP ${error.httpStatus}: is it the agent's /.well-known/agent-card.json? (${message})`;
  }
  return `the agent card was refused: ${message}`;
}
