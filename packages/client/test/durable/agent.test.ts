import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/client/client.js';
import type { InterfacePin } from '../../src/client/pin.js';
import type { TokenContext } from '../../src/client/security.js';
import { LedgerError } from '../../src/core/errors.js';
import { cardDigest } from '../../src/discovery/digest.js';
import {
  attemptMessagePrefix,
  type DurableAgent,
  type DurableAgentOptions,
  durableAgent,
  sendMessagePrefix,
} from '../../src/durable/agent.js';
import type { DurableEvent, DurableProbeEvent, DurableTransitionEvent } from '../../src/durable/events.js';
import { recoveryContextId } from '../../src/durable/recovery.js';
import { idempotencyExtensionUri, idempotencyMetadataKey } from '../../src/idempotency/key.js';
import type { Ledger, LedgerRecord } from '../../src/ledger/ledger.js';
import type { AgentCard } from '../../src/protocol/agent-card.js';
import { a2aErrors } from '../../src/protocol/error-codes.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import {
  bindings,
  memoryLedger,
  mountPeer,
  type Peer,
  respondError,
  server,
} from '../support/durable-peers.js';

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => server.close());

const history = { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 250 } as const;
const attestation = {
  owner: 'platform',
  evidence: 'ADR-42: the partner deduplicates messageId for 30 days',
  retentionMs: 2_592_000_000,
};

function text(words: string): Omit<Message, 'messageId'> {
  return { role: 'ROLE_USER', parts: [{ text: words }] };
}

type Built = { readonly agent: DurableAgent; readonly ledger: Ledger; readonly events: DurableEvent[] };

async function build(
  peer: Peer,
  binding: (typeof bindings)[number],
  options: Partial<DurableAgentOptions> = {},
): Promise<Built> {
  const ledger = options.ledger ?? (await memoryLedger());
  const agent = durableAgent({ client: peer.client(binding), ledger, ...options });
  const events: DurableEvent[] = [];
  agent.events.subscribe((event) => events.push(event));
  return { agent, ledger, events };
}

const transitions = (events: readonly DurableEvent[]) =>
  events
    .filter((event): event is DurableTransitionEvent => event.type === 'transition')
    .map((event) => `${event.from ?? 'none'}→${event.to}`);
const probes = (events: readonly DurableEvent[]) =>
  events.filter((event): event is DurableProbeEvent => event.type === 'probe');
const messageIdOf = (record: LedgerRecord) => record.attempts[0]?.messageId ?? '';

