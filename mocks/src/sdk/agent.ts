/**
@module
The official `@a2a-js/sdk@1.3.0` server on a loopback port, for interop tests and benchmarks: both HTTP
bindings over one `DefaultRequestHandler` with in-memory task and push stores, streaming, push notifications
and the extended card enabled, and the executor of `sdk-executor.ts` (the mock agent's words: `echo`, `task`,
`input`, `slow`, and its data skills `sum` and `sum-task`); with `grpc: true`, its gRPC binding too (the SDK's
`server/grpc` entry on a second loopback port, over the same handler). Node only (express, grpc-js).
*/
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type User,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import {
  grpcService,
  A2AService as SdkGrpcService,
  UserBuilder as SdkGrpcUserBuilder,
} from '@a2a-js/sdk/server/grpc';
import { Server as GrpcServer, ServerCredentials } from '@grpc/grpc-js';
import express, { type Request } from 'express';
import { dataSkills } from '../agent/behaviours.js';
import { agentCardPath, jsonRpcPath, restPath } from '../agent/card.js';
import type { WireAgentCard } from '../agent/wire.js';
import { createSdkExecutor } from './executor.js';

/** Options of {@link startSdkAgent}. */
export type SdkAgentOptions = {
  /** The bearer token that unlocks the extended card. @default 'sdk-agent-token' */
  readonly bearerToken?: string;
  /** Spacing of the `slow N` progress chunks, in milliseconds. @default 1000 */
  readonly tickMs?: number;
  /**
  The SDK's v0.3 compatibility (its `legacyCompat`, the legacy mode): the card adds a v0.3 JSONRPC interface
  last, and a request without `A2A-Version` (or with 0.3) is served as v0.3, the card request included, which
  then gets the SDK's v0.3 card. @default false
  */
  readonly legacy?: boolean;
  /**
  With `legacy`, the card also lists the HTTP+JSON endpoint in v0.3, ahead of the v0.3 JSONRPC one (after
  every 1.0 interface), so that the SDK's v0.3 REST router, which serves only a card that declares it,
  answers the v0.3 HTTP+JSON routes, and a client admitting only 0.3 selects them. @default false
  */
  readonly legacyRest?: boolean;
  /**
  Also serve the SDK's gRPC binding on a loopback port, listed in the card (with its tenant form) after the
  HTTP interfaces. @default false
  */
  readonly grpc?: boolean;
};

/** One push notification the SDK delivered to {@link RunningSdkAgent.webhookUrl}. */
export type PushDelivery = {
  /** The `X-A2A-Notification-Token` header, when the config carried a token. */
  readonly token: string | undefined;
  /** The JSON body: one StreamResponse (A2A spec §4.3.3). */
  readonly body: unknown;
};

/** The running SDK server. */
export type RunningSdkAgent = {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `<origin>/.well-known/agent-card.json` */
  readonly cardUrl: string;
  /** The JSON-RPC interface URL. */
  readonly jsonRpcUrl: string;
  /** The HTTP+JSON interface URL. */
  readonly restUrl: string;
  /** The gRPC interface URL, `http://127.0.0.1:<port>`, when started with `grpc: true`. */
  readonly grpcUrl: string | undefined;
  /** The public card, exactly as served (ProtoJSON). */
  readonly card: WireAgentCard;
  /** The token that makes GetExtendedAgentCard answer the extended card. */
  readonly bearerToken: string;
  /** A loopback URL on this server that records push notifications, for push configs. */
  readonly webhookUrl: string;
  /** Every push notification received at `webhookUrl`, in arrival order. */
  readonly pushes: readonly PushDelivery[];
  /**
  Every request the server received but the webhook's, in arrival order: its method, path and headers by
  lowercase name, for tests of what a client sends beside the body (a tenant, a `traceparent`). A gRPC call
  is one too, as the SDK's service reads it: method `POST`, its RPC path, and its metadata as headers.
  */
  readonly received: readonly {
    readonly method: string;
    readonly path: string;
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  }[];
  /** Stop the executor's timers, cut every open connection (streams included) and close the port. */
  close(): Promise<void>;
};

