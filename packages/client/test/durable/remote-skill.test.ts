/**
`remoteSkill` against two real peers on loopback ports, over both bindings: the mock agent (`startMockAgent`)
and the official `@a2a-js/sdk` server (`startSdkAgent`), both serving the data skills `sum` (a direct reply)
and `sum-task` (a task). Input and output are checked by valibot validators through Standard Schema. MSW in
this process sees every request to the peers (and passes it on untouched), so a test can count them, or lose
one SendMessage answer after the peer ran it.
*/
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { bypass, http } from 'msw';
import { setupServer } from 'msw/node';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { createClient } from '../../src/client/client.js';
import type { ProtocolBinding } from '../../src/client/security.js';
import { OptionsError } from '../../src/core/errors.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { durableAgent } from '../../src/durable/agent.js';
import { remoteSkill, type SkillOutcome, skillMetadataKey } from '../../src/durable/remote-skill.js';
import { openLedger } from '../../src/ledger/memory.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';

const Sum = v.object({ a: v.number(), b: v.number() });
const Total = v.object({ sum: v.number() });

type Peer = { readonly name: string; readonly cardUrl: string; readonly origin: string };

let mock: RunningMockAgent;
let sdk: RunningSdkAgent;
const seen: { operation: string; body: string }[] = [];
let dropNextSend = false;
const server = setupServer();

beforeAll(async () => {
  // The SDK logs what it serves; the assertions are what matters.
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  mock = await startMockAgent({ port: 0, stepMs: 5 });
  sdk = await startSdkAgent({ tickMs: 20 });
  server.use(
    http.all('*', async ({ request }) => {
      const url = new URL(request.url);
      if (url.origin !== mock.origin && url.origin !== sdk.origin) {
        return undefined;
      }
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const path = url.pathname;
      const send = path.endsWith('/message:send') || body.includes('"method":"SendMessage"');
      seen.push({ operation: send ? 'SendMessage' : path, body });
      if (!send || !dropNextSend) {
        return undefined;
      }
      dropNextSend = false;
      // The peer runs the send and answers; the answer is lost on its way back.
      const answer = await fetch(bypass(request));
      await answer.arrayBuffer();
      return Response.error();
    }),
  );
  server.listen({ onUnhandledFrame: 'bypass' });
});

afterAll(async () => {
  server.close();
  await mock.close();
  await sdk.close();
  vi.restoreAllMocks();
});

beforeEach(() => {
  seen.length = 0;
  dropNextSend = false;
});

const peers = (): Peer[] => [
  { name: 'mock agent', cardUrl: mock.cardUrl, origin: mock.origin },
  { name: 'SDK server', cardUrl: sdk.cardUrl, origin: sdk.origin },
];

async function agentFor(peer: Peer, binding: ProtocolBinding) {
  const raw = (await (await fetch(peer.cardUrl)).json()) as JsonValue;
  const card = parseAgentCard(raw);
  const url = card.supportedInterfaces.find((entry) => entry.protocolBinding === binding)?.url ?? '';
  const client = createClient({
    card,
    cardDigest: await cardDigest(raw),
    pin: { binding, url },
    security: { kind: 'anonymous' },
  });
  seen.length = 0;
  return durableAgent({
    client,
    ledger: await openLedger({ name: 'skills' }),
    // The scan this suite reconciles by: an unkeyed send, whatever the peer honours.
    delivery: 'at-most-once',
    recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 100, maxProbes: 2 },
  });
}

