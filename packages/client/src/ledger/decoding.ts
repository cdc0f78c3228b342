/**
@module
How the ledger's schemas report a broken rule, and how a stored value is decoded with them (storage is an edge
too, CONTRIBUTING.md#schemas-and-types): the scalars every ledger schema shares (whole numbers, times,
digests) and `decodeLedger`, whose failure names one rule of a closed list, each listed in
docs/protocol-checks.md#ledger.
*/
import * as z from 'zod/mini';

/** The rules the ledger's own schemas check (`fail`), beyond the shapes zod checks. */
export const schemaRules = [
  'integer',
  'range',
  'digest',
  'message',
  'role',
  'message-not-canonical',
  'idempotency-key',
  'task-handle',
  'task-count',
  'task-repeated',
  'create-first',
  'expected-revision',
  'previous-digest',
  'intent-id',
  'attempt',
] as const;

/** A rule of the ledger's own schemas. */
export type SchemaRule = (typeof schemaRules)[number];

/**
The rules a decoding reports that the ledger's schemas borrow: zod's issue codes for a value of the wrong
shape (a wrong type, a value outside an enum or a literal, a member the strict objects do not know, no member
of a union), and the rules of the protocol's text and integer schemas the records use (`Id`, `Label`, `Url` in
protocol/text.ts, `int32` in protocol/scalars.ts). Any other code reads `invalid`, so a `LedgerError`'s rule
stays one of a closed list.
*/
export const borrowedRules = [
  'invalid_type',
  'invalid_value',
  'unrecognized_keys',
  'invalid_union',
  'empty',
  'max-bytes',
  'whitespace',
  'control-character',
  'url',
  'invalid',
] as const;

/** Pushes a ledger rule break; the message is the rule name, never the input. */
export function fail(
  payload: z.core.ParsePayload,
  rule: SchemaRule,
  path: readonly PropertyKey[] = [],
): void {
  payload.issues.push({
    code: 'custom',
    input: payload.value,
    message: rule,
    params: { rule },
    path: [...path],
  });
}

/** A whole number in `[min, max]`: a non-negative safe integer by default. */
export function whole(min = 0, max = Number.MAX_SAFE_INTEGER): z.ZodMiniNumber<number> {
  return z.number().check((payload) => {
    if (!Number.isSafeInteger(payload.value)) {
      fail(payload, 'integer');
    } else if (payload.value < min || payload.value > max) {
      fail(payload, 'range');
    }
  });
}

/** Milliseconds since the Unix epoch, as `Date.now()` gives them. */
export const Millis = whole();

/** A SHA-256 digest as `sha256:` and 64 lowercase hex digits, the form `cardDigest` produces. */
export const sha256DigestPattern = /^sha256:[0-9a-f]{64}$/;

/** A SHA-256 digest in the form of {@link sha256DigestPattern}. */
export const Sha256Digest = z.string().check((payload) => {
  if (!sha256DigestPattern.test(payload.value)) {
    fail(payload, 'digest');
  }
});

/** A decoding failure: the rule and a path made of the ledger's member names and array indexes only. */
export type LedgerDecodeFailure = { readonly rule: string; readonly path: string };

/**
Decodes a stored ledger value without throwing: `{ ok: true, value }` or
`{ ok: false, error: { rule, path } }`, the rule one of {@link schemaRules} or {@link borrowedRules}.

@example
```ts
const result = decodeLedger(LedgerRecord, await store.get(id));
if (!result.ok) { throw new LedgerError('corrupt', { rule: result.error.rule }); }
```
*/
export function decodeLedger<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
):
  | { readonly ok: true; readonly value: z.output<S>; readonly error?: never }
  | { readonly ok: false; readonly error: LedgerDecodeFailure; readonly value?: never } {
  const result = z.safeParse(schema, value);
  if (result.success) {
    return { ok: true, value: result.data };
  }
  const issue = result.error.issues[0];
  const { rule: custom } = issue?.code === 'custom' ? (issue.params ?? {}) : {};
  const named = typeof custom === 'string' ? custom : issue?.code;
  const known: readonly string[] = [...schemaRules, ...borrowedRules];
  const rule = named !== undefined && known.includes(named) ? named : 'invalid';
  let path = '$';
  for (const key of issue?.path ?? []) {
    path += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return { ok: false, error: { rule, path } };
}
