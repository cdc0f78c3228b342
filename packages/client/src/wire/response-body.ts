import { InvalidResponseError } from '../core/errors.js';
import { type Deadline, dispatchedFailure } from './deadline.js';

const digitsOnly = /^[0-9]+$/;

function ignore(): void {}

/** Cancels a response body, never awaited: a tee'd body (MSW, instrumentation) only settles its cancel once every branch is cancelled. */
export function cancelBody(response: Response): void {
  response.body?.cancel().catch(ignore);
}

async function readChunk(
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

/** Reads a whole body within `limit` bytes (a declared larger `Content-Length` is refused before reading) and within the deadline. */
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
  // The deadline cancels the reader when it or the caller stops, which ends a pending read even where fetch would not.
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
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Wraps a live body so that the deadline's signal still ends it, and frees the deadline's timer and listener once the body ends, fails or is released. */
export function liveBody(
  source: ReadableStream<Uint8Array>,
  deadline: Deadline,
): { body: ReadableStream<Uint8Array>; release: () => void } {
  const reader = source.getReader();
  deadline.watch(reader);
  let ended = false;
  const end = (): void => {
    if (!ended) {
      ended = true;
      deadline.release();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await readChunk(reader, deadline);
        if (chunk === undefined) {
          end();
          controller.close();
        } else {
          controller.enqueue(chunk);
        }
      } catch (error) {
        // The source is already errored, or cancelled by the deadline's watch.
        end();
        controller.error(error);
      }
    },
    cancel() {
      end();
      reader.cancel().catch(ignore);
    },
  });
  return {
    body,
    release: () => {
      if (!ended) {
        end();
        reader.cancel().catch(ignore);
      }
    },
  };
}