describe.each(bindings)('a durable send over %s', (binding) => {
  it('is durable as executing before the request leaves, goes out once with returnImmediately, and commits the task handle', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, ledger, events } = await build(peer, binding);
    const seen: (string | undefined)[] = [];
    peer.stage = async (request, forward) => {
      const id = events.find((event) => event.type === 'transition')?.id ?? '';
      // docs/durable-send.md#the-promise, step 1: the ledger says executing while the request is on the wire.
      seen.push((await ledger.get(id))?.state.status);
      return forward(request);
    };
    const outcome = await agent.send(text('task alpha beta'));
    expect(seen).toEqual(['executing']);
    expect(outcome.status).toBe('committed');
    expect(transitions(events)).toEqual(['none→prepared', 'prepared→executing', 'executing→committed']);
    const [request] = peer.sent('SendMessage');
    expect(peer.sent('SendMessage')).toHaveLength(1);
    expect(request?.params.configuration).toEqual({ returnImmediately: true });
    const [sent] = peer.messages();
    const attempt = outcome.record.attempts[0];
    expect(sent?.messageId).toBe(`${attemptMessagePrefix}${attempt?.attemptId}`);
    expect(outcome.answer).toMatchObject({ task: { status: { state: 'TASK_STATE_SUBMITTED' } } });
    const task = outcome.answer !== undefined && 'task' in outcome.answer ? outcome.answer.task : undefined;
    // docs/durable-send.md#what-a-task-commits: committed means the peer holds the message and returned a
    // durable handle.
    expect(outcome.record.state).toEqual({
      status: 'committed',
      attemptId: attempt?.attemptId,
      result: { kind: 'task', taskId: task?.id, contextId: task?.contextId },
    });
    expect(peer.agent.executions.of(messageIdOf(outcome.record))).toBe(1);
  });

  it('commits a direct Message as a message', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent } = await build(peer, binding);
    const outcome = await agent.send(text('echo hello'));
    expect(outcome.record.state).toMatchObject({ status: 'committed', result: { kind: 'message' } });
    expect(outcome.answer).toMatchObject({ message: { role: 'ROLE_AGENT' } });
  });

  it('fails as not started when cancelled before dispatch, and nothing leaves', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, events } = await build(peer, binding);
    const controller = new AbortController();
    controller.abort();
    const outcome = await agent.send(text('task a'), { signal: controller.signal });
    expect(outcome.record.state).toMatchObject({
      status: 'failed',
      effect: 'not-started',
      cause: { kind: 'request', reason: 'aborted', dispatched: false },
    });
    expect(transitions(events)).toEqual(['none→prepared', 'prepared→executing', 'executing→failed']);
    expect(peer.requests).toHaveLength(0);
  });

  it('fails as not applied on an authoritative pre-application rejection (a keyed send to a peer that refuses keys)', async () => {
    const peer = await mountPeer({ mode: 'refusing' });
    const { agent } = await build(peer, binding);
    const message = { ...text('task a'), metadata: { [idempotencyMetadataKey]: 'caller-chosen-key-0001' } };
    const outcome = await agent.send(message);
    expect(outcome.status).toBe('failed');
    expect(outcome.record.state).toMatchObject({
      effect: 'not-applied',
      cause: { kind: 'remote', remoteCode: -32004 },
    });
    expect(peer.agent.executions.total()).toBe(0);
  });

  it.each([
    ['InvalidParams', a2aErrors.InvalidParams, 'failed'],
    ['ContentTypeNotSupported', a2aErrors.ContentTypeNotSupported, 'failed'],
    ['InternalError', a2aErrors.InternalError, 'unknown'],
    ['TaskNotFound', a2aErrors.TaskNotFound, 'unknown'],
  ] as const)('classifies a %s answer as %s', async (_name, error, status) => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent } = await build(peer, binding);
    peer.stage = (request) => respondError(request, error);
    const outcome = await agent.send(text('task a'));
    expect(outcome.status).toBe(status);
    expect(outcome.record.state).toMatchObject({ cause: { kind: 'remote', remoteCode: error.code } });
  });

  it('is unknown when cancelled after dispatch, and send never sends it again', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent } = await build(peer, binding);
    const controller = new AbortController();
    peer.stage = async (request, forward) => {
      const answer = await forward(request);
      controller.abort();
      return answer;
    };
    const id = 'send-cancelled-after-dispatch';
    const outcome = await agent.send(text('task a'), { id, signal: controller.signal });
    expect(outcome.record.state).toMatchObject({
      status: 'unknown',
      reason: 'ambiguous-outcome',
      cause: { kind: 'transport', reason: 'aborted', dispatched: true },
    });
    peer.stage = undefined;
    // The same send again: the record comes back as it is, and nothing leaves.
    const again = await agent.send(text('task a'), { id });
    expect(again).toMatchObject({ status: 'unknown', id, record: { revision: outcome.record.revision } });
    expect(peer.sent('SendMessage')).toHaveLength(1);
    expect(peer.agent.executions.total()).toBe(1);
  });

  it('refuses a reused id with another message, sending nothing', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent } = await build(peer, binding);
    await agent.send(text('task a'), { id: 'send-1' });
    await expect(agent.send(text('task b'), { id: 'send-1' })).rejects.toMatchObject({
      name: 'LedgerError',
      reason: 'stale-revision',
      rule: 'exists',
    });
    expect(peer.sent('SendMessage')).toHaveLength(1);
  });

  it('gives the token provider the send and its original attempt, for the send and for every probe', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const contexts: TokenContext[] = [];
    const client = peer.client(binding, {
      security: {
        kind: 'bearer',
        scheme: 'bearer',
        token: async (context) => {
          contexts.push(context);
          return 'token';
        },
      },
    });
    const agent = durableAgent({ client, ledger: await memoryLedger(), recovery: history });
    peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const outcome = await agent.send(text('task a'));
    await agent.reconcile(outcome.id);
    const attempt = { sendId: outcome.id, attemptId: outcome.record.attempts[0]?.attemptId };
    expect(contexts.map((context) => [context.operation, context.attempt])).toEqual([
      ['SendMessage', attempt],
      ['ListTasks', attempt],
    ]);
  });
});

