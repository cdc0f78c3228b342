/**
@module
A client on the extended card (`A2aClient.withExtendedCard`, docs/protocol-checks.md#extended-card), over both
HTTP bindings and (through vite.config.ts) every serializer style, and over gRPC against the mock agent's gRPC
mount: against the mock agent with `extendedCardScope`, it is built on the card the authenticated call
answered, with the same pin and security and the card's digest recorded, and its extra skill runs through
`remoteSkill`; a token without the scope is refused; against a peer whose extended card cannot take the
client's pin or security, the same checks as `createClient` refuse it.
*/
import { jsonRpcPath, restPath } from '@surecall/mocks';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcBinding } from '../src/bindings/grpc/entry.js';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { isClientError, OptionsError } from '../src/core/errors.js';
import { cardDigest } from '../src/discovery/digest.js';
import { fetchAgentCard } from '../src/discovery/discovery.js';
import { durableAgent } from '../src/durable/agent.js';
import { remoteSkill } from '../src/durable/remote-skill.js';
import { openLedger } from '../src/ledger/memory.js';
import type { JsonObject, JsonValue } from '../src/protocol/json-value.js';
import {
  type HostileCall,
  type HostilePeer,
  jsonText,
  rpcText,
  startHostilePeer,
} from './support/hostile-peer.js';

const bindings = ['JSONRPC', 'HTTP+JSON'] as const satisfies readonly ProtocolBinding[];
// The mock agent serves gRPC too; the hostile peer below answers HTTP only.
const mockBindings = [...bindings, 'GRPC'] as const satisfies readonly ProtocolBinding[];
const scope = 'card.extended';
let agent: RunningMockAgent;
let peer: HostilePeer;

beforeAll(async () => {
  agent = await startMockAgent({ port: 0, grpcPort: 0, stepMs: 0, extendedCardScope: scope });
  peer = await startHostilePeer();
});
afterAll(async () => {
  await agent.close();
  await peer.close();
});

/**
A client of the mock agent whose token grants `scopes` (the mock reads a token as its scopes joined by `+`).
*/
async function clientOf(binding: ProtocolBinding, scopes: readonly string[] | undefined): Promise<A2aClient> {
  const { card, digest } = await fetchAgentCard({ cardUrl: agent.cardUrl, loopback: true });
  const urls = { JSONRPC: `${agent.origin}${jsonRpcPath}`, 'HTTP+JSON': `${agent.origin}${restPath}` };
  return createClient({
    card,
    cardDigest: digest,
    grpc: grpcBinding,
    pin: { binding, url: binding === 'GRPC' ? (agent.grpcUrl ?? '') : urls[binding] },
    security:
      scopes === undefined
        ? { kind: 'anonymous' }
        : { kind: 'bearer', scheme: 'bearer', token: async () => ['mock', ...scopes].join('+') },
  });
}

const Sum = v.object({ a: v.number(), b: v.number() });
const Total = v.object({ sum: v.number() });

describe.each(mockBindings)('withExtendedCard against the mock agent over %s', (binding) => {
  it('builds a client on the extended card: the same pin, its digest, its skills', async () => {
    const client = await clientOf(binding, [scope]);
    const full = await client.withExtendedCard();
    expect(full.card).toEqual(await client.getExtendedAgentCard());
    expect(full.card.provider).toEqual({ organization: 'surecall', url: agent.origin });
    expect(full.cardDigest).toBe(await cardDigest(full.card as unknown as JsonValue));
    expect(full.cardDigest).not.toBe(client.cardDigest);
    expect(full.pin).toEqual(client.pin);
    // The public client is unchanged.
    expect(client.card.provider).toBeUndefined();
    expect(client.card.skills.map((skill) => skill.id)).not.toContain('sum-extended');
    expect(
      await full.sendMessage({
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'task a' }] },
      }),
    ).toMatchObject({
      task: { status: { state: 'TASK_STATE_COMPLETED' } },
    });
  });

  it('lets remoteSkill call a skill only the extended card lists', async () => {
    const client = await clientOf(binding, [scope]);
    const skill = async (on: A2aClient) =>
      remoteSkill({
        agent: durableAgent({ client: on, ledger: await openLedger({ name: `extended-${binding}` }) }),
        skill: 'sum-extended',
        input: Sum,
        output: Total,
      });
    await expect(skill(client)).rejects.toMatchObject({ option: 'skill', reason: 'not-in-card' });
    const outcome = await (await skill(await client.withExtendedCard()))({ a: 2, b: 3 });
    expect(outcome).toMatchObject({ status: 'committed', value: { sum: 5 } });
  });

  it('is refused for a token without the scope, and for an anonymous client before anything is sent', async () => {
    const unscoped = await clientOf(binding, ['tasks.read']);
    const refused = await unscoped.withExtendedCard().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      kind: 'remote',
      dispatched: true,
      // A gRPC refusal is its status, with no HTTP status (docs/protocol-checks.md#grpc, `grpc.remote`).
      httpStatus: { JSONRPC: 200, 'HTTP+JSON': 403, GRPC: undefined }[binding],
    });
    const anonymous = await clientOf(binding, undefined);
    await expect(anonymous.withExtendedCard()).rejects.toMatchObject({
      kind: 'authorization',
      reason: 'unauthenticated',
      dispatched: false,
    });
  });
});

/** The peer's extended card: its public one, changed. */
function answerCard(call: HostileCall, card: JsonObject): Response {
  const text = JSON.stringify(card);
  return call.binding === 'JSONRPC' ? rpcText(call, 'result', text) : jsonText(text);
}

describe.each(bindings)(
  'withExtendedCard against an extended card that cannot take the client, over %s',
  (binding) => {
    it.each<[string, (card: JsonObject) => JsonObject, string, string]>([
      [
        'the pinned interface left out',
        (card) => ({
          ...card,
          supportedInterfaces: [
            { url: `${peer.origin}/elsewhere`, protocolBinding: binding, protocolVersion: '1.0' },
          ],
        }),
        'pin',
        'not-in-card',
      ],
      [
        'a requirement the bearer client cannot meet',
        (card) => ({
          ...card,
          securitySchemes: { mtls: { mtlsSecurityScheme: {} } },
          securityRequirements: [{ schemes: { mtls: { list: [] } } }],
        }),
        'security',
        'not-in-card',
      ],
    ])('%s: OptionsError, as createClient would', async (_name, change, option, reason) => {
      peer.answer = (call) =>
        call.operation === 'GetExtendedAgentCard' || call.operation.endsWith('/extendedAgentCard')
          ? answerCard(call, change(peer.card))
          : undefined;
      try {
        const client = await peer.client(binding);
        const error = await client.withExtendedCard().then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(OptionsError);
        expect(isClientError(error)).toBe(false);
        expect(error).toMatchObject({ option: expect.stringMatching(new RegExp(`^${option}`)), reason });
      } finally {
        peer.answer = undefined;
      }
    });
  },
);
