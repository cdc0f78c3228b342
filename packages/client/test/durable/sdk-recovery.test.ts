/**
Context-history recovery against the official `@a2a-js/sdk@1.3.0` server (mocks/src/sdk/agent.ts) on a
loopback port: the SDK keeps a client-supplied contextId and stores the user message unchanged apart from
adding `taskId` (docs/durable-send.md#the-promise), so the scan finds the task a lost send created. The answer
is lost by MSW in this process: the SendMessage request is forwarded to the real server (`bypass`), its answer
read to the end, and the client gets a network error instead; every other request passes through untouched.
*/
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { bypass, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { durableAgent } from '../../src/durable/agent.js';
import { openLedger } from '../../src/ledger/memory.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';

let sdk: RunningSdkAgent;
const forwarded: string[] = [];
const server = setupServer();

beforeAll(async () => {
  // The SDK logs what it serves (console.info, console.error); the assertions are what matters.
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  sdk = await startSdkAgent({ tickMs: 600_000 });
  server.use(
    http.post(`${sdk.origin}/*`, async ({ request }) => {
      const body = await request.clone().text();
      const send =
        new URL(request.url).pathname.endsWith('/message:send') || body.includes('"method":"SendMessage"');
      if (!send) {
        return undefined;
      }
      forwarded.push(body);
      // The SDK runs the send and answers; the answer is lost on its way back.
      const answer = await fetch(bypass(request));
      await answer.arrayBuffer();
      return Response.error();
    }),
  );
  server.listen({ onUnhandledFrame: 'bypass' });
});

afterAll(async () => {
  server.close();
  await sdk.close();
  vi.restoreAllMocks();
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)(
  'context-history recovery against the SDK server over %s',
  (binding) => {
    it('finds the task the lost send created, without sending it again', async () => {
      const raw = (await (await fetch(sdk.cardUrl)).json()) as JsonValue;
      const client = createClient({
        card: parseAgentCard(raw),
        cardDigest: await cardDigest(raw),
        pin: { binding, url: binding === 'JSONRPC' ? sdk.jsonRpcUrl : sdk.restUrl },
        security: { kind: 'anonymous' },
      });
      const agent = durableAgent({
        client,
        ledger: await openLedger({ name: 'sdk' }),
        recovery: {
          kind: 'context-history',
          maxPages: 2,
          historyLength: 16,
          retryAfterMs: 250,
          maxProbes: 1,
        },
      });
      forwarded.length = 0;
      const lost = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'task alpha beta' }] });
      expect(lost.record.state).toMatchObject({
        status: 'unknown',
        reason: 'ambiguous-outcome',
        cause: { kind: 'transport', dispatched: true },
      });
      const reconciled = await agent.reconcile(lost.id);
      expect(reconciled.status).toBe('committed');
      const state = reconciled.record.state;
      const taskId = state.status === 'committed' ? (state.result.taskId ?? '') : '';
      const contextId = lost.record.attempts[0]?.contextId;
      expect(state).toMatchObject({ result: { kind: 'task', contextId } });
      // The task is the SDK's, and holds the message the durable send made.
      const task = await client.getTask({ id: taskId });
      expect(task.contextId).toBe(contextId);
      expect(task.history.map((message) => message.messageId)).toContain(lost.record.attempts[0]?.messageId);
      expect(forwarded).toHaveLength(1);
    });
  },
);
