/**
@module
What a record keeps of a failure (docs/durable-send.md#after-dispatch): a public-safe summary of a client
error, fitted to the record's bounds so that no answer a peer can send makes the record refuse it.
*/
import * as z from 'zod/mini';
import { contractBounds } from '../protocol/bounds.js';
import { int32 } from '../protocol/scalars.js';
import { Label, labelRule, utf8Length } from '../protocol/text.js';
import { whole } from './decoding.js';

/**
A public-safe summary of an error: the `toJSON()` fields of a client error, nothing else. It is all a record
keeps of a failure, so no remote text, body, token or URL can reach the ledger.
*/
export const ErrorSummary = z.strictObject({
  name: Label,
  kind: Label,
  reason: Label,
  dispatched: z.boolean(),
  httpStatus: z.optional(whole(100, 599)),
  remoteCode: z.optional(int32()),
  violation: z.optional(
    z.strictObject({ rule: Label, offset: z.optional(whole()), path: z.optional(Label) }),
  ),
});
/** A public-safe summary of an error. */
export type ErrorSummary = z.infer<typeof ErrorSummary>;

// Marks a path cut short to fit its field.
const cut = '…';

/**
A violation path shortened to the label bound: whole segments (`.name`, `[3]`, `[*]`) from the start, then
`…`.
*/
function fitPath(path: string): string {
  const room = contractBounds.labelBytes - utf8Length(cut);
  let end = 0;
  let bytes = 0;
  for (const char of path) {
    bytes += utf8Length(char);
    if (bytes > room) {
      break;
    }
    end += char.length;
  }
  const boundary = Math.max(path.lastIndexOf('.', end), path.lastIndexOf('[', end));
  return `${path.slice(0, boundary > 0 && boundary <= end ? boundary : end)}${cut}`;
}

function isInteger(value: unknown, min: number, max: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
}

/**
The summary as a record can always keep it (docs/durable-send.md#after-dispatch): after dispatch nothing may
stop a record from leaving `executing`, and part of a summary comes from the peer (how deep its answer nested,
which status it sent). A violation path over the label bound is cut to whole segments and marked `…`; a label
or number the schema would refuse is dropped (an optional field) or replaced by `unnamed` (a required one). A
summary the schema accepts is returned as it is.

@example
```ts
fitErrorSummary({ name: 'InvalidResponseError', kind: 'invalid-response', reason: 'json', dispatched: true, violation: { rule: 'depth', path: '$' + '[0]'.repeat(300) } }).violation?.path; // '$[0][0]…[0]…', 512 bytes at most
```
*/
export function fitErrorSummary(summary: ErrorSummary): ErrorSummary {
  if (z.safeParse(ErrorSummary, summary).success) {
    return summary;
  }
  const label = (text: unknown): string | undefined =>
    typeof text !== 'string'
      ? undefined
      : labelRule(text, contractBounds.labelBytes) === undefined
        ? text
        : undefined;
  const { violation, httpStatus, remoteCode } = summary;
  let path: string | undefined;
  if (typeof violation?.path === 'string') {
    path = label(violation.path) ?? label(fitPath(violation.path));
  }
  return {
    name: label(summary.name) ?? 'unnamed',
    kind: label(summary.kind) ?? 'unnamed',
    reason: label(summary.reason) ?? 'unnamed',
    dispatched: summary.dispatched === true,
    ...(isInteger(httpStatus, 100, 599) ? { httpStatus } : {}),
    ...(isInteger(remoteCode, -2_147_483_648, 2_147_483_647) ? { remoteCode } : {}),
    ...(violation === undefined
      ? {}
      : {
          violation: {
            rule: label(violation.rule) ?? 'unnamed',
            ...(isInteger(violation.offset, 0, Number.MAX_SAFE_INTEGER) ? { offset: violation.offset } : {}),
            ...(path === undefined ? {} : { path }),
          },
        }),
  };
}
