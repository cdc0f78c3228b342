/**
@module
How the devtools write numbers, sizes, times, states and errors: one place, so every panel reads alike.
*/
import { isClientError } from '@surecall/client';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
A byte count in the unit a person reads fastest: bytes below 1 KiB, then KiB, then MiB, with at most one
decimal.

@example
```ts
formatBytes(512 * 1024); // '512 KiB'
formatBytes(1536); // '1.5 KiB'
```
*/
export function formatBytes(bytes: number): string {
  if (bytes < KiB) {
    return `${bytes} B`;
  }
  const [value, unit] = bytes < MiB ? [bytes / KiB, 'KiB'] : [bytes / MiB, 'MiB'];
  return `${Number(value.toFixed(1))} ${unit}`;
}

/**
A duration: milliseconds below one second, then seconds with at most one decimal, then minutes and seconds.

@example
```ts
formatDuration(250); // '250 ms'
formatDuration(60_000); // '1 min'
```
*/
export function formatDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1000) {
    return `${whole} ms`;
  }
  if (whole < 60_000) {
    return `${Number((whole / 1000).toFixed(1))} s`;
  }
  const minutes = Math.floor(whole / 60_000);
  const seconds = Math.floor((whole - minutes * 60_000) / 1000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}

/**
A wall-clock time of day, to the millisecond, in UTC so that two machines' screenshots agree.

@example
```ts
formatClock(Date.UTC(2026, 0, 2, 3, 4, 5, 6)); // '03:04:05.006'
```
*/
export function formatClock(time: number): string {
  return new Date(time).toISOString().slice(11, 23);
}

/**
A task state without the enum prefix, lower case, as the state chips show it.

@example
```ts
formatState('TASK_STATE_INPUT_REQUIRED'); // 'input required'
```
*/
export function formatState(state: string): string {
  return state
    .replace(/^TASK_STATE_/, '')
    .replaceAll('_', ' ')
    .toLowerCase();
}

/**
A task state as a CSS class suffix.

@example
```ts
stateSlug('TASK_STATE_INPUT_REQUIRED'); // 'input-required'
```
*/
export function stateSlug(state: string): string {
  return formatState(state).replaceAll(' ', '-');
}

/**
A long identifier shortened in the middle, keeping both ends, which is where people compare ids.

@example
```ts
shortId('0b5e7a1c-4f7e-4c1e-9a0e-3c2b1d0e9f8a'); // '0b5e7a…0e9f8a'
```
*/
export function shortId(id: string, keep = 6): string {
  return id.length <= keep * 2 + 1 ? id : `${id.slice(0, keep)}…${id.slice(-keep)}`;
}

/**
One line for a client error's public-safe form (`error.toJSON()`, as an inspector `error` event carries it):
its class, kind and reason, the HTTP status or remote code when the error has one, the violated rule, and what
`dispatched` means for the outcome.

@example
```ts
formatError({ name: 'TransportError', kind: 'transport', reason: 'network', dispatched: true });
// 'TransportError: transport (network); the request may have been applied: outcome unknown'
```
*/
export function formatError(error: Readonly<Record<string, unknown>>): string {
  const {
    name: rawName,
    kind: rawKind,
    reason: rawReason,
    httpStatus,
    remoteCode,
    violation,
    dispatched,
  } = error;
  const name = typeof rawName === 'string' ? rawName : 'Error';
  const kind = typeof rawKind === 'string' ? rawKind : 'unexpected';
  const reason = typeof rawReason === 'string' ? ` (${rawReason})` : '';
  const facts: string[] = [];
  if (typeof httpStatus === 'number') {
    facts.push(`HTTP ${httpStatus}`);
  }
  if (typeof remoteCode === 'number') {
    facts.push(`code ${remoteCode}`);
  }
  if (typeof violation === 'object' && violation !== null && 'rule' in violation) {
    const { rule, path } = violation as { rule?: unknown; path?: unknown };
    facts.push(`rule ${String(rule)}${typeof path === 'string' ? ` at ${path}` : ''}`);
  }
  // docs/durable-send.md#the-promise: a failure after possible dispatch leaves the outcome unknown; before
  // it, nothing was sent.
  if (dispatched === true) {
    facts.push('the request may have been applied: outcome unknown');
  } else if (dispatched === false) {
    facts.push('nothing was sent');
  }
  return `${name}: ${kind}${reason}${facts.length === 0 ? '' : `; ${facts.join('; ')}`}`;
}

/**
The public-safe form of anything a call threw: a client error's own `toJSON()` (what its inspector `error`
event carries too), else only that it was unexpected, since another error's message could hold anything.

@example
```ts
try { await client.getTask({ id }); } catch (error) { show(formatError(errorRecord(error))); }
```
*/
export function errorRecord(error: unknown): Readonly<Record<string, unknown>> {
  return isClientError(error) ? error.toJSON() : { name: 'Error', kind: 'unexpected' };
}
