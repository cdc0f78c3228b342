import { OptionsError } from './errors.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
The bounds every exchange is held to (ARCHITECTURE.md#bounds). Each may be lowered or raised with `limits` up
to its hard ceiling in {@link limitCeilings}.

@example
```ts
const limits = resolveLimits({ sseEvents: 100_000 }); // OptionsError: above-ceiling
```
*/
export const defaultLimits = Object.freeze({
  /** Card fetch, headers and body. @default 15 s */
  discoveryTimeoutMs: 15_000,
  /** A unary exchange from token to last body byte; for a stream, until its headers. @default 60 s */
  requestTimeoutMs: 60_000,
  /**
  The longest wait for the next event of a stream; comments do not restart it
  (docs/protocol-checks.md#sse-decoding). @default 60 s
  */
  streamIdleTimeoutMs: 60_000,
  /** Serialized request body. @default 16 MiB */
  requestBodyBytes: 16 * MiB,
  /** Unary response body, and the agent card. @default 2 MiB */
  responseBodyBytes: 2 * MiB,
  /** One SSE line, terminator excluded. @default 512 KiB */
  sseLineBytes: 512 * KiB,
  /** The data of one SSE event. @default 2 MiB */
  sseEventBytes: 2 * MiB,
  /** All bytes of one stream. @default 64 MiB */
  sseTotalBytes: 64 * MiB,
  /** Events in one stream. @default 4096 */
  sseEvents: 4096,
  /** Nesting of arrays and objects. @default 64 */
  jsonDepth: 64,
  /** Members of one object or elements of one array. @default 8192 */
  jsonEntries: 8192,
  /** Values in one document. @default 131072 */
  jsonValues: 131_072,
  /** One decoded string, in UTF-8 bytes. @default 1 MiB */
  jsonStringBytes: 1 * MiB,
  /** One decoded object key, in UTF-8 bytes. @default 1 KiB */
  jsonKeyBytes: 1 * KiB,
});

/** Every bound, resolved: no field is optional. */
export type Limits = { readonly [K in keyof typeof defaultLimits]: number };

/** What a caller may override. */
export type LimitsOptions = Partial<Limits>;

/** The hard ceilings: no configuration may exceed them. */
export const limitCeilings: Limits = Object.freeze({
  discoveryTimeoutMs: 15 * 60_000,
  requestTimeoutMs: 15 * 60_000,
  streamIdleTimeoutMs: 15 * 60_000,
  requestBodyBytes: 32 * MiB,
  responseBodyBytes: 128 * MiB,
  sseLineBytes: 128 * MiB,
  sseEventBytes: 128 * MiB,
  sseTotalBytes: 256 * MiB,
  sseEvents: 65_536,
  jsonDepth: 512,
  jsonEntries: 1_048_576,
  jsonValues: 16_777_216,
  jsonStringBytes: 64 * MiB,
  jsonKeyBytes: 64 * KiB,
});

/** Merge overrides into the defaults, the one place limits are resolved (CONTRIBUTING.md#options). */
export function resolveLimits(overrides: LimitsOptions = {}): Limits {
  const limits = { ...defaultLimits, ...overrides };
  for (const key of Object.keys(defaultLimits) as (keyof Limits)[]) {
    const value = limits[key];
    if (!Number.isSafeInteger(value)) {
      throw new OptionsError(`limits.${key}`, 'not-a-whole-number');
    }
    if (value < 1) {
      throw new OptionsError(`limits.${key}`, 'below-minimum', 1);
    }
    if (value > limitCeilings[key]) {
      throw new OptionsError(`limits.${key}`, 'above-ceiling', limitCeilings[key]);
    }
  }
  // An event holds at least one line and a stream at least one event (ARCHITECTURE.md#bounds).
  if (limits.sseEventBytes < limits.sseLineBytes) {
    throw new OptionsError('limits.sseEventBytes', 'inconsistent');
  }
  if (limits.sseTotalBytes < limits.sseEventBytes) {
    throw new OptionsError('limits.sseTotalBytes', 'inconsistent');
  }
  return Object.freeze(limits);
}
