/**
@module
The command line, read by Node's own `util.parseArgs` (strict: an unknown flag, a missing value or a stray
argument is a usage error) and checked into one typed command. Nothing here does I/O; a refusal is a
{@link UsageError} whose message says what to change, exit code 2.
*/
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { JsonValue, ProtocolBinding, ProtocolVersion } from '@surecall/client';

/** Arguments that break a rule: the message names the flag and what it needs, never a token. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** How to reach and trust an agent: the flags `send` and `sends reconcile` share. */
export type ConnectArgs = {
  readonly cardUrl: string;
  readonly loopback: boolean;
  readonly binding: ProtocolBinding | undefined;
  readonly pins: readonly string[];
  readonly digest: string | undefined;
  readonly tokenEnv: string | undefined;
  readonly tokenStdin: boolean;
  readonly scheme: string | undefined;
  /** `--protocol-versions`: the A2A versions to speak; absent, 1.0 alone. */
  readonly protocolVersions: readonly ProtocolVersion[] | undefined;
};

/**
The delivery modes a shell may ask for (docs/durable-send.md#delivery-modes); the attested one needs a written
attestation, which a flag is not.
*/
export type CliDelivery = 'keyed' | 'at-most-once';

/** One command, checked. */
export type Command =
  | { readonly name: 'help' }
  | {
      readonly name: 'card';
      readonly cardUrl: string;
      readonly loopback: boolean;
      /** `GRPC`: the preferred interface is chosen as a client given the gRPC binding chooses it. */
      readonly binding: ProtocolBinding | undefined;
      /**
      `--protocol-versions`: a v0.3 card is read, and the preferred interface chosen, as such a client would.
      */
      readonly protocolVersions: readonly ProtocolVersion[] | undefined;
      readonly json: boolean;
    }
  | {
      readonly name: 'send';
      readonly connect: ConnectArgs;
      /** The text part; absent when `--data` alone makes the message. */
      readonly text: string | undefined;
      readonly data: JsonValue | undefined;
      readonly skill: string | undefined;
      readonly stream: boolean;
      readonly durable: boolean;
      readonly ledger: string | undefined;
      /** The PostgreSQL schema of a `postgres://` ledger; the store's default when absent. */
      readonly schema: string | undefined;
      readonly delivery: CliDelivery | undefined;
      readonly json: boolean;
    }
  | {
      readonly name: 'sends';
      readonly action: 'list' | 'show' | 'reconcile' | 'watch';
      readonly ids: readonly string[];
      readonly ledger: string;
      readonly schema: string | undefined;
      readonly connect: ConnectArgs | undefined;
      readonly json: boolean;
    }
  | {
      readonly name: 'devtools';
      readonly ledger: string;
      readonly schema: string | undefined;
      readonly port: number;
      readonly json: boolean;
    };

const connectOptions = {
  loopback: { type: 'boolean', default: false },
  binding: { type: 'string' },
  pin: { type: 'string', multiple: true, default: [] },
  digest: { type: 'string' },
  'token-env': { type: 'string' },
  'token-stdin': { type: 'boolean', default: false },
  scheme: { type: 'string' },
  'protocol-versions': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

const DIGEST = /^sha256:[0-9a-f]{64}$/;
// The PostgreSQL store's rule for its schema name: lowercase letters, digits and `_`, at most 48, not
// starting with a digit.
const SCHEMA = /^[a-z_][a-z0-9_]{0,47}$/;

/** `--schema`, which only a `postgres://` ledger takes. */
function schemaOf(ledger: string | undefined, schema: string | undefined): string | undefined {
  if (schema === undefined) {
    return undefined;
  }
  if (ledger === undefined || !/^postgres(ql)?:\/\//i.test(ledger)) {
    throw new UsageError('--schema names the schema of a postgres:// ledger');
  }
  if (!SCHEMA.test(schema)) {
    throw new UsageError(
      '--schema takes lowercase letters, digits and _, at most 48, not starting with a digit',
    );
  }
  return schema;
}
// POSIX: an environment variable's name is letters, digits and underscores, not starting with a digit.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function read<O extends NonNullable<ParseArgsConfig['options']>>(args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    // parseArgs names the flag in its message ("Unknown option '--x'"); the value of a flag never appears in
    // it.
    throw new UsageError(error instanceof Error ? error.message : 'the arguments could not be read');
  }
}

