/**
@module
The JSON-RPC 2.0 envelope of an answer (JSON-RPC 2.0 §5; docs/protocol-checks.md#unary-answers): read and
checked to the letter, for the binding's answers (`jsonrpc.ts`), its refusals (`jsonrpc-error.ts`) and its
stream events (`jsonrpc-stream.ts`) alike.
*/
import { InvalidResponseError, type Violation } from '../core/errors.js';
import { isJsonObject, type JsonValue } from '../protocol/json-value.js';
import { failureInit } from './result.js';

/** A checked envelope: exactly one of `result` or `error`. */
export type Envelope = { readonly result: JsonValue } | { readonly error: JsonValue };

/**
Why `raw` is not the answer to request `id`, or the envelope it is. JSON-RPC 2.0 §5: `jsonrpc` is exactly
`"2.0"`, `id` is exactly the number sent (the string `"1"` is not 1), and exactly one of `result` and `error`
is present, where `"result": null` is present.
*/
export function readEnvelope(raw: JsonValue, id: number): Envelope | Violation {
  if (!isJsonObject(raw)) {
    return { rule: 'invalid_type', path: '$' };
  }
  const { jsonrpc, id: answered, result = null, error = null } = raw;
  if (jsonrpc !== '2.0') {
    return { rule: 'jsonrpc', path: '$.jsonrpc' };
  }
  if (answered !== id) {
    return { rule: 'id', path: '$.id' };
  }
  const hasResult = Object.hasOwn(raw, 'result');
  if (hasResult === Object.hasOwn(raw, 'error')) {
    return { rule: hasResult ? 'result-and-error' : 'no-result-or-error', path: '$' };
  }
  return hasResult ? { result } : { error };
}

export function isEnvelope(value: Envelope | Violation): value is Envelope {
  return 'result' in value || 'error' in value;
}

export function envelopeError(violation: Violation, httpStatus?: number): InvalidResponseError {
  return new InvalidResponseError('jsonrpc-envelope', { ...failureInit(httpStatus), violation });
}
