/**
@module
Builders for the message a client sends and its parts (A2A spec §4.1.4, §4.1.6): the values are the plain wire
types, so a builder is never needed, only shorter. Each builder decodes what it built with the very schema a
send checks (docs/protocol-checks.md#requests), so a bad part (an empty URL, a `data` that is not JSON, a part
list over the bound) is refused here, with the rule and the field path, rather than at the send.

@example
```ts
import { dataPart, fileUrlPart, textPart, userMessage } from '@surecall/client';

const message = userMessage([
  textPart('Summarise the attached report'),
  fileUrlPart('https://files.example/report.pdf', { mediaType: 'application/pdf' }),
  dataPart({ pages: [1, 2] }),
]);
await client.sendMessage({ message });
```
*/
import { RequestError } from '../core/errors.js';
import { decode } from '../protocol/decode.js';
import type { JsonObject, JsonValue } from '../protocol/json-value.js';
import { Message, Part } from '../protocol/message.js';

/** What every part may carry besides its content. */
export type PartOptions = {
  readonly mediaType?: string;
  readonly filename?: string;
  readonly metadata?: JsonObject;
};

/** What a message may carry besides its parts. `messageId` defaults to a fresh `crypto.randomUUID()`. */
export type MessageOptions = {
  readonly messageId?: string;
  readonly contextId?: string;
  readonly taskId?: string;
  readonly metadata?: JsonObject;
  readonly extensions?: readonly string[];
  readonly referenceTaskIds?: readonly string[];
};

function checked<T>(schema: typeof Part | typeof Message, value: T, field: string): T {
  const decoded = decode(schema, value);
  if (!decoded.ok) {
    // The decoder's paths start at the value (`$.parts.0.url`); name the builder's argument instead.
    const path = decoded.error.violation.path?.replace(/^\$/, field) ?? field;
    throw new RequestError('invalid-params', { violation: { ...decoded.error.violation, path } });
  }
  return value;
}

function part<T extends object>(content: T, options: PartOptions | undefined): T & PartOptions {
  return checked(Part, { ...content, ...options } as T & PartOptions, 'part');
}

/** A text part: `{ text }`. */
export function textPart(text: string, options?: PartOptions): Part {
  return part({ text }, options);
}

/** A structured-data part: `{ data }`, any JSON value. */
export function dataPart(data: JsonValue, options?: PartOptions): Part {
  return part({ data }, options);
}

/** A file by reference: `{ url }`, with its `mediaType` and `filename` where known. */
export function fileUrlPart(url: string, options?: PartOptions): Part {
  return part({ url }, options);
}

/**
A `ROLE_USER` message: from one text, one part or a list of parts; a fresh `messageId` unless one is given.
*/
export function userMessage(parts: string | Part | readonly Part[], options: MessageOptions = {}): Message {
  const list =
    typeof parts === 'string' ? [{ text: parts }] : Array.isArray(parts) ? [...parts] : [parts as Part];
  const { messageId = crypto.randomUUID(), extensions, referenceTaskIds, ...rest } = options;
  const message = {
    messageId,
    role: 'ROLE_USER',
    parts: list,
    ...rest,
    ...(extensions === undefined ? {} : { extensions: [...extensions] }),
    ...(referenceTaskIds === undefined ? {} : { referenceTaskIds: [...referenceTaskIds] }),
  } as Message;
  return checked(Message, message, 'message');
}