/** The tenant of the card's second pair of interfaces. */
export const sdkTenant = 'acme';

/** The extension the SDK peer's card declares: named by a URN, not a URL. */
export const sdkExtensionUri = 'urn:example:echo-extension:v1';

/** The description of the extended card, so a test can tell the two apart. */
export const sdkExtendedDescription =
  'The official SDK server, extended card: served to bearer-authenticated callers.';

function grpcInterfaces(grpcUrl: string | undefined): WireAgentCard['supportedInterfaces'] {
  return grpcUrl === undefined
    ? []
    : [
        { url: grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0' },
        { url: grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: sdkTenant },
      ];
}

function buildCard(
  origin: string,
  extended: boolean,
  legacy: 'none' | 'jsonrpc' | 'both',
  grpcUrl?: string,
): WireAgentCard {
  return {
    name: 'surecall interop peer (@a2a-js/sdk 1.3.0)',
    description: extended
      ? sdkExtendedDescription
      : 'The official SDK server; the first word of a message picks a behaviour: echo, task, input, slow.',
    // The same two endpoints again under a tenant (A2A spec §8.3.2): the SDK routes it as a REST path segment
    // or the JSON-RPC `params.tenant`, and scopes its stores by it.
    supportedInterfaces: [
      { url: `${origin}${jsonRpcPath}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}${restPath}`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      {
        url: `${origin}${jsonRpcPath}`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
        tenant: sdkTenant,
      },
      {
        url: `${origin}${restPath}`,
        protocolBinding: 'HTTP+JSON',
        protocolVersion: '1.0',
        tenant: sdkTenant,
      },
      ...grpcInterfaces(grpcUrl),
      // The SDK's legacy mode needs the card to declare a v0.3 JSONRPC interface; listed last, as a card that
      // prefers 1.0 would (A2A spec §8.3.2: the client takes the first it supports).
      // With `legacyRest`, the v0.3 HTTP+JSON interface comes first of the two, so a client that admits only
      // 0.3 selects it.
      ...(legacy === 'both'
        ? [{ url: `${origin}${restPath}`, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' }]
        : []),
      ...(legacy === 'none'
        ? []
        : [{ url: `${origin}${jsonRpcPath}`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }]),
    ],
    version: '1.3.0',
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
      // A URN is a URI (RFC 3986, RFC 8141), and the spec asks no more of an extension's `uri`: real cards
      // name extensions so.
      extensions: [
        { uri: sdkExtensionUri, description: 'Declared only: an extension named by a URN.', required: false },
      ],
    },
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', description: 'Unlocks the extended card.' } },
    },
    // A2A spec §4.5: an OR of alternatives. The empty one admits anonymous callers; the bearer one lets a
    // client hold a token at all (docs/protocol-checks.md#security-selection: a bearer client needs a
    // single-scheme alternative naming its scheme).
    securityRequirements: [{ schemes: {} }, { schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'interop',
        name: 'interop',
        description: 'echo, task, input and slow, as the mock agent does them.',
        tags: ['interop'],
      },
      // The mock agent's data skills, JSON in and out (A2A spec §4.4.5: a skill's modes override the card's
      // defaults).
      ...dataSkills.map((skill) => ({
        id: skill.name,
        name: skill.name,
        description: skill.summary,
        tags: ['interop', 'data'],
        inputModes: ['application/json'],
        outputModes: ['application/json'],
      })),
    ],
    ...(extended ? { provider: { organization: 'surecall', url: origin } } : {}),
  };
}

/** The SDK's type for a card, which `JSON.stringify` writes as `wire` (it honours `toJSON`). */
function sdkCard(wire: WireAgentCard): SdkAgentCard {
  // The SDK's card endpoint serialises its provider's answer with JSON.stringify; a bare ts-proto object
  // would leak `{"$case": …}` oneofs and numeric enums (docs/interop.md#the-official-js-sdk-server), so the
  // object writes its ProtoJSON form instead.
  return Object.assign(SdkAgentCard.fromJSON(wire), { toJSON: () => wire });
}

function bearerUserBuilder(token: string): UserBuilder {
  const anonymous = UserBuilder.noAuthentication;
  const authenticated: User = { isAuthenticated: true, userName: 'bearer' };
  // The SDK's own model: the builder names the caller, and the static extended card goes only to an
  // authenticated one.
  return async (request: Request) =>
    request.get('authorization') === `Bearer ${token}` ? authenticated : anonymous();
}

/** Names the caller of each gRPC call, which the SDK's service asks once per call, and records the call. */
function grpcUserBuilder(token: string, received: RunningSdkAgent['received'][number][]): SdkGrpcUserBuilder {
  const authenticated: User = { isAuthenticated: true, userName: 'bearer' };
  return async (call) => {
    // gRPC over HTTP/2: every call is a POST to its method's path, its metadata the request's headers.
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(call.metadata.getMap())) {
      headers[name] = value.toString();
    }
    received.push({ method: 'POST', path: call.getPath(), headers });
    return call.metadata.get('authorization')[0] === `Bearer ${token}`
      ? authenticated
      : SdkGrpcUserBuilder.noAuthentication();
  };
}

/** A grpc-js server bound to a free loopback port, its services added later (before any call can come). */
async function listenGrpc(): Promise<{ readonly server: GrpcServer; readonly url: string }> {
  const server = new GrpcServer();
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    );
  });
  return { server, url: `http://127.0.0.1:${port}` };
}

