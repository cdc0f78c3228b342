/**
@module
Where the command writes (README.md#the-surecall-command): with `--json`, one JSON document per result on
stdout, one per line, written by `terminalJson` (text.ts), so no peer string in it reaches the terminal raw;
otherwise plain lines for a person, in which the commands print every peer string through `terminalText` where
they format it. On a terminal, a live progress line on stderr during streams and scans, erased before anything
else is written. Errors go to stderr as `surecall: <words>`, never with remote text or a token.
*/
import { terminalJson } from './text.js';

/** The streams and environment a run uses: the process's, or a test's. */
export type Io = {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly env: Readonly<Record<string, string | undefined>>;
};

/** What commands write through. */
export type Output = {
  /** Whether results are JSON documents. */
  readonly json: boolean;
  /** A line for a person (ignored in JSON mode). */
  line(text?: string): void;
  /** One JSON document on its own line (ignored in human mode). */
  document(value: unknown): void;
  /** The live progress line, on a terminal only; replaced by the next call, erased by any other output. */
  progress(text: string): void;
  /** An error a person can act on, on stderr. */
  error(text: string): void;
};

/**
An output over `io`.

@example
```ts
const out = createOutput(io, false);
out.progress('WORKING · 2 chunks');
out.line('COMPLETED');
```
*/
export function createOutput(io: Io, json: boolean): Output {
  const live = io.stderr.isTTY === true;
  let shown = false;
  const erase = () => {
    if (shown) {
      io.stderr.write('\r\x1b[2K');
      shown = false;
    }
  };
  return {
    json,
    line(text = '') {
      if (!json) {
        erase();
        io.stdout.write(`${text}\n`);
      }
    },
    document(value) {
      if (json) {
        erase();
        io.stdout.write(`${terminalJson(value)}\n`);
      }
    },
    progress(text) {
      if (live) {
        io.stderr.write(`\r\x1b[2K${text}`);
        shown = true;
      }
    },
    error(text) {
      erase();
      io.stderr.write(`surecall: ${text}\n`);
    },
  };
}
