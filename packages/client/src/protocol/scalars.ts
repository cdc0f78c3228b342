import * as z from 'zod/mini';
import { markPresence, protoEnumDefault, registerOneof, registerRead, struct } from './protojson.js';

/**
The rules of the protocol contract a decoded value can break, beyond zod's own issue codes (`invalid_type`,
…). Each becomes the `rule` of a public-safe `Violation`.
*/
export type ContractRule =
  | 'required'
  | 'invalid_type'
  | 'empty'
  | 'max-bytes'
  | 'whitespace'
  | 'control-character'
  | 'min-items'
  | 'max-items'
  | 'max-entries'
  | 'unique'
  | 'integer'
  | 'range'
  | 'enum'
  | 'unspecified'
  | 'oneof-none'
  | 'oneof-many'
  | 'timestamp'
  | 'url'
  | 'uri'
  | 'media-type'
  | 'base64'
  | 'json'
  | 'auth-required-message'
  | 'role'
  | 'push-config-task-id'
  | 'interface-url'
  | 'unknown-security-scheme'
  | 'api-key-location'
  | 'duplicate-key';

/** The payload a zod check receives. */
export type CheckPayload<T = unknown> = z.core.ParsePayload<T>;

/**
Records a break of `rule` at `path` (relative to the checked value). The message is the rule name: never
anything from the input.
*/
export function violate(payload: CheckPayload, rule: ContractRule, path: readonly PropertyKey[] = []): void {
  payload.issues.push({
    code: 'custom',
    input: payload.value,
    message: rule,
    params: { rule },
    path: [...path],
  });
}

const knownFields = new Set<string>();

/**
True for a property name that one of the protocol's object schemas declares. Any other key in an issue path
came from the input (a metadata key, a security scheme name) and is not repeated in a `Violation`.
*/
export function isKnownField(key: string): boolean {
  return knownFields.has(key);
}

/**
A ProtoJSON message: a stripping `z.object`, so unknown members are dropped, never refused (A2A spec §5.7:
unknown fields SHOULD be ignored). Its fields are registered for the ProtoJSON reading of `decode`
(protocol/protojson.ts), which sees proto names and defaults first; `presence` names the proto3 `optional`
scalars, whose default stays a value. Its member names join the public-safe vocabulary of violation paths.
*/
export function wireObject<const T extends z.core.$ZodLooseShape>(
  shape: T,
  presence: readonly (keyof T & string)[] = [],
): z.ZodMiniObject<T, z.core.$strip> {
  for (const key of Object.keys(shape)) {
    knownFields.add(key);
  }
  markPresence(shape, presence);
  return z.object(shape);
}

//// Scalars, lists, maps ////

/**
A JSON value of one type, as `z.string()`, `z.number()` or `z.boolean()` reads it, refused with their own
issue (`invalid_type`, which `decode` names `required` for a missing member). A `z.custom` with that one
check, the type named in its `params` (`json`), which every `.check()` clone keeps and which tells `decode`
the field's ProtoJSON default (`""`, 0, `false`; protocol/protojson.ts): the page then loads no zod type per
scalar, only the custom schema it has anyway. NaN and ±Infinity are no number, as for `z.number()`.
*/
function jsonScalar<T extends string | number | boolean>(
  json: 'string' | 'number' | 'boolean',
): z.ZodMiniCustom<T, T> {
  return z.custom<T>(undefined, { params: { json } }).check((payload) => {
    const value = payload.value;
    if (typeof value !== json || (json === 'number' && !Number.isFinite(value))) {
      payload.issues.push({ code: 'invalid_type', expected: json, input: value });
    }
  });
}

/** A ProtoJSON string: a JSON string; `""` is its default (docs/protocol-checks.md#protojson). */
export function protoString(): z.ZodMiniCustom<string, string> {
  return jsonScalar<string>('string');
}

/** A ProtoJSON bool: JSON `true` or `false`; `false` is its default. */
export const Bool = jsonScalar<boolean>('boolean');

