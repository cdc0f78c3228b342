import { afterEach, describe, expect, it, vi } from 'vitest';
import { pause } from './pause.js';

describe('pause', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits on the timer, and resolves false at once when the signal aborts', async () => {
    vi.useFakeTimers();
    const waited = pause(1000, undefined);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(waited).resolves.toBe(true);

    const controller = new AbortController();
    const aborted = pause(1000, controller.signal);
    controller.abort();
    await expect(aborted).resolves.toBe(false);
    await expect(pause(1000, controller.signal)).resolves.toBe(false);
  });
});
