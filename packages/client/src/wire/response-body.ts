import { InvalidResponseError } from '../core/errors.js';
import { type Deadline, dispatchedFailure } from './deadline.js';

const digitsOnly = /^[0-9]+$/;

export function ignore(): void {}

/**
Cancels a response body, never awaited: a tee'd body (MSW, instrumentation) only settles its cancel once every
branch is cancelled.
*/
export function cancelBody(response: Response): void {
  response.body?.cancel().catch(ignore);
}

/**
One read of a body's reader under the deadline: a failed read, or one the deadline or the caller stopped, is a
dispatched `TransportError`.
*/
export async function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deadline: Deadline,
): Promise<Uint8Array | undefined> {
  let result: ReadableStreamReadResult<Uint8Array>;
  try {
    result = await reader.read();
  } catch (error) {
    throw dispatchedFailure(deadline, 'read', error);
  }
  if (deadline.stop() !== undefined) {
    throw dispatchedFailure(deadline, 'read');
  }
  return result.done ? undefined : result.value;
}

function tooLarge(status: number): InvalidResponseError {
  return new InvalidResponseError('body-too-large', {
    dispatched: true,
    httpStatus: status,
    violation: { rule: 'responseBodyBytes' },
  });
}

/**
Reads a whole body within `limit` bytes (a declared larger `Content-Length` is refused before reading) and
within the deadline.
*/
export async function readAll(response: Response, limit: number, deadline: Deadline): Promise<Uint8Array> {
  const declared = response.headers.get('content-length');
  if (declared !== null && digitsOnly.test(declared) && Number(declared) > limit) {
    cancelBody(response);
    throw tooLarge(response.status);
  }
  if (response.body === null) {
    return new Uint8Array(0);
  }
  const reader = response.body.getReader();
  // The deadline cancels the reader when it or the caller stops, which ends a pending read even where fetch
  // would not.
  deadline.watch(reader);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (let chunk = await readChunk(reader, deadline); chunk !== undefined; ) {
      total += chunk.byteLength;
      if (total > limit) {
        throw tooLarge(response.status);
      }
      chunks.push(chunk);
      chunk = await readChunk(reader, deadline);
    }
  } catch (error) {
    reader.cancel().catch(ignore);
    throw error;
  } finally {
    deadline.watch(undefined);
  }
  // A small answer arrives in one chunk, which is the body as it is: a copy would be one more buffer outside
  // the heap per answer (wire/json-scanner.ts says what those cost). Every reader of a body honours its
  // offset.
  if (chunks.length === 1) {
    return chunks[0] as Uint8Array;
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
