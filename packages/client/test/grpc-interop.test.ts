/**
gRPC faults against the official `@a2a-js/sdk@1.3.0` server's gRPC service (mocks/src/sdk/agent.ts,
`grpc: true`), through a real loopback TCP proxy that breaks the first connection
(test/support/grpc-proxy.ts): a durable send whose answer the proxy drops (a reset) after the server did the
work ends unknown and reconciles to committed with the one execution (docs/durable-send.md#the-promise), and a
stream whose connection the proxy closes after two messages resumes by SubscribeToTask to the same final state
as an unbroken one (docs/protocol-checks.md#grpc, docs/protocol-checks.md#stream-resumption).
*/
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { grpcBinding } from '../src/bindings/grpc/entry.js';
import { createClient } from '../src/client/client.js';
import type { ClientEvent } from '../src/client/events.js';
import { cardDigest } from '../src/discovery/digest.js';
import { durableAgent } from '../src/durable/agent.js';
import { openLedger } from '../src/ledger/memory.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import type { JsonValue } from '../src/protocol/json-value.js';
import type { StreamResponse } from '../src/protocol/stream.js';
import { assemble } from './support/assembly.js';
import { type GrpcBreak, type GrpcProxy, startGrpcProxy } from './support/grpc-proxy.js';

let sdk: RunningSdkAgent;
let proxy: GrpcProxy | undefined;

beforeAll(async () => {
  // The SDK logs expected errors (console.error); the assertions are what matters.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  sdk = await startSdkAgent({ tickMs: 300, grpc: true });
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

afterAll(async () => {
  await sdk.close();
  vi.restoreAllMocks();
});

/** A client of the SDK's gRPC service through the proxy: the served card, its gRPC interface moved there. */
async function clientThrough(breakAt: GrpcBreak) {
  const grpcUrl = sdk.grpcUrl ?? '';
  const opened = await startGrpcProxy(new URL(grpcUrl).host, breakAt);
  proxy = opened;
  const served = await (await fetch(sdk.cardUrl)).text();
  const raw = JSON.parse(served.replaceAll(grpcUrl, opened.url)) as JsonValue;
  const client = createClient({
    card: parseAgentCard(raw),
    cardDigest: await cardDigest(raw),
    grpc: grpcBinding,
    pin: { binding: 'GRPC', url: opened.url },
    security: { kind: 'anonymous' },
  });
  const events: ClientEvent[] = [];
  client.events.subscribe((event) => {
    events.push(event);
  });
  return { client, events, proxy: opened };
}

function count(events: readonly ClientEvent[], type: ClientEvent['type'], operation?: string): number {
  return events.filter(
    (event) => event.type === type && (operation === undefined || event.operation === operation),
  ).length;
}

describe('gRPC through a proxy that breaks the first connection', () => {
  it('a durable send whose answer is dropped ends unknown, then reconciles to committed: one execution', async () => {
    const { client, proxy: through } = await clientThrough({ at: 'answer' });
    const agent = durableAgent({
      client,
      ledger: await openLedger({ name: 'grpc' }),
      recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 250, maxProbes: 1 },
    });
    const lost = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'task alpha beta' }] });
    expect(through.resets()).toBe(1);
    expect(lost.record.state).toMatchObject({
      status: 'unknown',
      reason: 'ambiguous-outcome',
      cause: { kind: 'transport', dispatched: true },
    });

    const reconciled = await agent.reconcile(lost.id);
    expect(reconciled.status).toBe('committed');
    const contextId = lost.record.attempts[0]?.contextId ?? '';
    expect(reconciled.record.state).toMatchObject({ result: { kind: 'task', contextId } });
    // One execution: the context holds one task, and it holds the message the durable send made.
    const { tasks } = await client.listTasks({ contextId, pageSize: 10 });
    expect(tasks).toHaveLength(1);
    const task = await client.getTask({ id: tasks[0]?.id ?? '' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.history.map((message) => message.messageId)).toContain(lost.record.attempts[0]?.messageId);
  });

  it('a stream cut after two messages resumes by SubscribeToTask to the same final state, sent once', async () => {
    const { client, events, proxy: through } = await clientThrough({ at: 'messages', count: 2 });
    const delivered: StreamResponse[] = [];
    for await (const event of client.sendStreamingMessage({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'slow 4' }] },
    })) {
      delivered.push(event);
    }

    expect(through.resets()).toBe(1);
    expect(assemble(delivered)).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: { progress: 'tick 1/4\ntick 2/4\ntick 3/4\ntick 4/4\n' },
    });
    expect(count(events, 'request', 'SendStreamingMessage')).toBe(1);
    expect(count(events, 'stream-break')).toBe(1);
    expect(events.find(({ type }) => type === 'stream-break')).toMatchObject({ frames: 2, resumable: true });
    expect(count(events, 'request', 'SubscribeToTask')).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'stream-end', reason: 'complete' });
    // The task the server holds is the one the stream assembled.
    const taskId = delivered.find((event) => 'task' in event);
    const id = taskId !== undefined && 'task' in taskId ? taskId.task.id : '';
    expect((await client.getTask({ id })).status.state).toBe('TASK_STATE_COMPLETED');
  });
});
