import * as z from 'zod/mini';
import { contractBounds } from './bounds.js';
import { compactJsonRule, type JsonValue, Metadata } from './json-value.js';
import { protoValue } from './protojson.js';
import { items, oneof, protoEnum, protoString, violate, wireObject } from './scalars.js';
import { Id, Label, MediaType, Uri, Url, withinBytes } from './text.js';

/**
Who sent a message (A2A spec §4.1.5): `ROLE_USER` is the client, `ROLE_AGENT` the server. `ROLE_UNSPECIFIED`,
a missing role and unknown values are refused.

@example
```ts
const role: Role = 'ROLE_USER';
```
*/
export const Role = protoEnum(['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT']);
/** A message sender. */
export type Role = z.infer<typeof Role>;

/**
Text content: any string, ≤ 1 MiB of UTF-8 (ARCHITECTURE.md#bounds). Empty text is content too: a oneof member
is present even at its default.
*/
const PartText = protoString().check((payload) => {
  if (!withinBytes(payload.value, contractBounds.partBytes)) {
    violate(payload, 'max-bytes');
  }
});

const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE_BASE64 = /^[A-Za-z0-9_-]*={0,2}$/;

/**
The decoded length of a ProtoJSON `bytes` value (standard or URL-safe base64, padded or not), or `undefined`
when it is not base64.
*/
export function base64DecodedLength(text: string): number | undefined {
  if (!STANDARD_BASE64.test(text) && !URL_SAFE_BASE64.test(text)) {
    return undefined;
  }
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x3d) {
    end--;
  }
  if ((end < text.length && text.length % 4 !== 0) || end % 4 === 1) {
    return undefined;
  }
  return Math.floor((end * 3) / 4);
}

/** Inline file bytes, base64 on the wire (`bytes`, ProtoJSON), ≤ 1 MiB decoded. */
const PartRaw = protoString().check((payload) => {
  const length = base64DecodedLength(payload.value);
  if (length === undefined) {
    violate(payload, 'base64');
  } else if (length > contractBounds.partBytes) {
    violate(payload, 'max-bytes');
  }
});

/** Structured content: any JSON value, `null` included (`google.protobuf.Value`), ≤ 1 MiB as compact JSON. */
const PartData = protoValue(
  z.custom<JsonValue>().check((payload) => {
    const rule = compactJsonRule(payload.value, contractBounds.partBytes);
    if (rule !== undefined) {
      violate(payload, rule);
    }
  }),
);

/**
One piece of content (A2A spec §4.1.6): exactly one of `text`, `raw` (base64 bytes), `url` or `data` (any JSON
value), with optional `metadata`, `filename` and `mediaType` on every kind. Narrow with `'text' in part`.

@example
```ts
const parts: Part[] = [
  { text: 'hi' },
  { raw: 'iVBORw0KGgo=', filename: 'a.png', mediaType: 'image/png' },
  { url: 'https://files.example/report.pdf', mediaType: 'application/pdf' },
  { data: { k: 1 }, mediaType: 'application/json' },
];
```
*/
export const Part = oneof(
  { text: PartText, raw: PartRaw, url: Url, data: PartData },
  { metadata: z.optional(Metadata), filename: z.optional(Label), mediaType: z.optional(MediaType) },
);
/** A piece of content; exactly one of `text`, `raw`, `url`, `data` is present. */
export type Part = z.infer<typeof Part>;

/**
The parts of a message or an artifact: 1..128 (A2A spec §5.7: a REQUIRED list has at least one element).
*/
export const Parts = items(Part, 1, contractBounds.partsPerMessage);

/**
One unit of communication (A2A spec §4.1.4). From the server it carries `contextId`, and `taskId` only when a
task exists; the bindings check that relation per operation.

`extensions` and `referenceTaskIds` stay optional rather than defaulting to `[]`: callers build messages with
this very type, and the durable scan compares a sent message with its echo in a task's history, so decoding
must not invent members the sender never wrote.

@example
```ts
const message: Message = {
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text: 'Summarise the attached report' }],
};
```
*/
export const Message = wireObject({
  messageId: Id,
  contextId: z.optional(Id),
  taskId: z.optional(Id),
  role: Role,
  parts: Parts,
  metadata: z.optional(Metadata),
  extensions: z.optional(items(Uri, 0, contractBounds.extensions)),
  referenceTaskIds: z.optional(items(Id, 0, contractBounds.referenceTaskIds)),
});
/** One unit of communication between client and agent. */
export type Message = z.infer<typeof Message>;
