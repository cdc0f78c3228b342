/**
@module
ProtoJSON as the proto's own parsers read it (the proto3 JSON mapping; docs/protocol-checks.md#protojson). A
printer may omit a field that holds its default or print it, write `null` for any field, use the original
proto field name (`context_id`) or the JSON name (`contextId`), and write an enum as its name or its number. A
parser reads all of them as one message. {@link canonical} turns a peer's JSON value into that one shape,
once, before any schema or check sees it: proto names become JSON names and members that mean "absent" are
dropped. Enum numbers are named by the enum schemas themselves (`protoEnum`).

The schemas say what the zod types do not as they are built: `wireObject` marks the proto3 `optional` fields,
`oneof` registers its members, and `protoEnum`, `struct` (with `protoMap`) and `protoValue` mark the field
types whose default no zod type tells; the scalars read by a `z.custom` (`protoString`, `Bool`, `int32`) name
their JSON type.
*/
import type * as z from 'zod/mini';

// An enum's default is its `*_UNSPECIFIED` name (or 0), a Struct's or a map's `{}`; a `google.protobuf.Value`
// has none (JSON `null` is the value NullValue).
const enumDefaults = new WeakMap<object, string>();
const structs = new WeakSet<object>();
const protoValues = new WeakSet<object>();

/** Marks `schema` as an enum whose default is `unspecified` (its `*_UNSPECIFIED` name). */
export function protoEnumDefault<T extends z.core.SomeType>(schema: T, unspecified: string): T {
  enumDefaults.set(schema, unspecified);
  return schema;
}

/** Marks `schema` as a `google.protobuf.Struct` or a proto map: `{}` is its default. */
export function struct<T extends z.core.SomeType>(schema: T): T {
  structs.add(schema);
  return schema;
}

/** Marks `schema` as a `google.protobuf.Value`: `null` is one of its values, never its absence. */
export function protoValue<T extends z.core.SomeType>(schema: T): T {
  protoValues.add(schema);
  return schema;
}

type Field = {
  /** The lowerCamelCase JSON name. */
  readonly name: string;
  /** True when `value` means the same as the field being absent. */
  readonly absent: (value: unknown) => boolean;
};

/** A message's fields under both their names. */
type Form = ReadonlyMap<string, Field>;

type Shape = Readonly<Record<string, z.core.SomeType>>;

// The field schemas of proto3 `optional` scalars, which keep presence: a printed default is a value.
const withPresence = new WeakSet<object>();

/**
Marks the field schemas of `names` in `shape` as having presence (proto3 `optional`): absent only as `null`.
*/
export function markPresence(shape: Shape, names: readonly string[]): void {
  for (const name of names) {
    const field = shape[name];
    if (field !== undefined) {
      withPresence.add(field);
    }
  }
}

/** Every field of `shape`, by its JSON and its proto name. */
function formOf(shape: Shape, hasPresence: (name: string, schema: z.core.SomeType) => boolean): Form {
  const form = new Map<string, Field>();
  for (const [name, schema] of Object.entries(shape)) {
    const field = { name, absent: absentRule(schema, hasPresence(name, schema)) };
    form.set(name, field);
    form.set(protoName(name), field);
  }
  return form;
}

// The original proto field name: `contextId` was `context_id`.
function protoName(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
The lowerCamelCase JSON name of a proto field name: `status_update` is `statusUpdate`; a JSON name is returned
as it is.
*/
export function jsonName(name: string): string {
  return name.includes('_')
    ? name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase())
    : name;
}

// An optional or defaulted field is read through its wrapper: the default a printer writes is the inner
// type's.
function innerOf(schema: z.core.SomeType): z.core.$ZodType {
  let current = schema as z.core.$ZodType;
  // Told apart by `def.type`, not `instanceof z.core.$ZodOptional`: reading a class off zod's `core`
  // namespace at run time keeps all of it (locales, JSON Schema) in a browser bundle
  // (`npm run bench -- client`).
  while (current._zod.def.type === 'optional' || current._zod.def.type === 'default') {
    current = (current as z.core.$ZodOptional | z.core.$ZodDefault)._zod.def.innerType;
  }
  return current;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  if (!isPlainObject(value)) {
    return false;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key)) {
      return false;
    }
  }
  return true;
}

