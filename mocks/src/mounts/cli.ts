#!/usr/bin/env node
/**
@module
`surecall-mock-agent --port <n> [--grpc-port <n>] [--protocol 1.0|0.3] [--mode honouring|refusing|foreign] [--tenant-required] [--step-ms <n>] [--serializer <style>[,<style>…]] [--cors-origin <origin>]… [--extended-card-scope <scope>] [--banner]`
(in this repository: `npm run mock-agent -- …`)

Starts the mock agent on 127.0.0.1 and prints exactly one line, `READY <port> token=<token>`, once it listens
(`--port 0` picks a free port), so a script can wait for that line. The token is the per-run secret of the
control routes (`/__faults`, `/__executions`), sent as `x-surecall-mock-token`; it is random unless the
environment sets `SURECALL_MOCK_TOKEN` (32 to 256 characters of `[A-Za-z0-9_-]`), which a test harness that
starts the agent does to know it in advance. Browsers may call the agent from loopback pages and from each
`--cors-origin` (docs/interop.md#loopback-server-security). `--banner` then prints the card URL and example
calls for both bindings (what `npm start` shows). `--grpc-port` serves the agent over gRPC too, on that port
of 127.0.0.1 (`0` picks a free one), with the same tasks and fault lab (`@surecall/mocks/grpc`), and prints a
second line after `READY`, `GRPC <port>`. SIGTERM or SIGINT closes the server and exits 0. `--serializer`
picks how answers are printed: `omit-defaults` (the default), `emit-defaults`, `proto-names`, `enum-numbers`,
or several joined by commas (docs/interop.md#serializer-styles). `--extended-card-scope` is
`extendedCardScope`: GetExtendedAgentCard then answers only a bearer token that grants that scope (the mock
reads a token as its scopes joined by `+`). `--protocol 0.3` makes it a v0.3-only agent
(`AgentOptions.protocol`: a v0.3 card, A2A v0.3's JSON-RPC methods and HTTP+JSON routes, with the same fault
lab), which takes neither `--grpc-port`, `--tenant-required` nor `--serializer`. Bad arguments print the usage
on stderr and exit 2.
*/
import { parseArgs } from 'node:util';
import type { IdempotencyMode } from '../agent/agent.js';
import { parseSerializerStyles, type SerializerStyle } from '../agent/serializer.js';
import type { RunningMockAgent } from './loopback.js';

const usage =
  'usage: surecall-mock-agent --port <0-65535> [--grpc-port <0-65535>] [--protocol 1.0|0.3] [--mode honouring|refusing|foreign] [--tenant-required] [--step-ms <n>] [--serializer omit-defaults|emit-defaults|proto-names|enum-numbers[,…]] [--cors-origin <origin>]… [--extended-card-scope <scope>] [--banner]';
const modes: readonly IdempotencyMode[] = ['honouring', 'refusing', 'foreign'];
const protocols = ['1.0', '0.3'] as const;

type Cli = {
  readonly port: number;
  readonly grpcPort: number | undefined;
  readonly protocol: (typeof protocols)[number];
  readonly mode: IdempotencyMode | undefined;
  readonly tenantRequired: boolean;
  readonly stepMs: number | undefined;
  readonly serializer: readonly SerializerStyle[] | undefined;
  readonly corsOrigins: readonly string[];
  readonly extendedCardScope: string | undefined;
  readonly banner: boolean;
};

/** A serialized origin (RFC 6454, section 6.2), what a browser sends in `Origin`. */
function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value && value !== 'null';
  } catch {
    return false;
  }
}

function wholeNumber(value: string | undefined, max: number): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) {
    return undefined;
  }
  const number = Number(value);
  return number <= max ? number : undefined;
}

function readArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        'grpc-port': { type: 'string' },
        protocol: { type: 'string', default: '1.0' },
        mode: { type: 'string' },
        'tenant-required': { type: 'boolean', default: false },
        'step-ms': { type: 'string' },
        serializer: { type: 'string' },
        'cors-origin': { type: 'string', multiple: true },
        'extended-card-scope': { type: 'string' },
        banner: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch {
    return undefined;
  }
}

function parseCli(argv: readonly string[]): Cli | undefined {
  const values = readArgs(argv);
  if (values === undefined) {
    return undefined;
  }
  const port = wholeNumber(values.port ?? '0', 65_535);
  const grpcPort = values['grpc-port'] === undefined ? undefined : wholeNumber(values['grpc-port'], 65_535);
  if (values['grpc-port'] !== undefined && grpcPort === undefined) {
    return undefined;
  }
  const mode = modes.find((candidate) => candidate === values.mode);
  const stepMs = values['step-ms'] === undefined ? undefined : wholeNumber(values['step-ms'], 60_000);
  if (port === undefined || (values.mode !== undefined && mode === undefined)) {
    return undefined;
  }
  if (values['step-ms'] !== undefined && stepMs === undefined) {
    return undefined;
  }
  const serializer = values.serializer === undefined ? undefined : parseSerializerStyles(values.serializer);
  if (values.serializer !== undefined && serializer === undefined) {
    return undefined;
  }
  const corsOrigins = values['cors-origin'] ?? [];
  if (!corsOrigins.every(isOrigin)) {
    return undefined;
  }
  // A token68 run without `+` (RFC 9110 §11.2), which the mock reads as the separator of a token's scopes.
  const extendedCardScope = values['extended-card-scope'];
  if (extendedCardScope !== undefined && !/^[A-Za-z0-9._~/-]+$/.test(extendedCardScope)) {
    return undefined;
  }
  const protocol = protocols.find((candidate) => candidate === values.protocol);
  // A v0.3 agent has no gRPC service, no tenant and no serializer styles (`AgentOptions.protocol`).
  const v03Refuses = grpcPort !== undefined || values['tenant-required'] || serializer !== undefined;
  if (protocol === undefined || (protocol === '0.3' && v03Refuses)) {
    return undefined;
  }
  return {
    port,
    grpcPort,
    protocol,
    mode,
    tenantRequired: values['tenant-required'],
    stepMs,
    serializer,
    corsOrigins,
    extendedCardScope,
    banner: values.banner,
  };
}

