/**
@module
`surecall devtools --ledger …`: serves the built devtools app on 127.0.0.1 with a read-only view of the ledger
(`devtools-server.ts`) until Ctrl-C. The app is looked for beside the built CLI (`dist/devtools`, packed by
`prepack`) and, in a clone of the repository, in `packages/devtools/dist-app`
(`npm run build:app --workspace @surecall/devtools`).
*/
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SetupError } from '../connect.js';
import { startDevtoolsServer } from '../devtools-server.js';
import { type ExitCode, exitCodes } from '../exit-code.js';
import { openView } from '../ledger.js';
import type { Output } from '../output.js';
import { terminalText } from '../text.js';

/** Where the built devtools app may be, first match wins. */
export function devtoolsRoots(): string[] {
  return [
    // The package: dist/commands/devtools.js beside dist/devtools/, which prepack copies in.
    fileURLToPath(new URL('../devtools/', import.meta.url)),
    // A clone of the repository: packages/cli/src/commands/devtools.ts, and the devtools' own build.
    fileURLToPath(new URL('../../../devtools/dist-app/', import.meta.url)),
  ];
}

/**
Runs `surecall devtools` until `signal` aborts.

@example
```ts
await devtoolsCommand(out, { ledger: 'sends.jsonl', schema: undefined, port: 0 }, signal);
```
*/
export async function devtoolsCommand(
  out: Output,
  args: { readonly ledger: string; readonly schema: string | undefined; readonly port: number },
  signal: AbortSignal,
): Promise<ExitCode> {
  const root = devtoolsRoots().find((candidate) => existsSync(`${candidate}index.html`));
  if (root === undefined) {
    throw new SetupError(
      'the devtools app is not there: in a clone of the repository, build it with `npm run build:app --workspace @surecall/devtools`; a packed @surecall/cli carries it in dist/devtools',
    );
  }
  const view = await openView(args.ledger, args.schema);
  const server = await startDevtoolsServer({ view, root: root.replace(/[/\\]$/, ''), port: args.port });
  try {
    out.document({
      url: server.url,
      origin: server.origin,
      ...(view.path === undefined ? {} : { ledger: view.path }),
    });
    out.line(
      `surecall devtools over the ledger${view.path === undefined ? '' : ` ${terminalText(view.path)}`}, read-only: ${server.url}`,
    );
    out.line('(the link holds this run’s token; Ctrl-C stops the server)');
    await new Promise<void>((resolve) => {
      if (signal.aborted) {
        resolve();
      }
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return exitCodes.ok;
  } finally {
    await server.close();
    await view.close();
  }
}