const isNull = (value: unknown) => value === null;

/**
What reads as absent for one field. `null` does, for every field but a `google.protobuf.Value`. A field with
presence (a message, a oneof member, a proto3 `optional` scalar) is absent only as `null`: `{}` for a message
is a message. A field without presence is absent at its default too: `""`, `0`, `false`, `[]`, `{}` for a
Struct or a map, an enum's `*_UNSPECIFIED` name or 0.
*/
function absentRule(schema: z.core.SomeType, presence: boolean): (value: unknown) => boolean {
  const inner = innerOf(schema);
  if (protoValues.has(inner)) {
    return () => false;
  }
  if (presence) {
    return isNull;
  }
  const unspecified = enumDefaults.get(inner);
  if (unspecified !== undefined) {
    return (value) => value === null || value === 0 || value === unspecified;
  }
  if (structs.has(inner)) {
    return (value) => value === null || isEmptyObject(value);
  }
  // A scalar read by a `z.custom` (`protoString`, `Bool`, `int32` in scalars.ts) names its JSON type in
  // `params`.
  const def = inner._zod.def as { readonly type: string; readonly params?: { readonly json?: string } };
  switch (def.type === 'custom' ? def.params?.json : def.type) {
    case 'string':
      return (value) => value === null || value === '';
    case 'number':
      return (value) => value === null || value === 0;
    case 'boolean':
      return (value) => value === null || value === false;
    case 'array':
      return (value) => value === null || (Array.isArray(value) && value.length === 0);
    default:
      // A message.
      return isNull;
  }
}

/**
A field named twice, by its JSON and its proto name: the path of the field, for a `duplicate-key` violation.
*/
class DuplicateField {
  readonly path: readonly PropertyKey[];
  constructor(path: readonly PropertyKey[]) {
    this.path = path;
  }
}

/** One object in its canonical shape, or the object itself when nothing changes (the common case). */
function canonicalObject(
  input: Record<string, unknown>,
  form: Form,
  path: PropertyKey[],
): Record<string, unknown> {
  let output: Record<string, unknown> | undefined;
  for (const key in input) {
    const field = form.get(key);
    if (field === undefined || !Object.hasOwn(input, key)) {
      continue;
    }
    const member = input[key];
    const renamed = field.name !== key;
    const absent = field.absent(member);
    if (!renamed && !absent) {
      continue;
    }
    if (renamed && Object.hasOwn(input, field.name)) {
      throw new DuplicateField([...path, field.name]);
    }
    output ??= { ...input };
    delete output[key];
    if (!absent) {
      output[field.name] = member;
    }
  }
  return output ?? input;
}

/** Walks a value of one schema: returns it canonical, the same reference when nothing changed. */
type Walk = (value: unknown, path: PropertyKey[]) => unknown;

const identity: Walk = (value) => value;
const walks = new WeakMap<object, Walk>();

function walkOf(schema: z.core.SomeType): Walk {
  const known = walks.get(schema);
  if (known !== undefined) {
    return known;
  }
  // Set before compiling the children, so a schema that contains itself resolves to this walk.
  let compiled: Walk = identity;
  const deferred: Walk = (value, path) => compiled(value, path);
  walks.set(schema, deferred);
  compiled = compile(innerOf(schema));
  walks.set(schema, compiled);
  return compiled;
}

function compile(schema: z.core.$ZodType): Walk {
  // By `def.type`, for the bundle's sake (see innerOf).
  const def = schema._zod.def;
  if (def.type === 'object') {
    const { shape } = (schema as z.core.$ZodObject)._zod.def;
    return objectWalk(
      formOf(shape, (_name, field) => withPresence.has(field)),
      shape,
    );
  }
  if (def.type === 'array') {
    return listWalk(walkOf((schema as z.core.$ZodArray)._zod.def.element));
  }
  if (def.type === 'transform') {
    const transform = (schema as z.core.$ZodTransform)._zod.def.transform;
    const oneof = oneofs.get(transform);
    if (oneof !== undefined) {
      return objectWalk(oneof.form, oneof.shape);
    }
    const read = reads.get(transform);
    return read === undefined ? identity : read.map ? mapWalk(walkOf(read.schema)) : walkOf(read.schema);
  }
  // Scalars, Structs, Values, enums: nothing inside them is the protocol's to rename.
  return identity;
}