/**
Starts the official SDK server on 127.0.0.1 with a free port: the card at `/.well-known/agent-card.json`,
JSON-RPC at `/a2a/jsonrpc`, HTTP+JSON at `/a2a/rest` and a push webhook at `/webhook`.

@example
```ts
const sdk = await startSdkAgent({ tickMs: 20 });
const response = await fetch(sdk.jsonRpcUrl, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } }),
});
await sdk.close();
```
*/
export async function startSdkAgent(options: SdkAgentOptions = {}): Promise<RunningSdkAgent> {
  const bearerToken = options.bearerToken ?? 'sdk-agent-token';
  const app = express();
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const legacy = options.legacy !== true ? 'none' : options.legacyRest === true ? 'both' : 'jsonrpc';
  const grpc = options.grpc === true ? await listenGrpc() : undefined;
  const card = buildCard(origin, false, legacy, grpc?.url);
  const executor = createSdkExecutor(options.tickMs === undefined ? {} : { tickMs: options.tickMs });
  const requestHandler = new DefaultRequestHandler(
    sdkCard(card),
    new InMemoryTaskStore(),
    executor,
    undefined,
    new InMemoryPushNotificationStore(),
    undefined,
    sdkCard(buildCard(origin, true, legacy, grpc?.url)),
  );
  const userBuilder = bearerUserBuilder(bearerToken);
  const pushes: PushDelivery[] = [];
  const received: RunningSdkAgent['received'][number][] = [];

  // Routes are added after listen so that the card can name the bound port; nothing can call before we
  // return.
  const legacyCompat = { enabled: legacy !== 'none' };
  app.use((request, _response, next) => {
    if (request.path !== '/webhook') {
      received.push({ method: request.method, path: request.path, headers: { ...request.headers } });
    }
    next();
  });
  app.use(agentCardPath, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
  app.use(jsonRpcPath, jsonRpcHandler({ requestHandler, userBuilder, legacyCompat }));
  app.use(restPath, restHandler({ requestHandler, userBuilder, legacyCompat }));
  app.post('/webhook', express.json({ type: () => true }), (request, response) => {
    pushes.push({ token: request.get('x-a2a-notification-token'), body: request.body });
    response.status(204).end();
  });

  grpc?.server.addService(
    SdkGrpcService,
    grpcService({ requestHandler, userBuilder: grpcUserBuilder(bearerToken, received) }),
  );

  return {
    origin,
    grpcUrl: grpc?.url,
    cardUrl: `${origin}${agentCardPath}`,
    jsonRpcUrl: `${origin}${jsonRpcPath}`,
    restUrl: `${origin}${restPath}`,
    card,
    bearerToken,
    webhookUrl: `${origin}/webhook`,
    pushes,
    received,
    close: async () => {
      executor.close();
      grpc?.server.forceShutdown();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