describe('delivery modes (docs/durable-send.md#delivery-modes)', () => {
  it('at-most-once gives every attempt a fresh messageId of its own', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent } = await build(peer, 'JSONRPC');
    const first = await agent.send(text('task a'));
    const second = await agent.send(text('task a'));
    const ids = [first, second].map((outcome) => messageIdOf(outcome.record));
    expect(new Set(ids).size).toBe(2);
    for (const [index, outcome] of [first, second].entries()) {
      expect(ids[index]).toBe(`${attemptMessagePrefix}${outcome.record.attempts[0]?.attemptId}`);
      expect(outcome.record.message.messageId).toBe(`${sendMessagePrefix}${outcome.id}`);
    }
  });

  it('keyed puts a fresh key and the extension on the message, exactly as setKey does', async () => {
    const peer = await mountPeer({ mode: 'honouring' });
    const { agent } = await build(peer, 'HTTP+JSON', { delivery: 'keyed', recovery: { kind: 'keyed' } });
    const outcome = await agent.send(text('task a'));
    const [sent] = peer.messages();
    const key = outcome.record.idempotencyKey ?? '';
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(sent).toMatchObject({
      messageId: `${sendMessagePrefix}${outcome.id}`,
      metadata: { [idempotencyMetadataKey]: key },
      extensions: [idempotencyExtensionUri],
    });
  });

  it('keyed keeps a key the caller chose, and refuses a malformed one before anything is recorded', async () => {
    const peer = await mountPeer({ mode: 'honouring' });
    const { agent, ledger } = await build(peer, 'JSONRPC', {
      delivery: 'keyed',
      recovery: { kind: 'keyed' },
    });
    const chosen = await agent.send({
      ...text('task a'),
      metadata: { [idempotencyMetadataKey]: 'job-42:attempt-group-7' },
    });
    expect(chosen.record.idempotencyKey).toBe('job-42:attempt-group-7');
    await expect(
      agent.send({ ...text('task a'), metadata: { [idempotencyMetadataKey]: 'short' } }),
    ).rejects.toMatchObject({ reason: 'invalid-input', rule: 'idempotency-key' });
    expect(await ledger.list()).toHaveLength(1);
  });

  it('context-history sends the attempt’s one-way opaque contextId, and refuses a context or a task of the caller’s', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const client = peer.client('JSONRPC');
    const { agent } = await build(peer, 'JSONRPC', { recovery: history, run: 'nightly-run-42' });
    const outcome = await agent.send(text('task a'));
    const attempt = outcome.record.attempts[0];
    const contextId = await recoveryContextId({
      recordId: outcome.id,
      attemptId: attempt?.attemptId ?? '',
      cardDigest: client.cardDigest,
    });
    expect(attempt?.contextId).toBe(contextId);
    expect(peer.messages()[0]).toMatchObject({ contextId });
    for (const secret of [
      outcome.id,
      attempt?.attemptId ?? '',
      'nightly-run-42',
      client.cardDigest.slice(7),
    ]) {
      expect(contextId.includes(secret)).toBe(false);
    }
    await expect(agent.send({ ...text('task a'), contextId: 'mine' })).rejects.toMatchObject({
      rule: 'context-id',
    });
    await expect(agent.send({ ...text('task a'), taskId: 'task-1' })).rejects.toMatchObject({
      rule: 'task-id',
    });
  });

  it('message-id-deduplicated keeps one messageId for the send, across the replay', async () => {
    const peer = await mountPeer({ mode: 'foreign', deduplicate: true });
    const { agent } = await build(peer, 'JSONRPC', {
      delivery: 'message-id-deduplicated',
      recovery: { kind: 'message-id-replay', attestation },
    });
    peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const outcome = await agent.send(text('task a'));
    await agent.reconcile(outcome.id);
    const sent = peer.messages().map((message) => message.messageId);
    expect(sent).toEqual([`${sendMessagePrefix}${outcome.id}`, `${sendMessagePrefix}${outcome.id}`]);
  });
});

/**
A client of `peer` built from its card after `edit`: a redeploy that changed the card (and so its digest).
*/
async function redeployed(
  peer: Peer,
  binding: (typeof bindings)[number],
  edit: (card: AgentCard) => AgentCard,
  pin: Partial<InterfacePin> = {},
) {
  const before = peer.client(binding);
  const card = edit(before.card);
  return createClient({
    card,
    cardDigest: await cardDigest(card as unknown as JsonValue),
    pin: { ...before.pin, ...pin },
    security: { kind: 'anonymous' },
  });
}

/**
A stage that runs each SendMessage twice, as a browser's own re-send of a POST does
(docs/interop.md#browsers): the page gets the second answer, or none.
*/
function resentByTheBrowser(peer: Peer, answer: 'second' | 'none'): void {
  peer.stage = async (request, forward) => {
    if (new URL(request.url).pathname.endsWith('/message:send') || (await isSend(request))) {
      await forward(request.clone());
      const second = await forward(request);
      return answer === 'second' ? second : Response.error();
    }
    return forward(request);
  };
}

async function isSend(request: Request): Promise<boolean> {
  if (request.method !== 'POST') {
    return false;
  }
  const body: unknown = await request.clone().json();
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'SendMessage';
}

