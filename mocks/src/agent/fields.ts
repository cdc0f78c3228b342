/**
@module
Typed readers of one field of a request, each refusing a wrong type or range with `InvalidParams` and a
message naming the field's path, never its value.
*/
import { AgentError } from './remote-errors.js';

/**
A request's fields as one binding delivered them: JSON-RPC `params`, or REST path, query and body merged.
*/
export type Params = Readonly<Record<string, unknown>>;

/** The `InvalidParams` error of a refused field. */
export function invalid(message: string): AgentError {
  return new AgentError('InvalidParams', message);
}

/** True for a JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
The own field `key` of `object`, or `undefined`: an inherited name such as `__proto__` is never a field.
*/
export function field(object: Params, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** A string field, or `undefined` when absent. */
export function optionalString(object: Params, key: string, path: string): string | undefined {
  const value = field(object, key);
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw invalid(`${path} must be a string`);
  }
  return value;
}

/** A string field that proto3 leaves out when empty, so `''` reads as absent. */
export function optionalId(object: Params, key: string, path: string): string | undefined {
  const value = optionalString(object, key, path);
  return value === '' ? undefined : value;
}

/** A string field that must be present and non-empty. */
export function requiredId(object: Params, key: string, path: string): string {
  const value = optionalId(object, key, path);
  if (value === undefined) {
    throw invalid(`${path} is required`);
  }
  return value;
}

/** A whole-number field within `[min, max]`, or `undefined` when absent. */
export function optionalInt(
  object: Params,
  key: string,
  path: string,
  min: number,
  max: number,
): number | undefined {
  const value = field(object, key);
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalid(`${path} must be a whole number`);
  }
  if (value < min || value > max) {
    throw invalid(`${path} must be between ${min} and ${max}`);
  }
  return value;
}

/** A boolean field, or `undefined` when absent. */
export function optionalBoolean(object: Params, key: string, path: string): boolean | undefined {
  const value = field(object, key);
  if (value !== undefined && typeof value !== 'boolean') {
    throw invalid(`${path} must be true or false`);
  }
  return value;
}

/** A `google.protobuf.Struct` field: a JSON object when present. */
export function optionalStruct(object: Params, key: string, path: string): void {
  const value = field(object, key);
  if (value !== undefined && !isObject(value)) {
    // google.protobuf.Struct is a JSON object (A2A spec §5.5); a2a-rust refuses any other metadata at ingress
    // too.
    throw invalid(`${path} must be a JSON object`);
  }
}

/** A list-of-strings field, or `undefined` when absent. */
export function optionalStrings(object: Params, key: string, path: string): readonly string[] | undefined {
  const value = field(object, key);
  if (value === undefined) {
    return undefined;
  }
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw invalid(`${path} must be a list of strings`);
  }
  return value as string[];
}
