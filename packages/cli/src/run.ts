/**
@module
One run of the `surecall` command: read the arguments, run the command, map whatever happened to an exit code
(README.md#the-surecall-command). Every failure is reported on stderr in words (`failure.ts`); a usage error
also prints the usage.
*/
import { parseCommand } from './args.js';
import { cardCommand } from './commands/card.js';
import { devtoolsCommand } from './commands/devtools.js';
import { sendCommand } from './commands/send.js';
import { sendsCommand } from './commands/sends.js';
import { type ExitCode, exitCodes } from './exit-code.js';
import { failureOf } from './failure.js';
import { createOutput, type Io } from './output.js';
import { usage } from './usage.js';

/**
Runs the command `argv` names (without `node` and the script) and resolves to its exit code; never throws.
`signal` stops a stream, a watch or the devtools server (Ctrl-C).

@example
```ts
const code = await run(['card', cardUrl, '--loopback', '--json'], io, signal);
```
*/
export async function run(argv: readonly string[], io: Io, signal: AbortSignal): Promise<ExitCode> {
  let json = argv.includes('--json');
  const out = () => createOutput(io, json);
  try {
    const command = parseCommand(argv);
    switch (command.name) {
      case 'help':
        io.stdout.write(`${usage}\n`);
        return exitCodes.ok;
      case 'card':
        json = command.json;
        return await cardCommand(out(), command);
      case 'send':
        json = command.json;
        return await sendCommand(io, out(), command, signal);
      case 'sends':
        json = command.json;
        return await sendsCommand(io, out(), command, signal);
      case 'devtools':
        json = command.json;
        return await devtoolsCommand(out(), command, signal);
    }
  } catch (error) {
    const failure = failureOf(error);
    const output = out();
    output.error(failure.text);
    if (failure.usage) {
      io.stderr.write(`${usage}\n`);
    }
    if (json) {
      output.document({ status: 'error', exitCode: failure.code, error: failure.text });
    }
    return failure.code;
  }
}
