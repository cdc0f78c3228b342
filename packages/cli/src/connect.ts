/**
@module
From flags to a checked client. The card is fetched once and checked as `discover()` checks it
(docs/protocol-checks.md#discovery-steps); `--digest` must equal its digest. With `--pin`, `discover()` itself
picks the interface and refuses a card whose preferred interface is not pinned, trusting exactly the digest
just checked. Without, the user accepts the card's word: the first v1.0 interface (of `--binding`, when
given), which the output names. Tokens come from an environment variable or stdin, never from argv.
*/
import {
  type A2aClient,
  type AgentCard,
  createClient,
  discover,
  fetchAgentCard,
  type InterfacePin,
  type ProtocolBinding,
  type ProtocolVersion,
  type SecurityOptions,
} from '@surecall/client';
import type { GrpcBindingProvider } from '@surecall/client/grpc';
import { type AdmittedVersions, v03Binding } from '@surecall/client/v03';
import { type ConnectArgs, UsageError } from './args.js';
import type { Io } from './output.js';

/** A problem with what the user gave that is not a flag's syntax: exit code 2, with words to act on. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

const bindings: readonly ProtocolBinding[] = ['JSONRPC', 'HTTP+JSON'];

/**
The gRPC binding, loaded only for `--binding GRPC` (its entry and its peers, `@grpc/grpc-js` and
`@bufbuild/protobuf`, are Node-only and optional).
*/
async function grpcOf(binding: ProtocolBinding | undefined): Promise<{ grpc?: GrpcBindingProvider }> {
  if (binding !== 'GRPC') {
    return {};
  }
  try {
    return { grpc: (await import('@surecall/client/grpc')).grpcBinding };
  } catch {
    throw new SetupError(
      '--binding GRPC needs @grpc/grpc-js and @bufbuild/protobuf installed beside surecall',
    );
  }
}

/**
The library's options for `--protocol-versions` (docs/protocol-checks.md#v03-peers): none for 1.0 alone, else
the list with the v0.3 binding, which is part of `@surecall/client` and needs nothing installed.

@example
```ts
versionOptions(['1.0', '0.3']); // { protocolVersions: ['1.0', '0.3'], v03: v03Binding }
```
*/
export function versionOptions(versions: readonly ProtocolVersion[] | undefined): {
  protocolVersions?: readonly ProtocolVersion[];
  v03?: typeof v03Binding;
} {
  return versions === undefined ? {} : { protocolVersions: versions, v03: v03Binding };
}

/**
The version a client of `--protocol-versions` speaks over `entry`, given whether it has the entry's binding:
`1.0`, `0.3` where admitted (through the library's own rule, `v03Binding.admit`), or none.

@example
```ts
spokenVersion(entry, true, ['0.3']); // '0.3' for a v0.3 JSON-RPC interface
```
*/
export function spokenVersion(
  entry: AgentCard['supportedInterfaces'][number],
  speaks: boolean,
  versions: readonly ProtocolVersion[] | undefined,
): '1.0' | '0.3' | undefined {
  const admitted: AdmittedVersions | undefined =
    versions === undefined ? undefined : v03Binding.admit(versions);
  if (admitted !== undefined) {
    return admitted.versionOf(entry, speaks);
  }
  return speaks && entry.protocolVersion === '1.0' ? '1.0' : undefined;
}

/** The longest `--token-env` argument an error repeats: environment names are short, tokens are not. */
const maxNamedEnv = 32;

async function readToken(io: Io, args: ConnectArgs): Promise<string | undefined> {
  if (args.tokenEnv !== undefined) {
    const token = io.env[args.tokenEnv];
    if (token === undefined || token.trim() === '') {
      throw new SetupError(
        args.tokenEnv.length <= maxNamedEnv
          ? `the environment variable ${args.tokenEnv} named by --token-env is not set`
          : // A name this long is more likely the token typed in its place: never print it back.
            `the environment variable named by --token-env (${args.tokenEnv.length} characters) is not set; --token-env takes the variable's name, never the token`,
      );
    }
    return token.trim();
  }
  if (args.tokenStdin) {
    let text = '';
    for await (const chunk of io.stdin) {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (text.length > 16 * 1024) {
        throw new SetupError('the token on stdin is longer than 16 KiB');
      }
    }
    const token = text.trim();
    if (token === '') {
      throw new SetupError('--token-stdin read no token from stdin');
    }
    return token;
  }
  return undefined;
}