describe.each(['mock agent', 'SDK server'])('remoteSkill against the %s', (name) => {
  const peer = () => peers().find((candidate) => candidate.name === name) as Peer;

  describe.each(['JSONRPC', 'HTTP+JSON'] as const)('over %s', (binding) => {
    it('sends one data part naming the skill, and types the validated reply', async () => {
      const sum = remoteSkill({
        agent: await agentFor(peer(), binding),
        skill: 'sum',
        input: Sum,
        output: Total,
      });
      const outcome = await sum({ a: 1, b: 2 });
      expectTypeOf(outcome).toEqualTypeOf<SkillOutcome<{ sum: number }>>();
      expect(outcome).toMatchObject({ status: 'committed', value: { sum: 3 } });
      const sends = seen.filter((entry) => entry.operation === 'SendMessage');
      expect(sends).toHaveLength(1);
      const body = JSON.parse(sends[0]?.body ?? '{}') as { params?: unknown; message?: unknown };
      const message = ((body.params ?? body) as { message: { parts: unknown[]; metadata: unknown } }).message;
      expect(message.parts).toEqual([{ data: { a: 1, b: 2 }, mediaType: 'application/json' }]);
      expect(message.metadata).toEqual({ [skillMetadataKey]: 'sum' });
    });

    it('refuses input the schema refuses, without a request', async () => {
      const sum = remoteSkill({
        agent: await agentFor(peer(), binding),
        skill: 'sum',
        input: Sum,
        output: Total,
      });
      // @ts-expect-error: the input type comes from the schema
      const outcome = await sum({ a: 1, b: 'two' });
      expect(outcome).toMatchObject({
        status: 'failed',
        issues: [{ path: '$.b' }],
        error: {
          kind: 'request',
          reason: 'invalid-params',
          dispatched: false,
          violation: { rule: 'skill-input' },
        },
      });
      expect(outcome.status === 'failed' ? outcome.id : 'recorded').toBeUndefined();
      expect(seen).toEqual([]);
    });

    it('refuses an answer the output schema refuses as invalid-response, with issue paths that name no key of it', async () => {
      const agent = await agentFor(peer(), binding);
      const sum = remoteSkill({ agent, skill: 'sum', input: Sum, output: v.object({ sum: v.string() }) });
      const outcome = await sum({ a: 1, b: 2 });
      expect(outcome).toMatchObject({
        status: 'failed',
        // The answer's keys are the peer's text (ARCHITECTURE.md#errors): `sum` reads [*] like any other.
        issues: [{ path: '$[*]' }],
        error: {
          kind: 'invalid-response',
          reason: 'schema',
          dispatched: true,
          violation: { rule: 'skill-output' },
        },
      });
      // The peer ran it: the ledger says committed, so nothing may send it again.
      const id = outcome.status === 'failed' ? (outcome.id ?? '') : '';
      expect((await agent.get(id))?.state.status).toBe('committed');
      expect(JSON.stringify(outcome.status === 'failed' ? outcome.error : null)).not.toContain('3');
    });

    it('commits a task handle whose completion reads the validated artifact', async () => {
      const sumTask = remoteSkill({
        agent: await agentFor(peer(), binding),
        skill: 'sum-task',
        input: Sum,
        output: Total,
      });
      const outcome = await sumTask({ a: 20, b: 22 });
      if (outcome.status !== 'committed' || outcome.task === undefined) {
        throw new Error(`expected a committed task, got ${outcome.status}`);
      }
      const done = await outcome.task.completion({ pollIntervalMs: 10 });
      expect(done).toMatchObject({ status: 'completed', value: { sum: 42 } });
    });

    it('turns a lost answer into unknown, and reconciles it to the one task the send created', async () => {
      const agent = await agentFor(peer(), binding);
      const sumTask = remoteSkill({ agent, skill: 'sum-task', input: Sum, output: Total });
      dropNextSend = true;
      const lost = await sumTask({ a: 2, b: 3 });
      expect(lost).toMatchObject({ status: 'unknown', durable: 'unknown' });
      const id = lost.status === 'unknown' ? lost.id : '';
      const reconciled = await sumTask.reconcile(id);
      if (reconciled.status !== 'committed' || reconciled.task === undefined) {
        throw new Error(`expected a committed task, got ${reconciled.status}`);
      }
      expect(await reconciled.task.completion({ pollIntervalMs: 10 })).toMatchObject({
        status: 'completed',
        value: { sum: 5 },
      });
      expect(seen.filter((entry) => entry.operation === 'SendMessage')).toHaveLength(1);
      if (peer().name === 'mock agent') {
        const messageId = (await agent.get(id))?.attempts[0]?.messageId ?? '';
        expect(mock.executions.of(messageId)).toBe(1);
      }
    });
  });
});

describe('remoteSkill checks the skill once, when it is built', () => {
  it('refuses a skill the card does not list, and a delivery the agent does not make', async () => {
    const agent = await agentFor(peers()[0] as Peer, 'JSONRPC');
    expect(() => remoteSkill({ agent, skill: 'nope', input: Sum, output: Total })).toThrow(
      new OptionsError('skill', 'not-in-card'),
    );
    expect(() => remoteSkill({ agent, skill: 'sum', input: Sum, output: Total, delivery: 'keyed' })).toThrow(
      new OptionsError('delivery', 'inconsistent'),
    );
  });

  it('sends a text skill one text part, and reads its one text part back', async () => {
    // The SDK peer's `interop` skill has no modes of its own: the card's defaults, text/plain in and out.
    const agent = await agentFor(peers()[1] as Peer, 'JSONRPC');
    const echo = remoteSkill({ agent, skill: 'interop', input: v.string(), output: v.string() });
    expect(await echo('echo hi')).toMatchObject({ status: 'committed', value: 'echo hi' });
    const body = seen.find((entry) => entry.operation === 'SendMessage')?.body ?? '';
    expect(JSON.parse(body).params.message.parts).toEqual([{ text: 'echo hi', mediaType: 'text/plain' }]);
  });
});