describe('whose record it is (docs/durable-send.md#whose-record-it-is)', () => {
  it('reconciles a send whose agent card was edited between send and reconcile, through the same interface', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, ledger } = await build(peer, 'JSONRPC', { recovery: history });
    peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const lost = await agent.send(text('task before the redeploy'));
    expect(lost.status).toBe('unknown');
    const client = await redeployed(peer, 'JSONRPC', (card) => ({ ...card, version: '2.0.0' }));
    expect(client.cardDigest).not.toBe(lost.record.agent.cardDigest);
    const after = durableAgent({ client, ledger, recovery: history });
    expect((await after.unknown()).map((record) => record.id)).toEqual([lost.id]);
    const reconciled = await after.reconcile(lost.id);
    expect(reconciled.status).toBe('committed');
    // The digest stays on the record as evidence of the card the send was made under.
    expect(reconciled.record.agent).toEqual(lost.record.agent);
    expect(peer.agent.executions.of(messageIdOf(lost.record))).toBe(1);
    expect(peer.sent('SendMessage')).toHaveLength(1);
  });

  it('refuses a client pinned to another tenant of the same URL, saying so', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { ledger, agent } = await build(peer, 'JSONRPC', { recovery: history });
    peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const lost = await agent.send(text('task a'));
    const client = await redeployed(
      peer,
      'JSONRPC',
      (card) => ({
        ...card,
        supportedInterfaces: [
          ...card.supportedInterfaces,
          ...card.supportedInterfaces.map((entry) => ({ ...entry, tenant: 'acme' })),
        ],
      }),
      { tenant: 'acme' },
    );
    const tenanted = durableAgent({ client, ledger, recovery: history });
    await expect(tenanted.reconcile(lost.id)).rejects.toMatchObject({
      name: 'LedgerError',
      reason: 'invalid-input',
      rule: 'tenant-mismatch',
    });
    expect(await tenanted.unknown()).toEqual([]);
    expect(peer.sent('ListTasks')).toHaveLength(0);
  });

  it('lists its own unknown and pending records by default, and every agent’s on request', async () => {
    const ledger = await memoryLedger();
    const first = await mountPeer({ mode: 'foreign' });
    const second = await mountPeer({ mode: 'foreign' });
    const mine = await build(first, 'JSONRPC', { ledger, recovery: history });
    const theirs = await build(second, 'JSONRPC', { ledger, recovery: history });
    first.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    second.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const a = await mine.agent.send(text('echo a'));
    const b = await theirs.agent.send(text('echo b'));
    expect((await mine.agent.unknown()).map((record) => record.id)).toEqual([a.id]);
    expect((await theirs.agent.unknown()).map((record) => record.id)).toEqual([b.id]);
    expect((await mine.agent.unknown({ agents: 'all' })).map((record) => record.id)).toEqual([a.id, b.id]);
    // A lost direct message leaves nothing to find: each probe schedules the next.
    expect((await mine.agent.reconcile(a.id)).status).toBe('pending');
    expect((await theirs.agent.reconcile(b.id)).status).toBe('pending');
    expect((await mine.agent.pending()).map((record) => record.id)).toEqual([a.id]);
    expect((await mine.agent.pending({ agents: 'own' })).map((record) => record.id)).toEqual([a.id]);
    expect(new Set((await mine.agent.pending({ agents: 'all' })).map((record) => record.id))).toEqual(
      new Set([a.id, b.id]),
    );
  });

  it('reconciles by default, with no recovery configured: the context scan', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent } = await build(peer, 'JSONRPC');
    expect(agent.recovery).toMatchObject({ kind: 'context-history', maxPages: 4, historyLength: 64 });
    peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const lost = await agent.send(text('task a'));
    expect((await agent.reconcile(lost.id)).status).toBe('committed');
    expect(peer.agent.executions.total()).toBe(1);
  });
});

