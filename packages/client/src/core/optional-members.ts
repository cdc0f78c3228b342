/**
@module
The optional members of an object literal: with `exactOptionalPropertyTypes`
(CONTRIBUTING.md#compiler-settings) a member that may be absent must be absent, never present as `undefined`,
so every literal that carries one drops it when it has no value. One function does it for every floor, in the
order the members are written.
*/

/**
`members` without those whose value is `undefined`, in the same order: what
`{ ...(a === undefined ? {} : { a }), ...(b === undefined ? {} : { b }) }` writes out.

@example
```ts
const context = { operation, ...optionalMembers({ tenant: pin.tenant, taskId }) }; // no `tenant` member when the pin has none
```
*/
export function optionalMembers<T extends object>(members: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const present: { [K in keyof T]?: Exclude<T[K], undefined> } = {};
  for (const key of Object.keys(members) as (keyof T)[]) {
    const value = members[key];
    if (value !== undefined) {
      present[key] = value as Exclude<T[keyof T], undefined>;
    }
  }
  return present;
}
