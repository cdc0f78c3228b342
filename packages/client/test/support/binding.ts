/**
@module
Test support shared by the binding tests: what a call threw, and what a stream delivered before it ended or
failed.
*/
import type { StreamFrame } from '../../src/bindings/binding.js';

/** The error a call rejected with; fails the test if it resolved. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** Every event a stream delivered, and the error that ended it, if any. */
export async function drain(
  frames: AsyncIterableIterator<StreamFrame>,
): Promise<{ readonly events: unknown[]; readonly error: unknown }> {
  const events: unknown[] = [];
  try {
    for await (const next of frames) {
      events.push(next.event);
    }
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}