type ConnectValues = {
  readonly loopback: boolean;
  readonly binding?: string | undefined;
  readonly pin: readonly string[];
  readonly digest?: string | undefined;
  readonly 'token-env'?: string | undefined;
  readonly 'token-stdin': boolean;
  readonly scheme?: string | undefined;
  readonly 'protocol-versions'?: string | undefined;
};

function connectArgs(cardUrl: string, values: ConnectValues): ConnectArgs {
  const { digest } = values;
  const binding = bindingOf(values.binding);
  if (digest !== undefined && !DIGEST.test(digest)) {
    throw new UsageError(
      '--digest must be sha256: and 64 lowercase hex digits, as `surecall card` prints it',
    );
  }
  const tokenEnv = values['token-env'];
  if (tokenEnv !== undefined && !ENV_NAME.test(tokenEnv)) {
    throw new UsageError('--token-env takes the name of an environment variable, never the token itself');
  }
  if (tokenEnv !== undefined && values['token-stdin']) {
    throw new UsageError('give the token one way: --token-env or --token-stdin');
  }
  return {
    cardUrl,
    loopback: values.loopback,
    binding,
    pins: values.pin,
    digest,
    tokenEnv,
    tokenStdin: values['token-stdin'],
    scheme: values.scheme,
    protocolVersions: versionsOf(values['protocol-versions']),
  };
}

function one(positionals: readonly string[], what: string): string {
  const [value, ...rest] = positionals;
  if (value === undefined) {
    throw new UsageError(`missing ${what}`);
  }
  if (rest.length > 0) {
    throw new UsageError('too many arguments');
  }
  return value;
}

/** `--binding`: one of the three bindings (`GRPC` through `@surecall/client/grpc`, Node only). */
function bindingOf(binding: string | undefined): ProtocolBinding | undefined {
  if (binding !== undefined && binding !== 'JSONRPC' && binding !== 'HTTP+JSON' && binding !== 'GRPC') {
    throw new UsageError('--binding must be JSONRPC, HTTP+JSON or GRPC');
  }
  return binding;
}

/**
`--protocol-versions`: `1.0` and `0.3`, comma-separated, each once (the library's `protocolVersions`,
docs/protocol-checks.md#v03-peers).
*/
function versionsOf(list: string | undefined): readonly ProtocolVersion[] | undefined {
  if (list === undefined) {
    return undefined;
  }
  const versions = list.split(',');
  if (
    versions.some(
      (version, index) => (version !== '1.0' && version !== '0.3') || versions.indexOf(version) !== index,
    )
  ) {
    throw new UsageError('--protocol-versions takes 1.0 and 0.3, comma-separated, each once: 1.0,0.3');
  }
  return versions as ProtocolVersion[];
}

