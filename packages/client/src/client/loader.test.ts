import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('../deferred.js');
  vi.resetModules();
});

// Each case compiles the deferred module's whole graph afresh (`vi.resetModules`): seconds on a loaded
// machine.
describe('loadDeferred', { timeout: 30_000 }, () => {
  it('loads the deferred module once and hands every caller the same one', async () => {
    vi.resetModules();
    const { loadDeferred } = await import('./loader.js');
    const [first, second] = await Promise.all([loadDeferred(false), loadDeferred(true)]);
    expect(first).toBe(second);
    expect(typeof first.streamRunner).toBe('function');
    expect(typeof first.createRestBinding).toBe('function');
  });

  it('turns a failed load into TransportError network with the caller’s dispatched, and the next call loads again', async () => {
    vi.resetModules();
    vi.doMock('../deferred.js', () => {
      throw new Error('the chunk could not be fetched');
    });
    const { loadDeferred } = await import('./loader.js');
    await expect(loadDeferred(false)).rejects.toMatchObject({
      kind: 'transport',
      reason: 'network',
      dispatched: false,
    });
    await expect(loadDeferred(true)).rejects.toMatchObject({
      kind: 'transport',
      reason: 'network',
      dispatched: true,
    });
    vi.doUnmock('../deferred.js');
    const loaded = await loadDeferred(false);
    expect(typeof loaded.streamRunner).toBe('function');
  });
});
