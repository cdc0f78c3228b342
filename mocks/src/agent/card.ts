import { behaviours, type DataSkillName, dataSkills } from './behaviours.js';
import { type IdempotencyMode, idempotencyExtensionUri } from './idempotency.js';
import type { AgentSkill, WireAgentCard } from './wire.js';

/** Where the public card is served (A2A spec §8.2, RFC 8615). */
export const agentCardPath = '/.well-known/agent-card.json';
/** Where the JSON-RPC binding is served. */
export const jsonRpcPath = '/a2a/jsonrpc';
/** Where the HTTP+JSON binding is served; the operations' paths (A2A spec §2.1) follow it. */
export const restPath = '/a2a/rest';

/** The version of the mock agent, as its card states it. */
export const agentVersion = '0.1.0';

/** What a card depends on. */
export type CardOptions = {
  /**
  The request's origin: every URL in the card is under it, so the card is right behind any port or proxy.
  */
  readonly origin: string;
  readonly mode: IdempotencyMode;
  /** The richer card answered by GetExtendedAgentCard to an authenticated caller. */
  readonly extended: boolean;
  /** The gRPC interface's URL, when a gRPC mount serves the agent (`mocks/src/grpc/`). */
  readonly grpcUrl?: string | undefined;
};

/** The card's default input modes: what the agent reads unless a skill says otherwise. */
const defaultInputModes = ['text/plain', 'application/json'];
/** The input modes of the data skills, which take JSON only. */
const dataInputModes = ['application/json'];

/**
The media types the agent reads for a message: the named data skill's input modes, else the card's defaults
(A2A spec §4.4.5: a skill's modes override them).

@example
```ts
inputModesOf(undefined); // ['text/plain', 'application/json']
inputModesOf('sum'); // ['application/json']
```
*/
export function inputModesOf(skill: DataSkillName | undefined): readonly string[] {
  return skill === undefined ? defaultInputModes : dataInputModes;
}

const skillOf = (info: (typeof behaviours)[number]): AgentSkill => ({
  id: info.name,
  name: info.name,
  description: info.summary,
  tags: ['mock', info.name],
  examples: [info.example],
});

/**
The agent's card (A2A spec §3.8). Both interfaces are listed without a `tenant`, even when the agent requires
one: tests choose the tenant themselves and pass it as the REST path prefix or `params.tenant`. The
idempotency extension is advertised only when the agent honours keys (docs/idempotency.md#honouring-peers). A
bearer scheme is declared for GetExtendedAgentCard; no other operation needs credentials, so the requirements
offer two alternatives, none (anonymous) or the bearer scheme alone, which lets a client choose either
(docs/protocol-checks.md#security-selection).

@example
```ts
const card = buildAgentCard({ origin: 'http://127.0.0.1:4000', mode: 'honouring', extended: false });
card.supportedInterfaces[0]; // { url: 'http://127.0.0.1:4000/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }
```
*/
export function buildAgentCard(options: CardOptions): WireAgentCard {
  const { origin, mode, extended, grpcUrl } = options;
  const card: WireAgentCard = {
    name: 'surecall mock agent',
    description: extended
      ? 'A reference A2A v1.0 agent for tests. The first word of a message picks a scripted behaviour. This is the extended card, served to authenticated callers.'
      : 'A reference A2A v1.0 agent for tests. The first word of a message picks a scripted behaviour.',
    // A2A spec §8.3.2: the order is the preference; JSON-RPC first, as the official SDK's sample cards do.
    supportedInterfaces: [
      { url: `${origin}${jsonRpcPath}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}${restPath}`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      // Last, so a client that speaks all three keeps choosing JSON-RPC unless it pins GRPC (A2A spec
      // §8.3.2).
      ...(grpcUrl === undefined
        ? []
        : [{ url: grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0' } as const]),
    ],
    version: agentVersion,
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
      ...(mode === 'honouring'
        ? {
            extensions: [
              {
                uri: idempotencyExtensionUri,
                description:
                  'Client-supplied idempotency keys on SendMessage: a retried send returns the task the first one created instead of starting a second.',
                required: false,
              },
            ],
          }
        : {}),
    },
    securitySchemes: {
      bearer: {
        httpAuthSecurityScheme: {
          scheme: 'Bearer',
          description: 'Needed only for GetExtendedAgentCard; any non-empty token is accepted.',
        },
      },
    },
    // A2A spec §4.5.3: an empty alternative admits anonymous callers; the single-scheme one lets a bearer
    // client reach the extended card.
    securityRequirements: [{ schemes: {} }, { schemes: { bearer: { list: [] } } }],
    defaultInputModes: [...defaultInputModes],
    defaultOutputModes: ['text/plain'],
    // The data skills take and give JSON only (A2A spec §4.4.5: a skill's modes override the card's
    // defaults).
    skills: [
      ...behaviours.map(skillOf),
      ...dataSkills
        .filter((skill) => extended || skill.extendedOnly !== true)
        .map(
          (skill): AgentSkill => ({
            id: skill.name,
            name: skill.name,
            description: skill.summary,
            tags: ['mock', 'data'],
            inputModes: [...dataInputModes],
            outputModes: ['application/json'],
          }),
        ),
    ],
  };
  if (extended) {
    card.provider = { organization: 'surecall', url: origin };
    card.documentationUrl = `${origin}${agentCardPath}`;
  }
  return card;
}

async function entityTag(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
  const hex = Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `"${hex}"`;
}

// RFC 9110 §13.1.2: If-None-Match compares with the weak function, so W/"x" matches "x"; `*` matches any.
function matches(ifNoneMatch: string, tag: string): boolean {
  return ifNoneMatch
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === '*' || candidate === tag);
}

/**
The answer to `GET /.well-known/agent-card.json`: the card (as built, or as the agent's serializer printed it)
as `application/json` with an `ETag` and `Cache-Control` (A2A spec §8.6); a matching `If-None-Match` gets 304
with no body. HEAD gets the headers alone; any other method 405.

@example
```ts
const first = await agentCardResponse(request, card);
const again = await agentCardResponse(
  new Request(request.url, { headers: { 'if-none-match': first.headers.get('etag') ?? '' } }),
  card,
); // 304
```
*/
export async function agentCardResponse(request: Request, card: unknown): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
  }
  const body = JSON.stringify(card);
  const etag = await entityTag(body);
  const headers = { etag, 'cache-control': 'public, max-age=3600' };
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== null && matches(ifNoneMatch, etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}