// A2A spec §4.5.3: a bearer token fits an HTTP bearer, OAuth 2.0 or OpenID Connect scheme.
function bearerSchemes(card: AgentCard): string[] {
  return Object.entries(card.securitySchemes ?? {})
    .filter(
      ([, scheme]) =>
        ('httpAuthSecurityScheme' in scheme &&
          scheme.httpAuthSecurityScheme.scheme.toLowerCase() === 'bearer') ||
        'oauth2SecurityScheme' in scheme ||
        'openIdConnectSecurityScheme' in scheme,
    )
    .map(([name]) => name);
}

async function securityFor(io: Io, args: ConnectArgs, card: AgentCard): Promise<SecurityOptions> {
  const token = await readToken(io, args);
  if (token === undefined) {
    if (args.scheme !== undefined) {
      throw new UsageError('--scheme applies to a token: add --token-env or --token-stdin');
    }
    return { kind: 'anonymous' };
  }
  const names = bearerSchemes(card);
  const scheme = args.scheme ?? (names.length === 1 ? names[0] : undefined);
  if (scheme === undefined) {
    throw new SetupError(
      names.length === 0
        ? 'the card declares no bearer, OAuth 2.0 or OpenID Connect scheme for a token'
        : 'the card declares several schemes a token fits: name one with --scheme',
    );
  }
  return { kind: 'bearer', scheme, token: async () => token };
}

/**
The interface the card prefers among those this client speaks, of `binding` when given (A2A spec §8.3.2: the
order is the preference), in 1.0 wherever one is, else in 0.3 where `versions` admits it
(docs/protocol-checks.md#v03-peers).
*/
function preferredPin(
  card: AgentCard,
  binding: ProtocolBinding | undefined,
  versions: readonly ProtocolVersion[] | undefined,
): InterfacePin {
  const spoken = (version: string) =>
    card.supportedInterfaces.find(
      (candidate) =>
        (binding === undefined || candidate.protocolBinding === binding) &&
        spokenVersion(
          candidate,
          bindings.includes(candidate.protocolBinding as ProtocolBinding) || binding === 'GRPC',
          versions,
        ) === version,
    );
  const entry = spoken('1.0') ?? spoken('0.3');
  if (entry === undefined) {
    const over = binding ?? 'JSONRPC or HTTP+JSON';
    throw new SetupError(
      versions?.includes('0.3') === true
        ? `the card lists no interface over ${over} in a version --protocol-versions names`
        : `the card lists no v1.0 interface over ${over}`,
    );
  }
  return {
    binding: entry.protocolBinding as ProtocolBinding,
    url: entry.url,
    ...(entry.tenant === undefined ? {} : { tenant: entry.tenant }),
  };
}

/**
A client of the agent the flags name.

@example
```ts
const client = await connect(io, parsed.connect);
```
*/
export async function connect(io: Io, args: ConnectArgs): Promise<A2aClient> {
  const versions = versionOptions(args.protocolVersions);
  const fetched = await fetchAgentCard({ cardUrl: args.cardUrl, loopback: args.loopback, ...versions });
  if (args.digest !== undefined && args.digest !== fetched.digest) {
    throw new SetupError(
      'the card is not the one --digest names: it changed since it was reviewed; check it with `surecall card`',
    );
  }
  const security = await securityFor(io, args, fetched.card);
  const grpc = await grpcOf(args.binding);
  if (args.pins.length > 0) {
    const pins = args.pins.flatMap((url) =>
      (args.binding === undefined ? bindings : [args.binding]).map((binding) => ({ binding, url })),
    );
    return discover({
      cardUrl: args.cardUrl,
      loopback: args.loopback,
      pins,
      trust: { kind: 'digest', digest: fetched.digest },
      security,
      ...grpc,
      ...versions,
    });
  }
  return createClient({
    card: fetched.card,
    cardDigest: fetched.digest,
    pin: preferredPin(fetched.card, args.binding, args.protocolVersions),
    security,
    ...grpc,
    ...versions,
  });
}
