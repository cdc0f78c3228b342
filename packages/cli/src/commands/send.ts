/**
@module
`surecall send <card-url> [<text>]`: one message (a text part, and a data part with `--data`), sent plainly
(SendMessage), streaming (`--stream`: SendStreamingMessage, its states and artifact chunks printed as they
arrive), or durably (`--durable`: recorded in the ledger before it leaves, sent once, classified committed,
failed or unknown; docs/durable-send.md#the-promise).
*/
import { type A2aClient, type JsonValue, type Message, type Part, skillMetadataKey } from '@surecall/client';
import type { CliDelivery, ConnectArgs } from '../args.js';
import { connect, SetupError } from '../connect.js';
import { agentFor, cliMaxProbes, ledgerLine, reportOutcome } from '../durable.js';
import { type ExitCode, exitCodes } from '../exit-code.js';
import { openWritable } from '../ledger.js';
import { eventState, printAnswer, printEvent } from '../message.js';
import type { Io, Output } from '../output.js';

/** What `send` was asked. */
export type SendArgs = {
  readonly connect: ConnectArgs;
  readonly text: string | undefined;
  readonly data: JsonValue | undefined;
  readonly skill: string | undefined;
  readonly stream: boolean;
  readonly durable: boolean;
  readonly ledger: string | undefined;
  readonly schema: string | undefined;
  readonly delivery: CliDelivery | undefined;
};

function content(client: A2aClient, args: SendArgs): Omit<Message, 'messageId'> {
  if (args.skill !== undefined && !client.card.skills.some((skill) => skill.id === args.skill)) {
    throw new SetupError('the card lists no skill with the --skill id; `surecall card` shows its skills');
  }
  const parts: Part[] = args.text === undefined ? [] : [{ text: args.text }];
  if (args.data !== undefined) {
    parts.push({ data: args.data, mediaType: 'application/json' });
  }
  return {
    role: 'ROLE_USER',
    parts,
    ...(args.skill === undefined ? {} : { metadata: { [skillMetadataKey]: args.skill } }),
  };
}

async function streamed(
  out: Output,
  client: A2aClient,
  message: Message,
  call: { readonly skill?: string; readonly signal: AbortSignal },
): Promise<ExitCode> {
  let frames = 0;
  let last = 'connecting';
  const started = Date.now();
  out.progress('connecting…');
  for await (const event of client.sendStreamingMessage({ message }, call)) {
    frames++;
    last = eventState(event) ?? last;
    out.document({ event });
    printEvent(out, event);
    out.progress(
      `${last} · ${frames} frame${frames === 1 ? '' : 's'} · ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  out.line(`stream closed after ${frames} frame${frames === 1 ? '' : 's'}`);
  return exitCodes.ok;
}

/**
Runs `surecall send`.

@example
```ts
await sendCommand(io, out, args, signal); // 0 answered or committed, 1 failed, 3 unknown, 4 unresolved
```
*/
export async function sendCommand(
  io: Io,
  out: Output,
  args: SendArgs,
  signal: AbortSignal,
): Promise<ExitCode> {
  const client = await connect(io, args.connect);
  const body = content(client, args);
  const call = { signal, ...(args.skill === undefined ? {} : { skill: args.skill }) };
  if (args.durable) {
    const { ledger, path } = await openWritable(args.ledger ?? '', args.schema);
    try {
      const agent = agentFor(client, ledger, args.delivery, args.skill);
      ledgerLine(out, path);
      out.progress(`sending (${agent.delivery})…`);
      const next = { ledger: args.ledger ?? '', connect: args.connect, maxProbes: cliMaxProbes };
      return reportOutcome(out, await agent.send(body, { signal }), next, path);
    } finally {
      await ledger.close();
    }
  }
  const message: Message = { ...body, messageId: crypto.randomUUID() };
  if (args.stream) {
    return streamed(out, client, message, call);
  }
  out.progress('sending…');
  const answer = await client.sendMessage({ message }, call);
  out.document({ status: 'answered', answer });
  printAnswer(out, answer);
  return exitCodes.ok;
}
