/**
@module
Builds a client for the agent the standalone devtools are pointed at, through the client's own discovery
(docs/protocol-checks.md#discovery-steps): `fetchAgentCard` to read the card and its digest, the pin chosen
from the card unless one was given, then `discover`, which fetches the card again under the chosen trust and
refuses whatever breaks its rules. The devtools only add defaults a person would otherwise type.
*/
import {
  type A2aClient,
  type CardTrust,
  DiscoveryError,
  discover,
  fetchAgentCard,
  type InterfacePin,
  type JsonValue,
  OptionsError,
  type SecurityOptions,
} from '@surecall/client';
import type { CardRequest, SecurityChoice, TrustChoice } from '../model/agent-view.js';
import { type ConnectRequest, choosePin } from './connection.js';

/** A client and what it was built from. */
export type Connection = {
  readonly client: A2aClient;
  readonly cardUrl: string;
  /** The card's JSON as fetched, unknown members included: what the digest covers. */
  readonly rawCard: JsonValue;
  readonly pin: InterfacePin;
  readonly security: SecurityChoice;
  readonly trust: TrustChoice;
  /** `plain-fallback` when either card fetch fell back to a plain GET (docs/interop.md#browsers). */
  readonly cardRequest: CardRequest;
  readonly extensions: readonly string[];
  /** The origin of the card: where a mock agent serves its fault lab (`/__faults`, `/__executions`). */
  readonly origin: string;
  /** The control token of a loopback mock agent, when the card URL carried one (`#mock-token=`). */
  readonly mockToken?: string;
};

/** The step a connection failed at: reading the card, choosing its interface, or discovery proper. */
export type ConnectStep = 'fetch' | 'digest' | 'interface' | 'discover';

/**
Why the devtools could not connect. The message holds only the client's public-safe names, never the peer's
text.
*/
export class ConnectError extends Error {
  override readonly name = 'ConnectError';
  readonly step: ConnectStep;
  constructor(step: ConnectStep, message: string, options?: ErrorOptions) {
    super(message, options);
    this.step = step;
  }
}

function because(error: unknown): string {
  if (error instanceof DiscoveryError) {
    const detail = error.detail === undefined ? '' : ` (${error.detail})`;
    const status = error.httpStatus === undefined ? '' : `, HTTP ${error.httpStatus}`;
    const option = error.option === undefined ? '' : `, option ${error.option}`;
    const rule = error.violation === undefined ? '' : `, ${error.violation.rule} at ${error.violation.path}`;
    return `${error.reason}${detail}${status}${option}${rule}`;
  }
  if (error instanceof OptionsError) {
    return `option ${error.option}: ${error.reason}`;
  }
  return 'an unexpected failure';
}

function security(request: ConnectRequest): { options: SecurityOptions; choice: SecurityChoice } {
  const bearer = request.bearer;
  if (bearer === undefined) {
    return { options: { kind: 'anonymous' }, choice: { kind: 'anonymous' } };
  }
  return {
    options: { kind: 'bearer', scheme: bearer.scheme, token: async () => bearer.token },
    choice: { kind: 'bearer', scheme: bearer.scheme },
  };
}

/**
Connects to the agent whose card `request.cardUrl` serves. `http:` card URLs are admitted on literal loopback
addresses only (`loopback: true`), as `discover` rules.

@example
```ts
const connection = await connect({ cardUrl: 'http://127.0.0.1:4100/.well-known/agent-card.json' });
connection.client.events.subscribe(console.log);
```
*/
export async function connect(request: ConnectRequest, signal?: AbortSignal): Promise<Connection> {
  let cardRequest: CardRequest = 'versioned';
  const reading = {
    cardUrl: request.cardUrl,
    loopback: true,
    // A page of another origin than the agent's: its card request may fall back to a plain GET.
    onEvent: () => {
      cardRequest = 'plain-fallback';
    },
    ...(signal === undefined ? {} : { signal }),
  };
  let fetched: Awaited<ReturnType<typeof fetchAgentCard>>;
  try {
    fetched = await fetchAgentCard(reading);
  } catch (cause) {
    throw new ConnectError('fetch', `The card could not be read: ${because(cause)}`, { cause });
  }
  if (request.digest !== undefined && request.digest !== fetched.digest) {
    throw new ConnectError('digest', 'The card’s digest is not the expected one');
  }
  const pin = choosePin(fetched.card, request);
  if (pin === undefined) {
    throw new ConnectError(
      'interface',
      'The card lists no A2A 1.0 JSON-RPC or HTTP+JSON interface matching the pin',
    );
  }
  const trust: TrustChoice =
    request.digest !== undefined
      ? 'expected-digest'
      : new URL(request.cardUrl).protocol === 'https:'
        ? 'tls'
        : 'first-fetch-digest';
  const cardTrust: CardTrust = trust === 'tls' ? { kind: 'tls' } : { kind: 'digest', digest: fetched.digest };
  const chosen = security(request);
  try {
    const client = await discover({ ...reading, pins: [pin], trust: cardTrust, security: chosen.options });
    return {
      client,
      cardUrl: request.cardUrl,
      rawCard: fetched.raw,
      pin,
      security: chosen.choice,
      trust,
      cardRequest,
      extensions: [],
      origin: new URL(request.cardUrl).origin,
      ...(request.mockToken === undefined ? {} : { mockToken: request.mockToken }),
    };
  } catch (cause) {
    throw new ConnectError('discover', `Discovery refused the agent: ${because(cause)}`, { cause });
  }
}
