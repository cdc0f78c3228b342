/**
@module
The one bounded fetch of an agent's public card (docs/protocol-checks.md#discovery-steps, steps 5-8 and 10),
shared by `discover()` and `fetchAgentCard()`: the GET with `A2A-Version: 1.0` and its one plain fallback in a
page, the answer's status, media type and strict JSON, its failures as `DiscoveryError`s, and the card
contract.
*/

import type { DiscoveryEvent } from '../client/events.js';
import { loadDeferred } from '../client/loader.js';
import { type AdmittedVersions, functionOption } from '../client/options.js';
import {
  DiscoveryError,
  HttpProtocolError,
  InvalidResponseError,
  RequestError,
  TransportError,
} from '../core/errors.js';
import type { JsonValue } from '../core/json-value.js';
import type { Limits } from '../core/limits.js';
import { optionalMembers } from '../core/optional-members.js';
import { AgentCard } from '../protocol/agent-card.js';
import { decode } from '../protocol/decode.js';
import { isKnownField } from '../protocol/scalars.js';
import { exchange, type FetchFunction, type HttpUnaryResponse } from '../wire/http.js';
import { JsonError, jsonLimitsFrom, parseJson } from '../wire/json.js';

function fetchFailure(error: unknown): unknown {
  if (error instanceof TransportError) {
    // A unary exchange has no idle bound; should one ever fire, it is the deadline's kind of failure.
    return new DiscoveryError('Discovery', {
      detail: error.reason === 'idle' ? 'timeout' : error.reason,
      cause: error,
    });
  }
  if (error instanceof HttpProtocolError) {
    return new DiscoveryError('Discovery', {
      detail: error.reason === 'redirect' ? 'redirect' : 'media-type',
      httpStatus: error.httpStatus,
      cause: error,
    });
  }
  if (error instanceof InvalidResponseError) {
    // docs/protocol-checks.md#discovery-steps, step 7: a card over the ceiling is an invalid card, not a
    // failed fetch.
    return new DiscoveryError('InvalidAgentCard', {
      detail: 'body-too-large',
      httpStatus: error.httpStatus,
      violation: { rule: 'responseBodyBytes' },
      cause: error,
    });
  }
  if (error instanceof RequestError && error.reason === 'aborted') {
    return new DiscoveryError('Discovery', { detail: 'aborted', cause: error });
  }
  return error;
}

/** What the card fetch is given: the card URL and the fetch options of `FetchAgentCardOptions`. */
export type CardFetch = {
  readonly cardUrl: string;
  readonly signal?: AbortSignal | undefined;
  readonly fetch?: FetchFunction | undefined;
  readonly onEvent?: ((event: DiscoveryEvent) => void) | undefined;
};

// docs/protocol-checks.md#discovery-steps, steps 5-8: one anonymous GET under one deadline over headers and
// body, no redirect, a JSON media type, a bounded body, strict JSON. It carries `A2A-Version: 1.0` (A2A spec
// §3.6.2: a request without it is served as 0.3, and a server with v0.3 compatibility answers such a card
// request with its v0.3 card); a page whose cross-origin request fails before any answer, as a refused
// preflight does, asks once more without it (docs/interop.md#browsers).
export async function fetchCardJson(request: CardFetch, limits: Limits, plain = false): Promise<JsonValue> {
  const { cardUrl, signal, fetch, onEvent } = request;
  let response: HttpUnaryResponse;
  try {
    response = await exchange({
      method: 'GET',
      url: cardUrl,
      accept: 'json',
      a2aVersion: !plain,
      limits: {
        requestBodyBytes: limits.requestBodyBytes,
        responseBodyBytes: limits.responseBodyBytes,
        requestTimeoutMs: limits.discoveryTimeoutMs,
      },
      ...optionalMembers({ signal, fetch }),
    });
  } catch (error) {
    // The fallback's test loads on demand (discovery/card-fallback.ts): only a failed fetch needs it.
    if (
      !plain &&
      error instanceof TransportError &&
      error.reason === 'network' &&
      (await loadDeferred(false).then(
        ({ cardFallback }) => cardFallback(cardUrl, onEvent),
        () => false,
      ))
    ) {
      return fetchCardJson(request, limits, true);
    }
    throw fetchFailure(error);
  }
  const { status } = response;
  if (status < 200 || status > 299) {
    throw new DiscoveryError('Discovery', { detail: 'status', httpStatus: status });
  }
  // Step 6: a card is JSON; an answer with no Content-Type is refused, even an empty one.
  if (response.mediaType !== 'json') {
    throw new DiscoveryError('Discovery', { detail: 'media-type', httpStatus: status });
  }
  try {
    // The path names the card's own member names only: any other key is the peer's text.
    return parseJson(response.body, jsonLimitsFrom(limits), isKnownField);
  } catch (error) {
    if (error instanceof JsonError) {
      throw new DiscoveryError('InvalidAgentCard', { detail: 'json', violation: error.toViolation() });
    }
    throw error;
  }
}

export function checkCardFetch(options: CardFetch): CardFetch {
  functionOption(options.fetch, 'fetch');
  functionOption(options.onEvent, 'onEvent');
  return options;
}

export async function decodeCard(raw: JsonValue, versions?: AdmittedVersions): Promise<AgentCard> {
  // A client that speaks 0.3 reads a v0.3 card as the v1.0 card it maps to, which the 1.0 contract then
  // holds like any other (docs/protocol-checks.md#v03-peers).
  const result = decode(AgentCard, versions?.card(raw) ?? raw);
  if (!result.ok) {
    // A v0.3 card names its version at its top, a 1.0 card on each interface (A2A spec §8.3.2): a card that
    // fails the 1.0 contract and says it is v0.3 is refused by its version, not by the first member a 1.0
    // card must have, unless this client speaks 0.3. That test loads on demand
    // (discovery/version-refusal.ts): only a refused card needs it, and should it fail to load, the
    // contract's refusal stands.
    throw (
      (!versions &&
        (await loadDeferred(false).then(
          ({ v03Card }) => v03Card(raw),
          () => undefined,
        ))) ||
      new DiscoveryError('InvalidAgentCard', { detail: 'schema', violation: result.error.violation })
    );
  }
  return result.value;
}
