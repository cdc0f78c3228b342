/**
@module
`@surecall/cli`: the `surecall` command (README.md#the-surecall-command), and the same as a function for
scripts that would rather not spawn a process.
*/

export type { Command, ConnectArgs } from './args.js';
export { parseCommand, UsageError } from './args.js';
export type { CardReport } from './commands/card.js';
export type { ExitCode } from './exit-code.js';
export { exitCodes } from './exit-code.js';
export type { Io } from './output.js';
export { run } from './run.js';
export { usage } from './usage.js';
