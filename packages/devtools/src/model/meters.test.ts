import { defaultLimits } from '@surecall/client';
import { describe, expect, it } from 'vitest';
import { idleMs, type MeterLimits, streamMeters } from './meters.js';
import type { StreamLog } from './streams.js';

const stream = (overrides: Partial<StreamLog> = {}) => ({
  frames: [],
  wireBytes: 0,
  maxFrameBytes: 0,
  maxGapMs: 0,
  status: 'complete' as const,
  lastActivityAt: 0,
  ...overrides,
});

const small: MeterLimits = {
  sseLineBytes: 100,
  sseEventBytes: 200,
  sseTotalBytes: 1000,
  sseEvents: 10,
  streamIdleTimeoutMs: 1000,
};

describe('streamMeters', () => {
  it('reads every bound against the client’s default limits', () => {
    const meters = streamMeters(
      stream({ wireBytes: 1200, maxFrameBytes: 512, maxGapMs: 300 }),
      defaultLimits,
      0,
    );
    expect(
      meters.map((meter) => [meter.bound, meter.limitName, meter.value, meter.limit, meter.precision]),
    ).toEqual([
      ['line', 'sseLineBytes', 512, 512 * 1024, 'at-most'],
      ['event', 'sseEventBytes', 512, 2 * 1024 * 1024, 'at-most'],
      ['total', 'sseTotalBytes', 1200, 64 * 1024 * 1024, 'at-least'],
      ['events', 'sseEvents', 0, 4096, 'exact'],
      ['idle', 'streamIdleTimeoutMs', 300, 60_000, 'at-most'],
    ]);
  });

  it.each([
    [79, 'ok'],
    [80, 'near'],
    [99, 'near'],
    [100, 'over'],
    [150, 'over'],
  ] as const)('a line of %i bytes against 100 is %s', (bytes, level) => {
    const [line] = streamMeters(stream({ maxFrameBytes: bytes }), small, 0);
    expect(line?.level).toBe(level);
    expect(line?.ratio).toBe(bytes / 100);
  });

  it('counts the events against the event bound', () => {
    const frames = Array.from({ length: 9 }, () => ({}) as StreamLog['frames'][number]);
    const events = streamMeters(stream({ frames }), small, 0)[3];
    expect(events).toMatchObject({ value: 9, level: 'near' });
  });

  it('lets the idle meter grow while an open stream waits', () => {
    const open = stream({ status: 'open', maxGapMs: 200, lastActivityAt: 10_000 });
    expect(streamMeters(open, small, 10_100)[4]?.value).toBe(200);
    expect(streamMeters(open, small, 11_000)[4]).toMatchObject({ value: 1000, level: 'over' });
  });
});

describe('idleMs', () => {
  it.each([
    ['open', 50, 1000, 1600, 600],
    ['open', 700, 1000, 1600, 700],
    ['complete', 50, 1000, 99_999, 50],
    ['failed', 50, 1000, 99_999, 50],
    ['connecting', 0, 1000, 99_999, 0],
  ] as const)(
    'a %s stream with a longest gap of %i, last active at %i, at %i: %i',
    (status, maxGapMs, lastActivityAt, now, idle) => {
      expect(idleMs({ status, maxGapMs, lastActivityAt }, now)).toBe(idle);
    },
  );
});
