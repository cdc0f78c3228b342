/**
@module
Bound meters: how close a stream came to each SSE bound the client enforces (`defaultLimits`,
ARCHITECTURE.md#bounds). The inspector events carry each frame's wire size and arrival time, not its lines or
its chunks, so three meters are bounds of the truth rather than the truth, and say so: a line and an event's
data are never larger than the event's wire bytes; the stream's bytes are at least the sum of its events'; and
the idle time between reads is never longer than the gap between events.
*/
import { defaultLimits, type Limits } from '@surecall/client';
import type { StreamLog } from './streams.js';

/** The stream bounds the meters show. */
export type BoundName = 'line' | 'event' | 'total' | 'events' | 'idle';

/** The limits the meters are read against: the SSE bounds and the idle timeout. */
export type MeterLimits = Pick<
  Limits,
  'sseLineBytes' | 'sseEventBytes' | 'sseTotalBytes' | 'sseEvents' | 'streamIdleTimeoutMs'
>;

/** How a meter's value relates to the quantity the client actually bounds. */
export type Precision = 'exact' | 'at-most' | 'at-least';

/** `ok` below 80% of the limit, `near` from 80%, `over` at or past it. */
export type MeterLevel = 'ok' | 'near' | 'over';

/** One meter. */
export type Meter = {
  readonly bound: BoundName;
  readonly label: string;
  /** The name of the limit in `Limits`. */
  readonly limitName: keyof MeterLimits;
  readonly value: number;
  readonly limit: number;
  /** `value / limit`, not clamped. */
  readonly ratio: number;
  readonly unit: 'bytes' | 'events' | 'ms';
  readonly precision: Precision;
  readonly level: MeterLevel;
};

/** Where `near` starts. */
export const nearRatio = 0.8;

function level(ratio: number): MeterLevel {
  if (ratio >= 1) {
    return 'over';
  }
  return ratio >= nearRatio ? 'near' : 'ok';
}

/**
The idle time a stream has reached: the longest gap between its events, or, while it is open, the time since
its last activity if that is longer.

@example
```ts
idleMs(stream, Date.now());
```
*/
export function idleMs(
  stream: Pick<StreamLog, 'status' | 'maxGapMs' | 'lastActivityAt'>,
  now: number,
): number {
  const current = stream.status === 'open' ? Math.max(0, now - stream.lastActivityAt) : 0;
  return Math.max(stream.maxGapMs, current);
}

/**
The five meters of a stream, in the order line, event, total, events, idle.

@example
```ts
for (const meter of streamMeters(stream, defaultLimits, Date.now())) {
  render(meter.label, meter.value, meter.limit, meter.level);
}
```
*/
export function streamMeters(
  stream: Pick<
    StreamLog,
    'frames' | 'wireBytes' | 'maxFrameBytes' | 'maxGapMs' | 'status' | 'lastActivityAt'
  >,
  limits: MeterLimits = defaultLimits,
  now = Date.now(),
): Meter[] {
  const meter = (
    bound: BoundName,
    label: string,
    limitName: keyof MeterLimits,
    value: number,
    unit: Meter['unit'],
    precision: Precision,
  ): Meter => {
    const limit = limits[limitName];
    const ratio = value / limit;
    return { bound, label, limitName, value, limit, ratio, unit, precision, level: level(ratio) };
  };
  return [
    meter('line', 'Longest line', 'sseLineBytes', stream.maxFrameBytes, 'bytes', 'at-most'),
    meter('event', 'Largest event', 'sseEventBytes', stream.maxFrameBytes, 'bytes', 'at-most'),
    meter('total', 'Stream bytes', 'sseTotalBytes', stream.wireBytes, 'bytes', 'at-least'),
    meter('events', 'Events', 'sseEvents', stream.frames.length, 'events', 'exact'),
    meter('idle', 'Longest idle', 'streamIdleTimeoutMs', idleMs(stream, now), 'ms', 'at-most'),
  ];
}