function v03Banner(mock: RunningMockAgent): string {
  const headers = `-H 'Content-Type: application/json'`;
  const control = `-H 'x-surecall-mock-token: ${mock.token}'`;
  const send = (text: string) =>
    `{"message":{"kind":"message","messageId":"m-${text.split(' ')[0]}","role":"user","parts":[{"kind":"text","text":"${text}"}]},"configuration":{"blocking":true}}`;
  return [
    '',
    `A2A v0.3 mock agent on ${mock.origin}`,
    `  agent card  ${mock.cardUrl}`,
    `  JSON-RPC    ${mock.origin}/a2a/jsonrpc`,
    `  HTTP+JSON   ${mock.origin}/a2a/rest (the v0.3 routes: /v1/message:send, /v1/tasks/{id}, …)`,
    '',
    'Try:',
    `  curl -s ${mock.cardUrl}`,
    `  curl -s ${headers} -d '{"jsonrpc":"2.0","id":1,"method":"message/send","params":${send('echo hello')}}' ${mock.origin}/a2a/jsonrpc`,
    `  curl -sN ${headers} -d '{"jsonrpc":"2.0","id":2,"method":"message/stream","params":${send('task alpha beta')}}' ${mock.origin}/a2a/jsonrpc`,
    '',
    'Faults (the next matching request only):',
    `  curl -s ${control} -d '{"kind":"drop-after","operation":"SendMessage"}' ${mock.origin}/__faults`,
    `  curl -s ${control} '${mock.origin}/__executions?messageId=m-echo'`,
    '',
  ].join('\n');
}

function banner(mock: RunningMockAgent): string {
  if (mock.agent.protocol === '0.3') {
    return v03Banner(mock);
  }
  const headers = `-H 'A2A-Version: 1.0' -H 'Content-Type: application/json'`;
  const control = `-H 'x-surecall-mock-token: ${mock.token}'`;
  const send = (text: string) =>
    `{"message":{"messageId":"m-${text.split(' ')[0]}","role":"ROLE_USER","parts":[{"text":"${text}"}]}}`;
  return [
    '',
    `A2A v1.0 mock agent on ${mock.origin}`,
    `  agent card  ${mock.cardUrl}`,
    `  devtools    paste ${mock.cardUrl}#mock-token=${mock.token}`,
    '              (the fragment gives the Faults panel the control token; it never leaves the page)',
    `  JSON-RPC    ${mock.origin}/a2a/jsonrpc`,
    `  HTTP+JSON   ${mock.origin}/a2a/rest`,
    ...(mock.grpcUrl === undefined ? [] : [`  GRPC        ${mock.grpcUrl} (lf.a2a.v1.A2AService)`]),
    '',
    'Try:',
    `  curl -s ${mock.cardUrl}`,
    `  curl -s ${headers} -d '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":${send('echo hello')}}' ${mock.origin}/a2a/jsonrpc`,
    `  curl -sN ${headers} -d '{"jsonrpc":"2.0","id":2,"method":"SendStreamingMessage","params":${send('task alpha beta')}}' ${mock.origin}/a2a/jsonrpc`,
    `  curl -s ${headers} -d '${send('input')}' ${mock.origin}/a2a/rest/message:send`,
    `  curl -s -H 'A2A-Version: 1.0' '${mock.origin}/a2a/rest/tasks?pageSize=5'`,
    '',
    'Faults (the next matching request only):',
    `  curl -s ${control} -d '{"kind":"drop-after","operation":"SendMessage"}' ${mock.origin}/__faults`,
    `  curl -s ${control} ${mock.origin}/__faults`,
    `  curl -s ${control} '${mock.origin}/__executions?messageId=m-echo'`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const cli = parseCli(process.argv.slice(2));
  if (cli === undefined) {
    console.error(usage);
    process.exit(2);
  }
  // Loaded only once the arguments are known good, so a refused start answers at once.
  const { startMockAgent } = await import('./loopback.js');
  const token = process.env['SURECALL_MOCK_TOKEN'];
  const mock = await startMockAgent({
    port: cli.port,
    ...(cli.grpcPort === undefined ? {} : { grpcPort: cli.grpcPort }),
    protocol: cli.protocol,
    corsOrigins: cli.corsOrigins,
    ...(cli.extendedCardScope === undefined ? {} : { extendedCardScope: cli.extendedCardScope }),
    ...(token === undefined || token === '' ? {} : { token }),
    tenantRequired: cli.tenantRequired,
    ...(cli.mode === undefined ? {} : { mode: cli.mode }),
    ...(cli.stepMs === undefined ? {} : { stepMs: cli.stepMs }),
    ...(cli.serializer === undefined ? {} : { serializer: cli.serializer }),
  });
  let stopping = false;
  const stop = () => {
    if (stopping) {
      return;
    }
    stopping = true;
    mock.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  console.log(`READY ${mock.port} token=${mock.token}`);
  if (mock.grpcUrl !== undefined) {
    console.log(`GRPC ${new URL(mock.grpcUrl).port}`);
  }
  if (cli.banner) {
    console.log(banner(mock));
  }
}

main().catch((error: unknown) => {
  console.error('mock-agent failed to start:', error instanceof Error ? error.message : 'unknown error');
  process.exit(1);
});
