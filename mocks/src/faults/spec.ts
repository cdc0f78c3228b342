/**
@module
Checking a fault spec (internal to `faults.ts`, which re-exports it): a known `kind`, the fields of that kind
and of the target only, every parameter in its range. Refusals name the field with a fixed message and never
echo the input.
*/

import { operationNames } from '@surecall/client/protocol';
import { isRecord } from './documents.js';
import type { FaultKind, FaultSpec, FaultSpecResult } from './fault-types.js';

const kinds = [
  'drop-before',
  'drop-after',
  'delay',
  'status-after',
  'cut-stream',
  'premature-eof',
  'duplicate-keys',
  'wrong-jsonrpc-id',
  'result-and-error',
  'two-union-members',
  'wrong-media-type',
  'html-413',
  'redirect',
  'oversized-sse-line',
  'blocking-submitted',
  'different-task-id',
  'altered-history',
  'altered-data',
  'foreign-message-ids',
  'bad-status-details',
] as const satisfies readonly FaultKind[];

const maxCount = 1_000_000;

type Check = (value: unknown) => string | undefined;
type ParamRule = { readonly required: boolean; readonly check: Check };

const integer =
  (min: number, max: number): Check =>
  (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
      ? undefined
      : `must be a whole number from ${min} to ${max}`;
const oneOf =
  (...allowed: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && allowed.includes(value)
      ? undefined
      : `must be one of: ${allowed.join(', ')}`;
const text =
  (maxLength: number): Check =>
  (value) =>
    typeof value === 'string' && value.length > 0 && value.length <= maxLength
      ? undefined
      : `must be a non-empty string of at most ${maxLength} characters`;
const jsonValue =
  (maxBytes: number): Check =>
  (value) => {
    let serialized: string | undefined;
    try {
      serialized = JSON.stringify(value);
    } catch {
      // A cycle or a BigInt: no JSON value.
    }
    return serialized !== undefined && new TextEncoder().encode(serialized).length <= maxBytes
      ? undefined
      : `must be a JSON value of at most ${maxBytes} bytes`;
  };
const location: Check = (value) => {
  const problem = text(2048)(value);
  if (problem !== undefined || typeof value !== 'string') {
    return problem;
  }
  return value.startsWith('/') || /^https?:\/\//.test(value) ? undefined : 'must be a path or an http(s) URL';
};

const optional = (check: Check): ParamRule => ({ required: false, check });
const required = (check: Check): ParamRule => ({ required: true, check });
const frameRule = { frame: optional(integer(0, 65_535)) };

const paramRules: { readonly [K in FaultKind]: Readonly<Record<string, ParamRule>> } = {
  'drop-before': {},
  'drop-after': {},
  delay: { ms: required(integer(0, 600_000)), when: optional(oneOf('before', 'after')) },
  'status-after': {
    status: optional(integer(500, 599)),
    body: optional(oneOf('plain', 'empty')),
    retryAfterSeconds: optional(integer(0, 86_400)),
  },
  'cut-stream': { afterFrames: required(integer(0, 65_535)) },
  'premature-eof': { afterFrames: optional(integer(0, 65_535)) },
  'duplicate-keys': frameRule,
  'wrong-jsonrpc-id': frameRule,
  'result-and-error': frameRule,
  'two-union-members': frameRule,
  'wrong-media-type': {},
  'html-413': {},
  redirect: { location: optional(location) },
  'oversized-sse-line': { bytes: optional(integer(2, 64 * 1024 * 1024)) },
  'blocking-submitted': {},
  'different-task-id': { ...frameRule, taskId: optional(text(256)) },
  'altered-history': { ...frameRule, text: optional(text(4096)) },
  'altered-data': { ...frameRule, data: optional(jsonValue(1024 * 1024)) },
  'foreign-message-ids': {
    ...frameRule,
    member: optional(oneOf('contextId', 'taskId')),
    where: optional(oneOf('reply', 'status', 'history')),
  },
  'bad-status-details': { details: optional(oneOf('malformed', 'other-code', 'foreign-reason')) },
};

const targetRules: Readonly<Record<string, ParamRule>> = {
  operation: required(oneOf(...operationNames, '*')),
  binding: optional(oneOf('JSONRPC', 'HTTP+JSON', 'GRPC')),
  count: optional(integer(1, maxCount)),
};

function isKind(value: unknown): value is FaultKind {
  return typeof value === 'string' && (kinds as readonly string[]).includes(value);
}

/**
Check an untrusted value (a `POST /__faults` body) against the fault spec: known `kind`, known fields only,
every parameter in range. Never throws.

@example
```ts
const result = safeParseFaultSpec({ kind: 'delay', operation: 'GetTask', ms: 50 });
if (!result.ok) console.log(result.error.field, result.error.message);
```
*/
export function safeParseFaultSpec(input: unknown): FaultSpecResult {
  const fail = (field: string, message: string): FaultSpecResult => ({
    ok: false,
    error: { field, message },
  });
  if (!isRecord(input)) {
    return fail('', 'a fault spec must be a JSON object');
  }
  const { kind } = input;
  if (!isKind(kind)) {
    return fail('kind', `must be one of: ${kinds.join(', ')}`);
  }
  const rules = { ...targetRules, ...paramRules[kind] };
  for (const field of Object.keys(input)) {
    if (field !== 'kind' && rules[field] === undefined) {
      // The name comes from the input: cut it, so an answer never carries a large piece of a request back.
      return fail(field.slice(0, 64), `is not a field of a ${kind} fault`);
    }
  }
  for (const [field, rule] of Object.entries(rules)) {
    const value = input[field];
    if (value === undefined) {
      if (rule.required) {
        return fail(field, 'is required');
      }
      continue;
    }
    const problem = rule.check(value);
    if (problem !== undefined) {
      return fail(field, problem);
    }
  }
  // Every field was checked against the rules of its kind just above.
  return { ok: true, value: input as FaultSpec };
}

/**
Like {@link safeParseFaultSpec}, but throws a `TypeError` naming the refused field.

@example
```ts
const spec = parseFaultSpec(JSON.parse(body));
```
*/
export function parseFaultSpec(input: unknown): FaultSpec {
  const result = safeParseFaultSpec(input);
  if (!result.ok) {
    const field = result.error.field === '' ? 'fault spec' : `fault field "${result.error.field}"`;
    throw new TypeError(`Invalid ${field}: ${result.error.message}`);
  }
  return result.value;
}
