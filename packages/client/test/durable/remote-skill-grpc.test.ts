/**
`remoteSkill` over gRPC (`test/durable/remote-skill.test.ts` runs it over the HTTP bindings): against the mock
agent's gRPC mount (`startMockAgent({ grpcPort })`) and the official `@a2a-js/sdk` server's gRPC service
(`startSdkAgent({ grpc: true })`), both serving the data skills `sum` and `sum-task`. The mock's fault lab
loses one SendMessage answer after the work was done, which the HTTP file does through MSW; the SDK server has
no fault lab, and its lost answer over gRPC is `test/grpc-interop.test.ts`'s, through a loopback proxy. No MSW
listens here: its interception of Node's sockets keeps an HTTP/2 connection from opening.
*/
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { grpcBinding } from '../../src/bindings/grpc/entry.js';
import { createClient } from '../../src/client/client.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { durableAgent } from '../../src/durable/agent.js';
import { remoteSkill } from '../../src/durable/remote-skill.js';
import { openLedger } from '../../src/ledger/memory.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';

const Sum = v.object({ a: v.number(), b: v.number() });
const Total = v.object({ sum: v.number() });

let mock: RunningMockAgent;
let sdk: RunningSdkAgent;

beforeAll(async () => {
  // The SDK logs what it serves; the assertions are what matters.
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  mock = await startMockAgent({ port: 0, grpcPort: 0, stepMs: 5 });
  sdk = await startSdkAgent({ tickMs: 20, grpc: true });
});

afterAll(async () => {
  await mock.close();
  await sdk.close();
  vi.restoreAllMocks();
});

const peers = () => ({
  'mock agent': { cardUrl: mock.cardUrl, grpcUrl: mock.grpcUrl ?? '' },
  'SDK server': { cardUrl: sdk.cardUrl, grpcUrl: sdk.grpcUrl ?? '' },
});

async function agentFor(name: keyof ReturnType<typeof peers>) {
  const peer = peers()[name];
  const raw = (await (await fetch(peer.cardUrl)).json()) as JsonValue;
  const client = createClient({
    card: parseAgentCard(raw),
    cardDigest: await cardDigest(raw),
    grpc: grpcBinding,
    pin: { binding: 'GRPC', url: peer.grpcUrl },
    security: { kind: 'anonymous' },
  });
  expect(client.binding).toBe('GRPC');
  return durableAgent({
    client,
    ledger: await openLedger({ name: 'skills-grpc' }),
    // The scan this suite reconciles by, as in the HTTP file: an unkeyed send, whatever the peer honours.
    delivery: 'at-most-once',
    recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 100, maxProbes: 2 },
  });
}

describe.each(['mock agent', 'SDK server'] as const)('remoteSkill over GRPC against the %s', (name) => {
  it('types the validated reply of a data skill', async () => {
    const sum = remoteSkill({ agent: await agentFor(name), skill: 'sum', input: Sum, output: Total });
    expect(await sum({ a: 1, b: 2 })).toMatchObject({ status: 'committed', value: { sum: 3 } });
  });

  it('refuses an answer the output schema refuses as invalid-response, the send committed', async () => {
    const agent = await agentFor(name);
    const sum = remoteSkill({ agent, skill: 'sum', input: Sum, output: v.object({ sum: v.string() }) });
    const outcome = await sum({ a: 1, b: 2 });
    expect(outcome).toMatchObject({
      status: 'failed',
      issues: [{ path: '$[*]' }],
      error: {
        kind: 'invalid-response',
        reason: 'schema',
        dispatched: true,
        violation: { rule: 'skill-output' },
      },
    });
    const id = outcome.status === 'failed' ? (outcome.id ?? '') : '';
    expect((await agent.get(id))?.state.status).toBe('committed');
  });

  it('commits a task handle whose completion reads the validated artifact', async () => {
    const sumTask = remoteSkill({
      agent: await agentFor(name),
      skill: 'sum-task',
      input: Sum,
      output: Total,
    });
    const outcome = await sumTask({ a: 20, b: 22 });
    if (outcome.status !== 'committed' || outcome.task === undefined) {
      throw new Error(`expected a committed task, got ${outcome.status}`);
    }
    expect(await outcome.task.completion({ pollIntervalMs: 10 })).toMatchObject({
      status: 'completed',
      value: { sum: 42 },
    });
  });
});

describe('remoteSkill over GRPC when the answer is lost', () => {
  it('turns it into unknown, and reconciles it to the one task the send created, run once', async () => {
    const agent = await agentFor('mock agent');
    const sumTask = remoteSkill({ agent, skill: 'sum-task', input: Sum, output: Total });
    // The agent runs the send, then the connection that carried the call is reset.
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage', binding: 'GRPC' });
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
    const messageId = (await agent.get(id))?.attempts[0]?.messageId ?? '';
    expect(mock.executions.of(messageId)).toBe(1);
  });
});