// A oneof, by its transform function (which every clone of the schema shares): its members and common fields.
const oneofs = new WeakMap<object, { readonly shape: Shape; readonly form: Form }>();

/**
Registers a oneof's fields, keyed by its transform function: the members have presence, the common fields as
declared.
*/
export function registerOneof(transform: object, members: Shape, common: Shape): void {
  const shape = { ...members, ...common };
  oneofs.set(transform, {
    shape,
    form: formOf(shape, (name, field) => Object.hasOwn(members, name) || withPresence.has(field)),
  });
}

// A transform that reads its input with another schema, by its transform function: a proto map's (`protoMap`)
// reads each value with `schema`, a bounded message's (`boundedMessage`) the whole input.
const reads = new WeakMap<object, { readonly schema: z.core.SomeType; readonly map: boolean }>();

/**
Registers what a transform reads its input with, keyed by its transform function, so that `canonical` walks
the input as that schema's (each value of a map, or the whole input).
*/
export function registerRead(transform: object, schema: z.core.SomeType, map: boolean): void {
  reads.set(transform, { schema, map });
}

function objectWalk(form: Form, shape: Shape): Walk {
  const children = Object.entries(shape)
    .map(([name, schema]) => [name, walkOf(schema)] as const)
    .filter(([, walk]) => walk !== identity);
  return (value, path) => {
    if (!isPlainObject(value)) {
      return value;
    }
    let output = canonicalObject(value, form, path);
    let copied = output !== value;
    for (const [name, walk] of children) {
      const member = output[name];
      if (member === undefined) {
        continue;
      }
      path.push(name);
      const walked = walk(member, path);
      path.pop();
      if (walked !== member) {
        if (!copied) {
          output = { ...output };
          copied = true;
        }
        output[name] = walked;
      }
    }
    return output;
  };
}

function listWalk(element: Walk): Walk {
  if (element === identity) {
    return identity;
  }
  return (value, path) => {
    if (!Array.isArray(value)) {
      return value;
    }
    let output: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const walked = element(value[index], path);
      path.pop();
      if (walked !== value[index]) {
        output ??= value.slice();
        output[index] = walked;
      }
    }
    return output ?? value;
  };
}

function mapWalk(entry: Walk): Walk {
  if (entry === identity) {
    return identity;
  }
  return (value, path) => {
    if (!isPlainObject(value)) {
      return value;
    }
    let output: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      // The key is the peer's text: the path carries a placeholder the violation renders as `[*]`.
      path.push(Symbol.for('key'));
      const walked = entry(value[key], path);
      path.pop();
      if (walked !== value[key]) {
        output ??= { ...value };
        output[key] = walked;
      }
    }
    return output ?? value;
  };
}

/** The canonical value, or the path of a field named twice. */
export type CanonicalResult =
  | { readonly ok: true; readonly value: unknown; readonly path?: never }
  | { readonly ok: false; readonly path: readonly PropertyKey[]; readonly value?: never };

/**
`value` as the proto's parsers read it, for `schema`: the one canonical shape every check then sees. Fails
only for a field named by both its names (a duplicate key). Values the schema will refuse are left for it to
refuse.

@example
```ts
canonical(Task, { id: 't', context_id: 'c', status: { state: 3 }, artifacts: [] });
// { ok: true, value: { id: 't', contextId: 'c', status: { state: 3 } } }: the enum schema names 3
```
*/
export function canonical(schema: z.core.SomeType, value: unknown): CanonicalResult {
  try {
    return { ok: true, value: walkOf(schema)(value, []) };
  } catch (error) {
    if (error instanceof DuplicateField) {
      return { ok: false, path: error.path };
    }
    throw error;
  }
}
