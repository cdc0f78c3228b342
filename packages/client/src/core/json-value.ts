/**
@module
The one type of a parsed JSON value, on the ground floor so that the bounded parser (`wire/json.ts`),
canonical JSON (`canonical-json.ts`), the protocol's `google.protobuf.Value` (`protocol/json-value.ts`) and
the ledger share it without an arrow up (ARCHITECTURE.md#import-rules).
*/

/** A value `JSON.parse` can return. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
