/**
@module
What a promise rejected with, checked to be of the error class the test expects: the tests that assert a
refusal's `reason`, `rule` or `kind` read it from here.
*/
import { expect } from 'vitest';

/**
Awaits `promise`, expects it to reject with an instance of `type`, and returns that error (a resolved promise
fails the expectation).
*/
export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}
