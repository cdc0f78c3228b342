/**
@module
surecall: an A2A v1.0 client that records every send before it leaves, checks every answer strictly, and resolves every ambiguous outcome by evidence, never by a blind re-send.
*/

export type {
  AuthorizationReason,
  ClientError,
  ErrorKind,
  HttpProtocolReason,
  InvalidResponseReason,
  OptionsReason,
  RequestReason,
  TransportReason,
  Violation,
} from './errors.js';
export {
  A2aClientError,
  AuthorizationError,
  CapabilityError,
  HttpProtocolError,
  InvalidResponseError,
  isClientError,
  OptionsError,
  RemoteError,
  RequestError,
  TransportError,
} from './errors.js';
export type { Limits, LimitsOptions } from './limits.js';
export { defaultLimits, limitCeilings, resolveLimits } from './limits.js';