describe('a send that ran twice (docs/durable-send.md#duplicated)', () => {
  it('ends duplicated, naming both tasks, when the reconciliation scan finds the message in two', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, events } = await build(peer, 'JSONRPC', { recovery: history });
    resentByTheBrowser(peer, 'none');
    const lost = await agent.send(text('task book the 9:40 to Lyon'));
    expect(lost.status).toBe('unknown');
    expect(peer.agent.executions.of(messageIdOf(lost.record))).toBe(2);
    const outcome = await agent.reconcile(lost.id);
    expect(outcome.status).toBe('duplicated');
    const state = outcome.record.state;
    const taskIds = state.status === 'duplicated' ? state.taskIds : [];
    expect(taskIds).toHaveLength(2);
    expect(new Set(taskIds).size).toBe(2);
    expect(outcome).not.toHaveProperty('answer');
    expect(events.filter((event) => event.type === 'duplicated')).toEqual([
      expect.objectContaining({ id: lost.id, taskIds, found: 'reconcile' }),
    ]);
    expect(transitions(events).at(-1)).toBe('unknown→duplicated');
    expect(probes(events).at(-1)).toMatchObject({ result: 'duplicated', matches: 2 });
    // Terminal: nothing probes it again, and a reused id gives it back without sending.
    const listed = peer.sent('ListTasks').length;
    expect((await agent.reconcile(lost.id)).status).toBe('duplicated');
    expect(peer.sent('ListTasks')).toHaveLength(listed);
    expect(await agent.unknown()).toEqual([]);
  });

  it('is committed, with two executions, when the page sees the second answer and nothing audits it; the audit turns it duplicated', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const unaudited = await build(peer, 'JSONRPC', { recovery: history, audit: false });
    resentByTheBrowser(peer, 'second');
    const blind = await unaudited.agent.send(text('task one'));
    // The hazard the audit exists for: one commit, two executions.
    expect(blind.status).toBe('committed');
    expect(peer.agent.executions.of(messageIdOf(blind.record))).toBe(2);

    const audited = await build(peer, 'JSONRPC', { recovery: history, audit: true });
    expect(audited.agent.audit).toBe(true);
    const seen = await audited.agent.send(text('task two'));
    expect(peer.agent.executions.of(messageIdOf(seen.record))).toBe(2);
    expect(seen.status).toBe('duplicated');
    const state = seen.record.state;
    const taskIds = state.status === 'duplicated' ? state.taskIds : [];
    expect(taskIds).toHaveLength(2);
    // The answer the page saw names the second task.
    const answered = seen.answer !== undefined && 'task' in seen.answer ? seen.answer.task.id : '';
    expect(taskIds).toContain(answered);
    expect(transitions(audited.events)).toEqual([
      'none→prepared',
      'prepared→executing',
      'executing→committed',
      'committed→duplicated',
    ]);
    expect(probes(audited.events)).toEqual([
      expect.objectContaining({ audit: true, recovery: 'context-history', result: 'duplicated', matches: 2 }),
    ]);
    expect(audited.events.filter((event) => event.type === 'duplicated')).toEqual([
      expect.objectContaining({ id: seen.id, taskIds, found: 'audit' }),
    ]);
  });

  it('leaves a commit that ran once committed after the audit', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, events } = await build(peer, 'JSONRPC', { recovery: history, audit: true });
    const outcome = await agent.send(text('task once'));
    expect(outcome.status).toBe('committed');
    expect(probes(events)).toEqual([expect.objectContaining({ audit: true, result: 'match', matches: 1 })]);
    expect(peer.agent.executions.total()).toBe(1);
    // A lost page during the audit leaves the commit standing.
    peer.stage = async (request, forward) => ((await isSend(request)) ? forward(request) : Response.error());
    const second = await agent.send(text('task twice'));
    expect(second.status).toBe('committed');
    expect(probes(events).at(-1)).toMatchObject({ audit: true, result: 'transient-error' });
  });
});

describe('a client retry policy never sends a durable send twice', () => {
  it('stops the client’s retry of a keyed send: one request, the outcome unknown, then reconciled by a replay', async () => {
    const peer = await mountPeer({ mode: 'honouring' });
    const client = peer.client('JSONRPC', { retry: { initialBackoffMs: 1, maxBackoffMs: 1 } });
    const agent = durableAgent({
      client,
      ledger: await memoryLedger(),
      delivery: 'keyed',
      recovery: { kind: 'keyed' },
    });
    peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const outcome = await agent.send(text('task a'));
    expect(outcome.status).toBe('unknown');
    expect(outcome.error).toMatchObject({ kind: 'transport', reason: 'network', dispatched: true });
    expect(peer.sent('SendMessage')).toHaveLength(1);
    expect((await agent.reconcile(outcome.id)).status).toBe('committed');
    expect(peer.sent('SendMessage')).toHaveLength(2);
    expect(peer.agent.executions.total()).toBe(1);
  });

  it('stops the client’s retry of a definite rejection too: the 503 is the outcome', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const client = peer.client('HTTP+JSON', { retry: { initialBackoffMs: 1, maxBackoffMs: 1 } });
    const agent = durableAgent({ client, ledger: await memoryLedger() });
    peer.faults.set({ kind: 'status-after', operation: 'SendMessage', status: 503 });
    const outcome = await agent.send(text('task a'));
    expect(outcome.record.state).toMatchObject({
      status: 'unknown',
      cause: { kind: 'http-protocol', httpStatus: 503 },
    });
    expect(peer.sent('SendMessage')).toHaveLength(1);
  });
});

