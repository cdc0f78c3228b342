import * as z from 'zod/mini';
import type { JsonValue } from '../core/json-value.js';
import { contractBounds } from './bounds.js';
import { registerRead, struct } from './protojson.js';
import { readInto, violate } from './scalars.js';
import { labelRule, withinBytes } from './text.js';

// Any JSON value, the ProtoJSON form of `google.protobuf.Value` (`Part.data`): the very type the bounded JSON
// parser yields.
export type { JsonValue } from '../core/json-value.js';

/** A JSON object: the ProtoJSON form of `google.protobuf.Struct` (`metadata`, `params`). */
export type JsonObject = { [key: string]: JsonValue };

/** True for a non-null, non-array object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
Whether `value` is JSON whose compact serialization fits in `maxBytes`: `'json'` when it cannot be serialized
at all (a cycle, a BigInt, `undefined`), `'max-bytes'` when it is too large. Never throws.
*/
export function compactJsonRule(value: unknown, maxBytes: number): 'json' | 'max-bytes' | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return 'json';
  }
  if (typeof text !== 'string') {
    return 'json';
  }
  return withinBytes(text, maxBytes) ? undefined : 'max-bytes';
}

/**
Bounded free-form metadata (`google.protobuf.Struct`): at most 256 entries, each key a label of at most 512 B,
at most 256 KiB as compact JSON (ARCHITECTURE.md#bounds). The object is kept as received: its content is the
peer's, not ours to strip.
*/
export function boundedStruct(maxEntries: number, maxBytes: number): z.ZodMiniCustom<JsonObject, JsonObject> {
  const schema = z.custom<JsonObject>(isJsonObject, { params: { rule: 'invalid_type' } }).check((payload) => {
    const keys = Object.keys(payload.value);
    if (keys.length > maxEntries) {
      violate(payload, 'max-entries');
      return;
    }
    for (const key of keys) {
      const rule = labelRule(key, contractBounds.labelBytes);
      if (rule !== undefined) {
        // The key itself never reaches the path: it is the peer's text.
        violate(payload, rule);
        return;
      }
    }
    const rule = compactJsonRule(payload.value, maxBytes);
    if (rule !== undefined) {
      violate(payload, rule);
    }
  });
  return struct(schema);
}

/** `metadata` on messages, parts, artifacts, tasks, events and requests. */
export const Metadata = boundedStruct(contractBounds.metadataEntries, contractBounds.metadataBytes);

/**
A message bounded as received: at most `maxBytes` of compact JSON, unknown members included, counted before
`schema` walks it (`max-bytes`); then read by `schema`. A value `JSON.stringify` cannot write is left for
`schema` to refuse.
*/
export function boundedMessage<const T extends z.core.$ZodType>(
  schema: T,
  maxBytes: number,
): z.ZodMiniTransform<z.output<T>, unknown> {
  const read = (input: unknown, payload: z.core.ParsePayload): z.output<T> => {
    if (compactJsonRule(input, maxBytes) === 'max-bytes') {
      violate(payload, 'max-bytes');
      return z.NEVER;
    }
    return readInto(schema, input, payload) as z.output<T>;
  };
  registerRead(read, schema, false);
  return z.transform(read);
}
