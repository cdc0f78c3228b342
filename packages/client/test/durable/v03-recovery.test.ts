/**
A durable send to a v0.3 peer whose answer is lost (docs/durable-send.md#reconciling-an-unknown,
docs/protocol-checks.md#v03-peers): the official `@a2a-js/sdk@1.3.0` server in its legacy mode on a loopback
port, reached over its v0.3 JSON-RPC interface and over its v0.3 HTTP+JSON one (`protocolVersions: ['0.3']`,
`startSdkAgent({ legacyRest: true })` for the second). Its card declares no idempotency extension, so the send
is at-most-once; v0.3 has no ListTasks, so no scan of the send's context can run, and the record ends
`unresolved` with reason `no-list-tasks` at the first probe, which sends nothing: never `committed` by guess,
one execution. The answer is lost by MSW in this process, as in sdk-recovery.test.ts: the `message/send`
request (`POST /v1/message:send`) is forwarded to the real server (`bypass`), its answer read to the end, and
the client gets a network error instead.
*/
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { bypass, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { v03Binding } from '../../src/bindings/v03/entry.js';
import { discover } from '../../src/discovery/discovery.js';
import { durableAgent } from '../../src/durable/agent.js';
import type { DurableEvent } from '../../src/durable/events.js';
import { openLedger } from '../../src/ledger/memory.js';

const forwarded: string[] = [];
const server = setupServer();

beforeAll(() => {
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server.listen({ onUnhandledFrame: 'bypass' });
});

afterAll(() => {
  server.close();
  vi.restoreAllMocks();
});

// The SDK's v0.3 interface over each binding: with `legacyRest` its card lists the v0.3 HTTP+JSON one first.
const bindings = [
  {
    binding: 'JSONRPC',
    legacyRest: false,
    url: (sdk: RunningSdkAgent) => sdk.jsonRpcUrl,
    sends: (sdk: RunningSdkAgent, request: Request, body: string) =>
      request.url === sdk.jsonRpcUrl && body.includes('"method":"message/send"'),
  },
  {
    binding: 'HTTP+JSON',
    legacyRest: true,
    url: (sdk: RunningSdkAgent) => sdk.restUrl,
    sends: (sdk: RunningSdkAgent, request: Request) => request.url === `${sdk.restUrl}/v1/message:send`,
  },
] as const;

describe.each(bindings)('a durable send to a v0.3 peer over $binding, its answer lost', (over) => {
  let sdk: RunningSdkAgent;

  beforeAll(async () => {
    sdk = await startSdkAgent({ tickMs: 600_000, legacy: true, legacyRest: over.legacyRest });
    server.use(
      http.post(`${sdk.origin}/*`, async ({ request }) => {
        const body = await request.clone().text();
        if (!over.sends(sdk, request, body)) {
          return undefined;
        }
        forwarded.push(body);
        // The SDK runs the send and answers; the answer is lost on its way back.
        const answer = await fetch(bypass(request));
        await answer.arrayBuffer();
        return Response.error();
      }),
    );
  });

  afterAll(async () => {
    server.resetHandlers();
    await sdk.close();
  });

  it('ends unresolved (no-list-tasks) at the first probe, which sends nothing, with one execution', async () => {
    const client = await discover({
      cardUrl: sdk.cardUrl,
      pins: [{ binding: over.binding, url: over.url(sdk) }],
      trust: { kind: 'first-fetch' },
      security: { kind: 'anonymous' },
      loopback: true,
      protocolVersions: ['0.3'],
      v03: v03Binding,
    });
    expect(client.honoursIdempotency).toBe(false);
    const events: DurableEvent[] = [];
    const agent = durableAgent({ client, ledger: await openLedger({ name: `v03-${over.binding}` }) });
    agent.events.subscribe((event) => events.push(event));
    forwarded.length = 0;
    const lost = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'task alpha beta' }] });
    expect(lost.record.delivery).toBe('at-most-once');
    expect(lost.record.state).toMatchObject({
      status: 'unknown',
      reason: 'ambiguous-outcome',
      cause: { kind: 'transport', dispatched: true },
    });
    const received = sdk.received.length;
    const reconciled = await agent.reconcile(lost.id);
    expect(reconciled.status).toBe('unresolved');
    expect(reconciled.record.state).toMatchObject({
      status: 'unknown',
      reason: 'no-list-tasks',
      cause: { kind: 'request', dispatched: false, violation: { rule: 'no-list-tasks' } },
    });
    // The probe never left: nothing reached the peer, and the send ran once.
    expect(sdk.received.length).toBe(received);
    expect(forwarded).toHaveLength(1);
    expect(events.filter((event) => event.type === 'probe')).toHaveLength(1);
    // Given up on, so no later reconciliation probes again.
    const again = await agent.reconcile(lost.id);
    expect(again.record.state).toMatchObject({ reason: 'no-list-tasks' });
    expect(events.filter((event) => event.type === 'probe')).toHaveLength(1);
    expect(sdk.received.length).toBe(received);
  });
});
