/**
@module
Where a durable agent runs, as far as its rules care: whether the runtime's `fetch` may send a POST again by
itself (docs/interop.md#runtimes). Chromium and Deno re-send a POST whose reused keep-alive connection closed
before any byte of the answer; Node, Bun and Cloudflare's workerd were measured not to, and the runtime suites
keep measuring it (docs/interop.md#runtimes). The rule follows what the runtime's `fetch` does, not what the
runtime claims to be: Deno and Bun both print a Node version, and a runtime this module cannot name gets the
browser rule.
*/

/**
Where the agent runs: `browser` is `true` (the browser rule of docs/interop.md#browsers applies) wherever
`fetch` may re-send a POST by itself, and wherever the runtime is not one of the three verified not to.
*/
export type DurableEnvironment = { readonly browser: boolean };

/** The globals {@link currentEnvironment} reads. */
type Scope = {
  readonly navigator?: { readonly userAgent?: unknown };
  readonly process?: {
    readonly versions?: { readonly node?: unknown; readonly deno?: unknown; readonly chrome?: unknown };
  };
};

/**
The environment of `scope`, by the runtimes' own marks. The three whose `fetch` does not re-send are Node and
Bun (a `process.versions.node`, which Bun prints too; with or without a DOM imitation such as jsdom), unless
the runtime also prints a version of one that re-sends, Deno (`process.versions.deno`) or Chromium (an
Electron renderer's `process.versions.chrome`); and workerd (`navigator.userAgent` is `Cloudflare-Workers`).
Everything else, a page, a worker, Deno, or a runtime it does not know, gets the browser rule.

@example
```ts
currentEnvironment(); // { browser: false } under Node, { browser: true } under Deno and in a page
```
*/
export function currentEnvironment(scope: object = globalThis): DurableEnvironment {
  const { navigator, process } = scope as Scope;
  const versions = process?.versions;
  const verified =
    (versions?.node !== undefined && versions.deno === undefined && versions.chrome === undefined) ||
    navigator?.userAgent === 'Cloudflare-Workers';
  return { browser: !verified };
}