/**
A ProtoJSON int32 within `[min, max]`: a JSON number (serializers never quote an int32); 0 is its default.
*/
export function int32(min = -2_147_483_648, max = 2_147_483_647): z.ZodMiniCustom<number, number> {
  return jsonScalar<number>('number').check((payload) => {
    if (!Number.isInteger(payload.value)) {
      violate(payload, 'integer');
    } else if (payload.value < min || payload.value > max) {
      violate(payload, 'range');
    }
  });
}

/** An array of `min..max` elements. */
export function items<const T extends z.core.SomeType>(
  element: T,
  min: number,
  max: number,
): z.ZodMiniArray<T> {
  return z.array(element).check((payload) => {
    const count = payload.value.length;
    if (count < min) {
      violate(payload, 'min-items');
    } else if (count > max) {
      violate(payload, 'max-items');
    }
  });
}

/**
A proto `map<string, V>` (ProtoJSON: a JSON object) of at most `maxEntries` entries, each key a `key` and each
value a `value`. Read by one transform rather than `z.record`, with the same verdicts: anything but a plain
object is `invalid_type`, the first key or value that breaks its schema is the violation (at that entry, `[*]`
in its path), and only a map whose entries all hold is counted against `maxEntries`. A `__proto__` entry
(which `JSON.parse` makes an own member) is an entry like any other: checked, counted and kept, never dropped
as `z.record` drops it. Marked as a map for `decode` (protocol/protojson.ts): `{}` is its default and its
values are read as ProtoJSON too.
*/
export function protoMap<const V extends z.core.$ZodType>(
  key: z.ZodMiniType<string, string>,
  value: V,
  maxEntries: number,
): z.ZodMiniTransform<Record<string, z.output<V>>, Record<string, z.input<V>>> {
  const read = (input: unknown, payload: z.core.ParsePayload): Record<string, z.output<V>> => {
    if (!isPlainObject(input)) {
      payload.issues.push({ code: 'invalid_type', expected: 'record', input });
      return z.NEVER;
    }
    const output: Record<string, z.output<V>> = {};
    let entries = 0;
    for (const name of Object.keys(input)) {
      const entry =
        readInto(key, name, payload, [name]) === z.NEVER
          ? z.NEVER
          : readInto(value, input[name], payload, [name]);
      if (entry === z.NEVER) {
        return z.NEVER;
      }
      // Defined, not assigned: assigning `__proto__` would set the output's prototype and lose the entry.
      Object.defineProperty(output, name, {
        value: entry,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      entries++;
    }
    if (entries > maxEntries) {
      violate(payload, 'max-entries');
      return z.NEVER;
    }
    return output;
  };
  registerRead(read, value, true);
  return struct(z.transform<Record<string, z.input<V>>, Record<string, z.output<V>>>(read));
}

/**
Reads `member` by `schema` inside a transform (`oneof`, `protoMap`, `boundedMessage`): its value, or `z.NEVER`
once its issues are on `payload`, each under `path`. A failure is read again with its input, as `decode` reads
a whole value, so that a missing member reads `required` (protocol/decode.ts); keeping inputs on every read
would cost about half the decode time of a page of parts.
*/
export function readInto(
  schema: z.core.$ZodType,
  member: unknown,
  payload: z.core.ParsePayload,
  path: readonly PropertyKey[] = [],
): unknown {
  const parsed = z.safeParse(schema, member);
  if (parsed.success) {
    return parsed.data;
  }
  for (const issue of z.safeParse(schema, member, { reportInput: true }).error?.issues ?? []) {
    payload.issues.push({ ...(issue as z.core.$ZodRawIssue), path: [...path, ...issue.path] });
  }
  return z.NEVER;
}

// A plain object as `z.record` admits it: from this realm or another, never an array, a Map or a class
// instance.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Flags the first element whose `key` repeats an earlier one; the path points at that element's member. */
export function checkUnique<T>(
  payload: CheckPayload<readonly T[]>,
  key: (element: T) => string,
  field: string,
): void {
  const seen = new Set<string>();
  const list = payload.value;
  for (let index = 0; index < list.length; index++) {
    const element = list[index] as T;
    const value = key(element);
    if (seen.has(value)) {
      violate(payload, 'unique', [index, field]);
      return;
    }
    seen.add(value);
  }
}

//// Enums ////

/**
A ProtoJSON enum whose `names` are listed in proto number order, `*_UNSPECIFIED` first. The full name string
is the A2A wire form (A2A spec §5.5); the integer a ProtoJSON serializer emits under its "enums as integers"
option is read too and normalised to the name, so callers only ever see names. `*_UNSPECIFIED` (name or 0), a
missing value (which ProtoJSON reads as UNSPECIFIED) and unknown values are refused.
*/
export function protoEnum<const T extends readonly [string, ...string[]]>(
  names: T,
): z.ZodMiniTransform<Exclude<T[number], T[0]>, Exclude<T[number], T[0]> | number> {
  type Name = Exclude<T[number], T[0]>;
  const valid = new Set<string>(names.slice(1));
  const schema = z.transform<Name | number, Name>((value: unknown, payload) => {
    if (typeof value === 'string' && valid.has(value)) {
      return value as Name;
    }
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value < names.length) {
      return names[value] as Name;
    }
    violate(
      payload,
      value === undefined ? 'required' : value === names[0] || value === 0 ? 'unspecified' : 'enum',
    );
    return z.NEVER;
  });
  return protoEnumDefault(schema, names[0]);
}

//// Oneofs ////

type Shape = Readonly<Record<string, z.core.SomeType>>;
type Flatten<T> = { [K in keyof T]: T[K] } & {};
type OutputOf<S extends Shape> = keyof S extends never
  ? unknown
  : z.core.$InferObjectOutput<S, Record<never, never>>;
type InputOf<S extends Shape> = keyof S extends never
  ? unknown
  : z.core.$InferObjectInput<S, Record<never, never>>;

/**
The decoded form of a ProtoJSON oneof: one object type per member, each with only that member plus the common
fields, so `'text' in part` narrows.
*/
export type OneOf<M extends Shape, C extends Shape> = {
  [K in keyof M & string]: Flatten<{ [P in K]: z.output<M[P]> } & OutputOf<C>>;
}[keyof M & string];

/** The accepted input of a ProtoJSON oneof. */
export type OneOfInput<M extends Shape, C extends Shape> = {
  [K in keyof M & string]: Flatten<{ [P in K]: z.input<M[P]> } & InputOf<C>>;
}[keyof M & string];

/**
A ProtoJSON oneof: exactly one of `members` is present, beside the `common` fields (A2A spec Appendix A.2.1: a
oneof is told apart by which member is present; there is no `kind`). The present member picks one plain object
schema, `{ member, ...common }`, which then decodes the value: no union that tries every member in turn, and
no optional wrapper for each absent member (half the cost of one object holding them all, on a page of parts).
*/
export function oneof<const M extends Shape, const C extends Shape>(
  members: M,
  common: C,
): z.ZodMiniType<OneOf<M, C>, OneOfInput<M, C>> {
  const keys = Object.keys(members);
  for (const key of [...keys, ...Object.keys(common)]) {
    knownFields.add(key);
  }
  // `decode` hands the oneof its canonical object (protocol/protojson.ts), so the variants are plain objects.
  const variants = new Map<string, z.ZodMiniType>(
    Object.entries(members).map(([key, member]) => [key, z.object({ [key]: member, ...common })]),
  );
  const dispatch = (value: unknown, payload: z.core.ParsePayload) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      payload.issues.push({ code: 'invalid_type', expected: 'object', input: value });
      return z.NEVER;
    }
    let present: string | undefined;
    let count = 0;
    for (const key of keys) {
      if ((value as Record<string, unknown>)[key] !== undefined) {
        present = key;
        count++;
      }
    }
    const variant = count === 1 && present !== undefined ? variants.get(present) : undefined;
    if (variant === undefined) {
      violate(payload, count === 0 ? 'oneof-none' : 'oneof-many');
      return z.NEVER;
    }
    // Paths are relative to this value, so the enclosing schemas prefix them as for any member.
    return readInto(variant, value, payload);
  };
  // Oneof members have presence: `null` is the only absent member (`{"message":{…},"task":null}` is one
  // member, `"task":{}` a second).
  registerOneof(dispatch, members, common);
  const schema = z.transform(dispatch);
  // The runtime is a dispatch; the declared type is the exact union it enforces.
  return schema as unknown as z.ZodMiniType<OneOf<M, C>, OneOfInput<M, C>>;
}