describe('reconcile', () => {
  async function lost(peer: Peer, options: Partial<DurableAgentOptions> = {}, words = 'task a') {
    const built = await build(peer, 'JSONRPC', { recovery: history, ...options });
    peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const outcome = await built.agent.send(text(words));
    expect(outcome.status).toBe('unknown');
    return { ...built, outcome };
  }

  it('returns committed, failed and in-flight records as they are, without I/O', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, ledger } = await build(peer, 'JSONRPC', { recovery: history });
    const committed = await agent.send(text('task a'));
    const controller = new AbortController();
    controller.abort();
    const failed = await agent.send(text('task a'), { signal: controller.signal });
    const { tenant, run, agent: identity, message, delivery } = committed.record;
    const prepared = await ledger.create({
      id: 'prepared-1',
      tenant,
      run,
      agent: identity,
      message,
      delivery,
    });
    const before = peer.requests.length;
    expect((await agent.reconcile(committed.id)).status).toBe('committed');
    expect((await agent.reconcile(failed.id)).status).toBe('failed');
    expect((await agent.reconcile(prepared.id)).status).toBe('in-flight');
    expect(peer.requests.length).toBe(before);
    await expect(agent.reconcile('no-such-send')).rejects.toMatchObject({
      name: 'LedgerError',
      reason: 'not-found',
    });
  });

  it('leaves an unknown record alone when recovery is disabled: no probe, ever', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, outcome } = await lost(peer, { recovery: { kind: 'disabled' } });
    expect((await agent.reconcile(outcome.id)).status).toBe('unknown');
    expect(peer.sent('ListTasks')).toHaveLength(0);
  });

  it('leaves alone a record sent under another recovery (no recovery context), and refuses one sent through another interface, saying which part differs', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { ledger, outcome } = await lost(peer, { recovery: { kind: 'disabled' } });
    const scanning = durableAgent({ client: peer.client('JSONRPC'), ledger, recovery: history });
    expect((await scanning.reconcile(outcome.id)).status).toBe('unknown');
    expect(peer.sent('ListTasks')).toHaveLength(0);
    const other = await mountPeer({ mode: 'foreign' });
    const elsewhere = durableAgent({ client: other.client('JSONRPC'), ledger, recovery: history });
    const refused = await elsewhere.reconcile(outcome.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LedgerError);
    expect(refused).toMatchObject({ reason: 'invalid-input', rule: 'url-mismatch' });
    expect((refused as LedgerError).message).toBe('surecall ledger: invalid-input: url-mismatch');
    const otherBinding = durableAgent({ client: peer.client('HTTP+JSON'), ledger, recovery: history });
    await expect(otherBinding.reconcile(outcome.id)).rejects.toMatchObject({ rule: 'binding-mismatch' });
    expect(other.requests).toHaveLength(0);
    expect(peer.sent('ListTasks')).toHaveLength(0);
  });

  it('keeps to the not-before time of a pending probe, and lists pending and unknown records', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, outcome } = await build(peer, 'JSONRPC', { recovery: history }).then(async (built) => {
      peer.faults.set({ kind: 'drop-before', operation: 'SendMessage' });
      return { ...built, outcome: await built.agent.send(text('task a')) };
    });
    const pending = await agent.reconcile(outcome.id);
    expect(pending.status).toBe('pending');
    const state = pending.record.state;
    expect(state.status === 'unknown' ? state.pending : undefined).toMatchObject({ probes: 1 });
    expect((await agent.reconcile(outcome.id)).status).toBe('pending');
    expect(peer.sent('ListTasks')).toHaveLength(1);
    const committed = await agent.send(text('task b'));
    expect((await agent.pending()).map((record) => record.id)).toEqual([outcome.id]);
    expect((await agent.unknown()).map((record) => record.id)).toEqual([outcome.id]);
    expect((await agent.get(committed.id))?.state.status).toBe('committed');
  });

  it('shares one probe between concurrent reconciliations of one record', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, outcome } = await lost(peer);
    const [left, right] = await Promise.all([agent.reconcile(outcome.id), agent.reconcile(outcome.id)]);
    expect(left).toBe(right);
    expect(left.status).toBe('committed');
    expect(peer.sent('ListTasks')).toHaveLength(1);
  });

  it('writes nothing when the caller cancels the probe', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, outcome, events } = await lost(peer);
    const controller = new AbortController();
    controller.abort();
    await expect(agent.reconcile(outcome.id, { signal: controller.signal })).rejects.toMatchObject({
      kind: 'request',
      reason: 'aborted',
    });
    expect((await agent.get(outcome.id))?.revision).toBe(outcome.record.revision);
    expect(probes(events)).toHaveLength(0);
  });

  it('stops after maxProbes empty probes: a lost direct Message created no task, so it stays unknown for a person', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, outcome, events } = await lost(
      peer,
      { recovery: { ...history, maxProbes: 1 } },
      'echo hello',
    );
    const settled = await agent.reconcile(outcome.id);
    expect(settled.status).toBe('unresolved');
    expect(settled.record.state).toMatchObject({ status: 'unknown', reason: 'no-evidence' });
    expect(peer.agent.executions.total()).toBe(1);
    expect((await agent.reconcile(outcome.id)).status).toBe('unresolved');
    expect(peer.sent('ListTasks')).toHaveLength(1);
    expect(transitions(events).slice(-1)).toEqual(['unknown→unknown']);
    expect(events.at(-1)).toMatchObject({ cause: 'unresolved', reason: 'no-evidence' });
  });

  it.each(bindings)(
    'over %s, a send the peer answered with a direct Message ends unresolved (direct-message) after one probe',
    async (binding) => {
      const peer = await mountPeer({ mode: 'foreign' });
      const built = await build(peer, binding, { recovery: { ...history, maxProbes: 10 } });
      // The peer does the work and answers 200, but its answer breaks strict JSON: the outcome is unknown,
      // and the recorded cause says an answer arrived.
      peer.faults.set({ kind: 'duplicate-keys', operation: 'SendMessage' });
      const outcome = await built.agent.send(text('echo hello'));
      expect(outcome.status).toBe('unknown');
      expect(outcome.record.state).toMatchObject({ cause: { httpStatus: 200 } });
      const settled = await built.agent.reconcile(outcome.id);
      expect(settled.status).toBe('unresolved');
      expect(settled.record.state).toMatchObject({ status: 'unknown', reason: 'direct-message' });
      expect(settled.record.state).not.toHaveProperty('pending');
      // One probe, not ten: no later scan could find a task the direct Message never created.
      expect(peer.sent('ListTasks')).toHaveLength(1);
      expect((await built.agent.reconcile(outcome.id)).status).toBe('unresolved');
      expect(peer.sent('ListTasks')).toHaveLength(1);
      expect(built.events.at(-1)).toMatchObject({ cause: 'unresolved', reason: 'direct-message' });
      expect(peer.agent.executions.total()).toBe(1);
      expect(peer.sent('SendMessage')).toHaveLength(1);
    },
  );

  it('a task answer that broke a check is still found by the scan: the direct-message reason needs an empty context', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const built = await build(peer, 'JSONRPC', { recovery: history });
    peer.faults.set({ kind: 'duplicate-keys', operation: 'SendMessage' });
    const outcome = await built.agent.send(text('task a'));
    expect(outcome.status).toBe('unknown');
    expect((await built.agent.reconcile(outcome.id)).status).toBe('committed');
  });

  it('a lost answer (no status) to a direct Message still probes until maxProbes: nothing says it was answered', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, outcome } = await lost(peer, { recovery: { ...history, maxProbes: 2 } }, 'echo hello');
    const first = await agent.reconcile(outcome.id);
    expect(first.status).toBe('pending');
    expect(peer.sent('ListTasks')).toHaveLength(1);
  });

  it('lets what another writer recorded meanwhile stand', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const ledger = await memoryLedger();
    const racing: Ledger = {
      ...ledger,
      async transition(id, expected, transition) {
        if (transition.type === 'reconcile-commit') {
          // Another process (holding the lease now) records its own verdict first.
          await ledger.transition(id, expected, {
            type: 'unresolved',
            attemptId: transition.attemptId,
            reason: 'no-evidence',
          });
        }
        return ledger.transition(id, expected, transition);
      },
    };
    const { agent, outcome } = await lost(peer, { ledger: racing });
    const settled = await agent.reconcile(outcome.id);
    expect(settled.status).toBe('unresolved');
  });

  it('reports every probe and transition on the agent’s events', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent, outcome, events } = await lost(peer);
    await agent.reconcile(outcome.id);
    const [probe] = probes(events);
    expect(probe).toMatchObject({
      type: 'probe',
      id: outcome.id,
      attemptId: outcome.record.attempts[0]?.attemptId,
      recovery: 'context-history',
      pagesScanned: 1,
      tasksExamined: 1,
      matches: 1,
      result: 'match',
    });
    expect(probe?.durationMs).toBeGreaterThanOrEqual(0);
    expect(events.at(-1)).toMatchObject({
      type: 'transition',
      from: 'unknown',
      to: 'committed',
      cause: 'reconcile-commit',
      revision: 3,
    });
    expect(transitions(events)).toEqual([
      'none→prepared',
      'prepared→executing',
      'executing→unknown',
      'unknown→committed',
    ]);
  });

  it('an observer that throws changes nothing', async () => {
    const peer = await mountPeer({ mode: 'foreign' });
    const { agent } = await build(peer, 'JSONRPC');
    agent.events.subscribe(() => {
      throw new Error('observer bug');
    });
    agent.events.subscribe(async () => Promise.reject(new Error('async observer bug')));
    expect((await agent.send(text('task a'))).status).toBe('committed');
  });
});