function cardCommand(args: readonly string[]): Command {
  const { values, positionals } = read(args, {
    loopback: { type: 'boolean', default: false },
    binding: { type: 'string' },
    'protocol-versions': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  return {
    name: 'card',
    cardUrl: one(positionals, 'the card URL'),
    loopback: values.loopback,
    binding: bindingOf(values.binding),
    protocolVersions: versionsOf(values['protocol-versions']),
    json: values.json,
  };
}

function sendCommand(args: readonly string[]): Command {
  const { values, positionals } = read(args, {
    ...connectOptions,
    data: { type: 'string' },
    skill: { type: 'string' },
    stream: { type: 'boolean', default: false },
    durable: { type: 'boolean', default: false },
    ledger: { type: 'string' },
    schema: { type: 'string' },
    delivery: { type: 'string' },
  });
  const [cardUrl, text, ...rest] = positionals;
  if (cardUrl === undefined || (text === undefined && values.data === undefined)) {
    throw new UsageError('send needs the card URL and the text to send (or --data)');
  }
  if (rest.length > 0) {
    throw new UsageError('too many arguments: quote the text to send as one argument');
  }
  if (text === '') {
    throw new UsageError('the text to send must not be empty');
  }
  let data: JsonValue | undefined;
  if (values.data !== undefined) {
    try {
      data = JSON.parse(values.data) as JsonValue;
    } catch {
      throw new UsageError('--data must be JSON, e.g. --data \'{"a":1,"b":2}\'');
    }
  }
  const { delivery } = values;
  if (delivery !== undefined && delivery !== 'keyed' && delivery !== 'at-most-once') {
    throw new UsageError('--delivery must be keyed or at-most-once');
  }
  if (values.durable && values.ledger === undefined) {
    throw new UsageError(
      '--durable needs --ledger <path | postgres://…>: the send is recorded there before it leaves',
    );
  }
  if (!values.durable && (values.ledger !== undefined || delivery !== undefined)) {
    throw new UsageError('--ledger and --delivery apply to a durable send: add --durable');
  }
  if (values.durable && values.stream) {
    throw new UsageError(
      'a durable send is one SendMessage, recorded and reconciled; --stream and --durable do not combine',
    );
  }
  return {
    name: 'send',
    connect: connectArgs(cardUrl, values),
    text,
    data,
    skill: values.skill,
    stream: values.stream,
    durable: values.durable,
    ledger: values.ledger,
    schema: schemaOf(values.ledger, values.schema),
    delivery,
    json: values.json,
  };
}

const sendsActions = ['list', 'show', 'reconcile', 'watch'] as const;

function sendsCommand(args: readonly string[]): Command {
  const { values, positionals } = read(args, {
    ...connectOptions,
    ledger: { type: 'string' },
    schema: { type: 'string' },
    card: { type: 'string' },
  });
  const [action, ...ids] = positionals;
  const known = sendsActions.find((candidate) => candidate === action);
  if (known === undefined) {
    throw new UsageError('sends needs one of: list, show <id>, reconcile [<id>…], watch');
  }
  if (values.ledger === undefined) {
    throw new UsageError('sends needs --ledger <path | postgres://…>');
  }
  if (known === 'show' && ids.length !== 1) {
    throw new UsageError('sends show needs exactly one record id');
  }
  if ((known === 'list' || known === 'watch') && ids.length > 0) {
    throw new UsageError(`sends ${known} takes no record ids`);
  }
  if (known === 'reconcile' && values.card === undefined) {
    throw new UsageError(
      'sends reconcile needs --card <card-url>: the agent its sends went to, probed for evidence',
    );
  }
  return {
    name: 'sends',
    action: known,
    ids,
    ledger: values.ledger,
    schema: schemaOf(values.ledger, values.schema),
    connect: values.card === undefined ? undefined : connectArgs(values.card, values),
    json: values.json,
  };
}

function devtoolsCommand(args: readonly string[]): Command {
  const { values, positionals } = read(args, {
    ledger: { type: 'string' },
    schema: { type: 'string' },
    port: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length > 0) {
    throw new UsageError('devtools takes no arguments besides its flags');
  }
  if (values.ledger === undefined) {
    throw new UsageError('devtools needs --ledger <path | postgres://…>');
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (values.port !== undefined && (!/^\d{1,5}$/.test(values.port) || port > 65_535)) {
    throw new UsageError('--port must be a whole number from 0 (any free port) to 65535');
  }
  return {
    name: 'devtools',
    ledger: values.ledger,
    schema: schemaOf(values.ledger, values.schema),
    port,
    json: values.json,
  };
}

/**
Reads the command line (without `node` and the script).

@throws {UsageError} for anything that breaks a rule.

@example
```ts
parseCommand(['card', 'https://agent.example/.well-known/agent-card.json', '--json']);
// { name: 'card', cardUrl: 'https://agent.example/.well-known/agent-card.json', loopback: false, binding: undefined, protocolVersions: undefined, json: true }
```
*/
export function parseCommand(argv: readonly string[]): Command {
  const [name, ...args] = argv;
  switch (name) {
    case 'card':
      return cardCommand(args);
    case 'send':
      return sendCommand(args);
    case 'sends':
      return sendsCommand(args);
    case 'devtools':
      return devtoolsCommand(args);
    case 'help':
    case '--help':
    case '-h':
      return { name: 'help' };
    case undefined:
      throw new UsageError('missing command');
    default:
      throw new UsageError('unknown command');
  }
}
