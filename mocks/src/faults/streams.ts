/**
@module
The stream faults (internal to `faults.ts`): an SSE answer read frame by frame, then cut, ended early,
preceded by an oversized line, or with one frame's data rewritten as a document.
*/
import { type DocumentRewrite, frameOf, rewriteDocument, rewritesDocuments } from './documents.js';
import type { Call, FaultSpec } from './fault-types.js';

/** Default size of the `oversized-sse-line` comment: above the client's 512 KiB line bound. */
const defaultOversizedLineBytes = 600 * 1024;

const encoder = new TextEncoder();
/** A blank line ends an SSE event, whatever the line terminator (WHATWG HTML, §9.2.5). */
const frameEnd = /\r\n\r\n|\n\n|\r\r/;

/**
Split an SSE body into frames, each ending with its blank line (A2A spec, §9.4.2 and §11.7: one event per
frame); a trailing partial frame comes last.
*/
async function* readFrames(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<string, void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    buffer += decoder.decode(value, { stream: true });
    for (let match = frameEnd.exec(buffer); match !== null; match = frameEnd.exec(buffer)) {
      const end = match.index + match[0].length;
      yield buffer.slice(0, end);
      buffer = buffer.slice(end);
    }
  }
  buffer += decoder.decode();
  if (buffer !== '') {
    yield buffer;
  }
}

/** The stream faults, as a new body; `undefined` when the fault leaves streams alone. */
export function streamRewrite(
  body: ReadableStream<Uint8Array>,
  { spec, call }: { readonly spec: FaultSpec; readonly call: Call },
): ReadableStream<Uint8Array> | undefined {
  const changesStreams =
    spec.kind === 'cut-stream' ||
    spec.kind === 'premature-eof' ||
    spec.kind === 'oversized-sse-line' ||
    (rewritesDocuments(spec) && spec.kind !== 'blocking-submitted');
  if (!changesStreams) {
    return undefined;
  }
  const reader = body.getReader();
  let cut = false;
  async function* rewrite(): AsyncGenerator<string, void> {
    const frames = readFrames(reader);
    let index = 0;
    let held: string | undefined;
    if (spec.kind === 'oversized-sse-line') {
      // A comment line is the purest test of a line bound: it carries no event, so only the line length can
      // fail it.
      yield `:${'x'.repeat((spec.bytes ?? defaultOversizedLineBytes) - 1)}\n\n`;
    }
    for await (const frame of frames) {
      if (spec.kind === 'cut-stream' && index === spec.afterFrames) {
        cut = true;
        return;
      }
      if (spec.kind === 'premature-eof' && index === spec.afterFrames) {
        // A clean close: the rest of the agent's body is read and dropped, so its work completes unobserved.
        void drainReader(reader);
        return;
      }
      index += 1;
      if (spec.kind === 'premature-eof' && spec.afterFrames !== undefined) {
        yield frame;
        continue;
      }
      if (spec.kind === 'premature-eof') {
        if (held !== undefined) {
          yield held;
        }
        held = frame;
        continue;
      }
      yield rewritesDocuments(spec) && index - 1 === frameOf(spec)
        ? rewriteFrame(frame, { call, spec })
        : frame;
    }
  }
  const chunks = rewrite();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done && cut) {
          // The client sees a broken read, as after a reset connection; the agent's work goes on unobserved.
          controller.error(new TypeError('The fault lab cut this stream'));
          void drainReader(reader);
        } else if (next.done) {
          controller.close();
        } else {
          controller.enqueue(encoder.encode(next.value));
        }
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      // The client went away: like a closed connection, stop the agent's body.
      await reader.cancel().catch(() => undefined);
      await chunks.return(undefined);
    },
  });
}

/**
After a cut, keep reading what the agent still produces so that its work completes, as behind a dropped
connection.
*/
async function drainReader(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done) {
      // Discard.
    }
  } catch {
    // Nothing is waiting for these bytes.
  }
}

function rewriteFrame(frame: string, rewrite: DocumentRewrite): string {
  const lines = frame.split(/\r\n|\n|\r/).filter((line) => line !== '');
  const dataLines = lines.filter((line) => line.startsWith('data:'));
  if (dataLines.length === 0) {
    return frame;
  }
  const data = dataLines.map((line) => line.slice(5).replace(/^ /, '')).join('\n');
  const rewritten = rewriteDocument(data, { ...rewrite, status: 200 });
  if (rewritten === data) {
    return frame;
  }
  const others = lines.filter((line) => !line.startsWith('data:'));
  return `${[...others, `data: ${rewritten}`].join('\n')}\n\n`;
}
