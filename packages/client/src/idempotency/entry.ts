/**
@module
`@surecall/client/idempotency`: the server's half of the a2a-rust idempotency extension, for an agent that
honours keys (the mock agent uses it): read and check a message's key, the refusal texts, and the extension's
constants. A client needs only `newIdempotencyKey`, `setKey` and `honoursIdempotency`, from
`@surecall/client`. Both halves use the same rules, so an agent built on these can never disagree with the
client on what a key is.
*/

export type { KeyError, KeyedMessage, KeyResult } from './key.js';
export {
  declaresExtension,
  idempotencyExtensionUri,
  idempotencyMetadataKey,
  keyErrorText,
  keyOf,
  maxKeyLength,
  minKeyLength,
  validateKey,
} from './key.js';
