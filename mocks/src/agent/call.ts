/**
@module
One call of an operation as the bindings hand it over and take its answer back: what a binding knows about the
call besides its fields, and what the operation answers. The operations and the send path both speak these, so
they live below both.
*/
import type { WireStreamResponse } from './wire.js';

/** What a binding knows about one call besides its fields. */
export type CallContext = {
  /** The tenant of the request; `''` when it names none. */
  readonly tenant: string;
  /** The `Authorization` header, if any. */
  readonly authorization: string | null;
  /** The request's origin, for the URLs of the extended card. */
  readonly origin: string;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
};

/** What an operation answers: one value, or a stream of events (SendStreamingMessage, SubscribeToTask). */
export type Outcome =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'stream'; readonly events: ReadableStream<WireStreamResponse> };
