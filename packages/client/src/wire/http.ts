import ky from 'ky';
import { AuthorizationError, HttpProtocolError, RequestError } from '../core/errors.js';
import type { Limits } from '../core/limits.js';
import { optionalMembers } from '../core/optional-members.js';
import { type Deadline, dispatchedFailure, halted, startDeadline, untilAborted } from './deadline.js';
import { classifyMediaType, type MediaType } from './media-type.js';
import { type CheckedExtraHeaders, type MediaKind, requestHeaders } from './request-headers.js';
import { cancelBody, readAll } from './response-body.js';

export type { MediaType } from './media-type.js';
export type {
  AnswerHead,
  CheckedExtraHeaders,
  CheckedTarget,
  ExtraHeaders,
  HeaderTarget,
  MediaKind,
} from './request-headers.js';

/** A `fetch` to send with: the platform's, or one the caller passed (`ClientOptions.fetch`). */
export type FetchFunction = (input: RequestInfo | URL, init: RequestInit) => Promise<Response>;

/** One HTTP exchange, fully built by a binding. Nothing here is ever copied into an error. */
export type HttpExchangeRequest = {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The absolute URL, already built by the binding. */
  readonly url: string;
  /** Serialized JSON, bounded by `limits.requestBodyBytes` in UTF-8 bytes. */
  readonly body?: string;
  /** The request media type, sent only with a body. @default 'application/json' */
  readonly contentType?: 'application/json' | 'application/a2a+json';
  /**
  `json` sends `Accept: application/a2a+json, application/json`; `sse` sends `Accept: text/event-stream`.
  */
  readonly accept: MediaKind;
  /**
  The binding's headers such as `A2A-Extensions`. `A2A-Version`, `Accept`, `Content-Type` and `Authorization`
  are set here and cannot be overridden.
  */
  readonly headers?: Readonly<Record<string, string>>;
  /**
  The caller's extra headers (`ClientOptions.headers`), checked before they arrive (`extra-headers.ts`) and
  never allowed to replace a protocol header (`request-headers.ts`).
  */
  readonly extraHeaders?: CheckedExtraHeaders;
  /**
  The `fetch` to send with; without one, `globalThis.fetch` as it is when the request leaves
  (ARCHITECTURE.md#import-rules).
  */
  readonly fetch?: FetchFunction;
  /**
  Bearer token provider, called once inside the deadline before dispatch. Anything but an RFC 6750 `b64token`
  string (`undefined`, `''`, a line break, another type) fails as `AuthorizationError('unavailable')`, never
  as an anonymous request. Leave it out to send no `Authorization`.
  */
  readonly authorize?: (signal: AbortSignal) => Promise<string>;
  /** The caller's cancellation; it also ends a live stream body. */
  readonly signal?: AbortSignal;
  /** The bounds of this exchange, from `resolveLimits()`. */
  readonly limits: Pick<Limits, 'requestBodyBytes' | 'responseBodyBytes' | 'requestTimeoutMs'>;
  /** Called immediately before `fetch`, once the request may reach the peer, with its method. */
  readonly onDispatch?: (method: HttpExchangeRequest['method']) => void;
  /**
  `false` leaves out `A2A-Version`: only for the card fetch's one fallback in a page whose cross-origin card
  request failed, as a refused CORS preflight does (docs/interop.md#browsers). @default true
  */
  readonly a2aVersion?: boolean;
};

/** A whole answer: the body is read, bounded by `limits.responseBodyBytes`. */
export type HttpUnaryResponse = {
  readonly status: number;
  readonly headers: Headers;
  readonly mediaType: MediaType;
  readonly body: Uint8Array;
};

// RFC 6750, §2.1: b64token. It also keeps a provider's token from injecting header lines.
const bearerToken = /^[A-Za-z0-9\-._~+/]+=*$/;
const encoder = new TextEncoder();

function invalidRequest(): RequestError {
  return new RequestError('invalid-params', { violation: { rule: 'request' } });
}

/**
The body as it is sent, once its UTF-8 size is known to be within `requestBodyBytes`. It stays a string: fetch
encodes it to UTF-8 once, exactly as `TextEncoder` would (lone surrogates included), so encoding it here too
would only copy it.
*/
function boundedBody(request: HttpExchangeRequest): string | undefined {
  const { body } = request;
  if (body === undefined) {
    return undefined;
  }
  const limit = request.limits.requestBodyBytes;
  // Every UTF-16 code unit takes one to three UTF-8 bytes (a surrogate pair, two units, takes four), so only
  // a body between limit/3 and limit code units needs counting.
  const fits = body.length * 3 <= limit || (body.length <= limit && encoder.encode(body).byteLength <= limit);
  if (!fits) {
    throw new RequestError('body-too-large', { violation: { rule: 'requestBodyBytes' } });
  }
  // Fetch standard, "new Request": a GET cannot carry a body. Ours bypasses ky's Request (see `http`), so it
  // is refused here.
  if (request.method === 'GET') {
    throw invalidRequest();
  }
  return body;
}

async function resolveToken(
  authorize: (signal: AbortSignal) => Promise<string>,
  deadline: Deadline,
): Promise<string> {
  let token: unknown;
  try {
    // A provider may ignore its signal: the deadline still ends the wait.
    token = await untilAborted(
      Promise.resolve().then(() => authorize(deadline.signal)),
      deadline.signal,
    );
  } catch {
    // docs/protocol-checks.md#dispatch-and-timing: a provider that fails or outlives the deadline is
    // `unavailable`, never dispatched.
    throw deadline.stop() === 'aborted' ? new RequestError('aborted') : new AuthorizationError('unavailable');
  }
  // docs/protocol-checks.md#token-provider: a client built with bearer security never sends anonymously; a
  // provider that has no token (`undefined`, `''`) failed as surely as one that threw, and the durable ledger
  // must see `not-started`, not an open outcome.
  if (typeof token !== 'string' || !bearerToken.test(token)) {
    throw new AuthorizationError('unavailable');
  }
  return token;
}