describe.each(bindings)(
  'the StateKnot recovery checklist over %s (docs/durable-send.md#what-the-tests-prove)',
  (binding) => {
    it('recovers from the context history without a resend', async () => {
      const peer = await mountPeer({ mode: 'foreign' });
      const { agent, events } = await build(peer, binding, { recovery: history, run: 'run-7f3a' });
      peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
      const lost = await agent.send(text('task alpha'));
      expect(lost.record.state).toMatchObject({
        status: 'unknown',
        reason: 'ambiguous-outcome',
        cause: { kind: 'transport', dispatched: true },
      });
      const contextId = lost.record.attempts[0]?.contextId ?? '';
      expect(contextId.startsWith('surecall-ctx-')).toBe(true);
      expect(contextId.includes('run-7f3a')).toBe(false);
      const reconciled = await agent.reconcile(lost.id);
      expect(reconciled.status).toBe('committed');
      // The result is bound to the original attempt, and names the task the first send created.
      expect(reconciled.record.state).toMatchObject({
        status: 'committed',
        attemptId: lost.record.attempts[0]?.attemptId,
        result: { kind: 'task', contextId },
      });
      expect(reconciled.answer).toMatchObject({ task: { contextId } });
      const [query] = peer.sent('ListTasks');
      expect(query?.params).toMatchObject({ contextId, historyLength: binding === 'JSONRPC' ? 16 : '16' });
      expect(peer.requests.map((request) => request.operation)).toEqual(['SendMessage', 'ListTasks']);
      expect(peer.agent.executions.total()).toBe(1);
      expect(transitions(events).at(-1)).toBe('unknown→committed');
    });

    it('rejects a same-id payload substitution in the history', async () => {
      const peer = await mountPeer({ mode: 'foreign' });
      const { agent, events } = await build(peer, binding, { recovery: history });
      peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
      const lost = await agent.send(text('task alpha'));
      peer.faults.set({ kind: 'altered-history', operation: 'ListTasks' });
      const reconciled = await agent.reconcile(lost.id);
      expect(reconciled.status).toBe('unresolved');
      expect(reconciled.record.state).toMatchObject({ status: 'unknown', reason: 'conflicting-evidence' });
      expect(probes(events)[0]).toMatchObject({ result: 'conflict', rule: 'message-mismatch', matches: 0 });
      expect(peer.sent('SendMessage')).toHaveLength(1);
    });

    it('replays the exact original under a deduplication attestation', async () => {
      const peer = await mountPeer({ mode: 'foreign', deduplicate: true });
      const { agent } = await build(peer, binding, {
        delivery: 'message-id-deduplicated',
        recovery: { kind: 'message-id-replay', attestation },
      });
      peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
      const lost = await agent.send(text('task alpha'));
      const reconciled = await agent.reconcile(lost.id);
      expect(reconciled.status).toBe('committed');
      const [first, replay] = peer.messages();
      expect(replay).toEqual(first);
      expect(peer.agent.executions.total()).toBe(1);
    });

    it('shows why the replay needs the attestation: a peer that does not deduplicate runs the replay again', async () => {
      const peer = await mountPeer({ mode: 'foreign' });
      const { agent } = await build(peer, binding, {
        delivery: 'message-id-deduplicated',
        recovery: { kind: 'message-id-replay', attestation },
      });
      peer.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
      const lost = await agent.send(text('task alpha'));
      await agent.reconcile(lost.id);
      // A2A does not require receivers to deduplicate messageId (docs/durable-send.md#delivery-modes): the
      // operator's word is what makes the replay safe.
      expect(peer.agent.executions.of(messageIdOf(lost.record))).toBe(2);
    });

    it('goes unknown → pending → committed with one business call across two probes', async () => {
      const peer = await mountPeer({ mode: 'foreign' });
      const { agent, events } = await build(peer, binding, { recovery: { ...history, retryAfterMs: 1000 } });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      // The request reaches a queue in front of the agent, the answer is lost, and the agent takes it up five
      // seconds later.
      const applied: Promise<Response>[] = [];
      peer.stage = async (request, forward) => {
        const copy = new Request(request.url, {
          method: request.method,
          headers: request.headers,
          body: await request.arrayBuffer(),
        });
        setTimeout(() => applied.push(forward(copy)), 5000);
        return Response.error();
      };
      const lost = await agent.send(text('task alpha'));
      peer.stage = undefined;
      expect(lost.status).toBe('unknown');
      const first = await agent.reconcile(lost.id);
      expect(first.status).toBe('pending');
      expect(await agent.reconcile(lost.id)).toMatchObject({ status: 'pending' });
      await vi.advanceTimersByTimeAsync(5000);
      await Promise.all(applied);
      expect(peer.agent.executions.total()).toBe(1);
      const second = await agent.reconcile(lost.id);
      expect(second.status).toBe('committed');
      expect(probes(events).map((probe) => probe.result)).toEqual(['none', 'match']);
      expect(transitions(events)).toEqual([
        'none→prepared',
        'prepared→executing',
        'executing→unknown',
        'unknown→unknown',
        'unknown→committed',
      ]);
      expect(peer.sent('SendMessage')).toHaveLength(1);
      expect(peer.sent('ListTasks')).toHaveLength(2);
      expect(peer.agent.executions.total()).toBe(1);
    });
  },
);

it('LedgerError is what a refused send throws, before anything leaves', async () => {
  const peer = await mountPeer({ mode: 'foreign' });
  const { agent } = await build(peer, 'JSONRPC');
  await expect(
    agent.send({ role: 'ROLE_AGENT', parts: [{ text: 'not mine to send' }] }),
  ).rejects.toBeInstanceOf(LedgerError);
  expect(peer.requests).toHaveLength(0);
});