/**
The options of the one ky instance (`http` below), which never change: ky 2 retries GETs on network errors,
ends its 10 s timeout at the headers and throws on an error status, all ours to decide. A call adds its
method, from which ky builds a `Request`, and a `fetch` that sends the request's URL with its method, headers,
body, the deadline's signal and `redirect: 'manual'`. Given to ky, the body would be piped through an identity
stream when `fetch` wraps ky's `Request` again; the signal would be combined with ky's own controller; and the
headers, already checked and lowercase, would be copied through ky's defaults, its call options, its
`content-type` probe and the `Request`: all per call, and all unused here.
*/
export const kyOptions = Object.freeze({
  retry: 0,
  timeout: false,
  throwHttpErrors: false,
  // ARCHITECTURE.md#decisions: 'manual', because a browser reports redirect 'error' exactly like a lost
  // connection.
  redirect: 'manual',
} as const);

const http = ky.create(kyOptions);

/**
Token, dispatch and headers, under the deadline; ends with a response that is neither a redirect nor a
failure.
*/
export async function dispatch(
  request: HttpExchangeRequest,
): Promise<{ response: Response; deadline: Deadline }> {
  const body = boundedBody(request);
  // docs/protocol-checks.md#extra-headers: asked before the token, and checked by the caller
  // (`extra-headers.ts`).
  const extra = request.extraHeaders === undefined ? undefined : await request.extraHeaders(request);
  const headers = requestHeaders(request, body !== undefined, extra);
  if (request.signal?.aborted === true) {
    throw new RequestError('aborted');
  }
  const deadline = startDeadline(request.signal, request.limits.requestTimeoutMs);
  let dispatched = false;
  try {
    if (request.authorize !== undefined) {
      headers['authorization'] = `Bearer ${await resolveToken(request.authorize, deadline)}`;
    }
    let pending: Promise<Response>;
    try {
      pending = http(request.url, {
        method: request.method,
        // Looked up per call, never captured at load, so that MSW and instrumentation see every request.
        fetch: () => {
          if (deadline.signal.aborted) {
            return Promise.reject(halted);
          }
          dispatched = true;
          try {
            request.onDispatch?.(request.method);
          } catch {
            // An observer never changes the outcome of an exchange.
          }
          // Called as a plain function, never as a method of the request: a browser's fetch refuses any other
          // `this`. Given the URL and the whole init rather than ky's `Request`, from which `fetch` would
          // build a second `Request` (Fetch standard, "fetch" step 2), copying it and its headers: the
          // headers, already checked (`request-headers.ts`, `extra-headers.ts`), go into the one `fetch`
          // builds.
          const send = request.fetch ?? globalThis.fetch;
          return send(request.url, {
            method: request.method,
            headers,
            redirect: 'manual',
            signal: deadline.signal,
            ...optionalMembers({ body }),
          });
        },
      });
    } catch {
      throw invalidRequest();
    }
    let response: Response;
    try {
      response = await pending;
    } catch (error) {
      // Before dispatch the only way to fail is the guard above: the caller aborted first.
      throw dispatched ? dispatchedFailure(deadline, 'network', error) : new RequestError('aborted');
    }
    // A browser hides a manual redirect as an opaque-redirect response, whose status is always 0 (Fetch
    // standard).
    if (response.status === 0 || (response.status >= 300 && response.status < 400)) {
      cancelBody(response);
      throw new HttpProtocolError('redirect', {
        dispatched: true,
        ...(response.status === 0 ? {} : { httpStatus: response.status }),
      });
    }
    return { response, deadline };
  } catch (error) {
    deadline.release();
    throw error;
  }
}

export function wrongMedia(response: Response): HttpProtocolError {
  cancelBody(response);
  return new HttpProtocolError('media-type', { dispatched: true, httpStatus: response.status });
}

/**
Performs one unary HTTP exchange: no retry, no redirect, one deadline (`limits.requestTimeoutMs`) over the
token, the send, the headers and the whole body. A 2xx answer must carry the media type `accept` names (a
`json` request also admits an empty body with no `Content-Type`, returned as `none`); any other status is
returned for the binding to read as an A2A error.

@throws RequestError, AuthorizationError (not dispatched); TransportError, HttpProtocolError,
  InvalidResponseError (dispatched).
@example
```ts
const response = await exchange({
  method: 'POST',
  url: 'https://agent.example/a2a',
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'task-1' } }),
  accept: 'json',
  limits: resolveLimits(),
});
if (response.status === 200 && response.mediaType === 'json') parse(response.body);
```
*/
export async function exchange(request: HttpExchangeRequest): Promise<HttpUnaryResponse> {
  const { response, deadline } = await dispatch(request);
  try {
    const mediaType = classifyMediaType(response.headers.get('content-type'));
    const emptyAllowed = request.accept === 'json' && mediaType === 'none';
    if (response.ok && mediaType !== request.accept && !emptyAllowed) {
      throw wrongMedia(response);
    }
    const body = await readAll(response, request.limits.responseBodyBytes, deadline);
    if (response.ok && mediaType === 'none' && body.byteLength > 0) {
      throw new HttpProtocolError('media-type', { dispatched: true, httpStatus: response.status });
    }
    return { status: response.status, headers: response.headers, mediaType, body };
  } finally {
    deadline.release();
  }
}
