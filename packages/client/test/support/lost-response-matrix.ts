/**
@module
The lost-response matrix (docs/durable-send.md#what-the-tests-prove), written once and run by
`test/durable/lost-response-matrix.test.ts` (JSON-RPC and HTTP+JSON, behind MSW) and
`test/durable/lost-response-matrix-grpc.test.ts` (gRPC, on the mock agent's gRPC mount): every fault of the
mock agent's fault lab, armed on the durable send's one SendMessage, × each delivery mode with its recovery ×
a peer that honours keys and one that does not. The mock's execution counter is the ground truth: at most one
execution per logical send, always; exactly one once reconciled wherever evidence exists; and the ledger's
final state says what the agent did.
*/
import type { FaultKind, FaultSpec } from '@surecall/mocks';
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { type DurableAgentOptions, durableAgent } from '../../src/durable/agent.js';
import { verifyHistory } from '../../src/ledger/ledger.js';
import { allBindings, memoryLedger, mountPeer, type PeerOptions } from './durable-peers.js';

type Binding = (typeof allBindings)[number];

/**
How the first send ends, per fault: `unknown` or `committed` (no fault here leaves a send known-failed), and
whether the agent ran it.
*/
type SendExpectation = { readonly outcome: 'committed' | 'unknown'; readonly ran: boolean };

const unknownRan: SendExpectation = { outcome: 'unknown', ran: true };
const committed: SendExpectation = { outcome: 'committed', ran: true };

/**
Over gRPC (the mock's gRPC mount, mocks/src/grpc/faults.ts) the kinds that only HTTP or JSON text can carry
let the answer through, so the send commits: a media type, an HTML page, a redirect, a JSON-RPC envelope, a
key written twice, a second oneof member, a unary body cut at half.
*/
const textOnly = (binding: Binding): SendExpectation => (binding === 'GRPC' ? committed : unknownRan);

/**
What each fault does to a durable send (mocks/src/faults/faults.ts, module table). Every kind of the lab is
here; the stream-only ones pass a unary answer through and so commit. `delay` is armed to answer after the
work, and the send is cancelled once the agent has run it: a late answer nobody waited for.
`blocking-submitted` commits because a durable send asks for `returnImmediately`, where SUBMITTED is a valid
answer. `altered-history` is unknown because the answer's history contradicts the message sent.
`different-task-id` commits the id the peer claims: a task handle is the peer's word, checked when the task is
followed (GetTask), not by the send. `altered-data` commits: a data part's content is the peer's to choose,
and only a caller's own schema judges it (a remote skill's output). `foreign-message-ids` is unknown: the
history's message names another context than its task's, so the answer is refused after the agent ran it.
*/
const faults: Readonly<
  Record<
    FaultKind,
    { readonly spec: Partial<FaultSpec>; readonly send: (binding: Binding) => SendExpectation }
  >
> = {
  'drop-before': { spec: {}, send: () => ({ outcome: 'unknown', ran: false }) },
  'drop-after': { spec: {}, send: () => unknownRan },
  delay: { spec: { ms: 5, when: 'after' }, send: () => unknownRan },
  'status-after': { spec: {}, send: () => unknownRan },
  'cut-stream': { spec: { afterFrames: 0 }, send: () => committed },
  'premature-eof': { spec: {}, send: textOnly },
  'duplicate-keys': { spec: {}, send: textOnly },
  'wrong-jsonrpc-id': { spec: {}, send: (binding) => (binding === 'JSONRPC' ? unknownRan : committed) },
  'result-and-error': { spec: {}, send: (binding) => (binding === 'JSONRPC' ? unknownRan : committed) },
  'two-union-members': { spec: {}, send: textOnly },
  'wrong-media-type': { spec: {}, send: textOnly },
  'html-413': { spec: {}, send: textOnly },
  redirect: { spec: {}, send: textOnly },
  'oversized-sse-line': { spec: {}, send: () => committed },
  'blocking-submitted': { spec: {}, send: () => committed },
  'different-task-id': { spec: {}, send: () => committed },
  'altered-history': { spec: {}, send: () => unknownRan },
  'altered-data': { spec: {}, send: () => committed },
  'foreign-message-ids': { spec: {}, send: () => unknownRan },
  // gRPC only, and on an error answer only: a SendMessage that succeeds passes on every binding.
  'bad-status-details': { spec: {}, send: () => committed },
};

type Row = {
  readonly name: string;
  readonly peer: PeerOptions;
  readonly agent: Partial<DurableAgentOptions>;
  /**
  Whether this recovery finds evidence of a send the agent never ran: a replay runs it now; a scan cannot.
  */
  readonly replays: boolean;
  /**
  The bindings the row runs on. The deduplicating front sits between the fault lab and the agent; over gRPC a
  test's front can only be a grpc-js interceptor, outside the mount's lab, where a dropped answer never
  reaches it, so that row is the HTTP bindings' only.
  */
  readonly over: readonly Binding[];
};

const rows: readonly Row[] = [
  {
    name: 'at-most-once, context-history scan, honouring peer',
    peer: { mode: 'honouring' },
    agent: {
      delivery: 'at-most-once',
      recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 250, maxProbes: 1 },
    },
    replays: false,
    over: allBindings,
  },
  {
    name: 'at-most-once, context-history scan, foreign peer',
    peer: { mode: 'foreign' },
    agent: {
      delivery: 'at-most-once',
      recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 250, maxProbes: 1 },
    },
    replays: false,
    over: allBindings,
  },
  {
    name: 'keyed, keyed replay, honouring peer',
    peer: { mode: 'honouring' },
    agent: { delivery: 'keyed', recovery: { kind: 'keyed', maxProbes: 1 } },
    replays: true,
    over: allBindings,
  },
  {
    name: 'message-id-deduplicated, attested replay, deduplicating peer',
    peer: { mode: 'foreign', deduplicate: true },
    agent: {
      delivery: 'message-id-deduplicated',
      recovery: {
        kind: 'message-id-replay',
        attestation: {
          owner: 'test',
          evidence: 'test/support/durable-peers.ts deduplicateMessageIds',
          retentionMs: 86_400_000,
        },
        maxProbes: 1,
      },
    },
    replays: true,
    over: ['JSONRPC', 'HTTP+JSON'],
  },
];

const kinds = Object.keys(faults) as FaultKind[];

/**
The matrix over one binding, as a `describe` block: every row that runs on it × every fault kind, and the
refused keyed-to-foreign build. The HTTP bindings run behind MSW (`lost-response-matrix.test.ts`); gRPC runs
on the mock's gRPC mount in a file of its own (`lost-response-matrix-grpc.test.ts`), since MSW's interception
of Node's sockets keeps an HTTP/2 connection from ever opening while it listens.
*/
export function describeMatrix(binding: Binding): void {
  describe(`the lost-response matrix over ${binding}`, () => {
    describe.each(rows.filter((row) => row.over.includes(binding)))('$name', (row) => {
      it.each(kinds)('%s', async (kind) => {
        const peer = await mountPeer({ ...row.peer, grpc: binding === 'GRPC' });
        const client = peer.client(binding);
        const ledger = await memoryLedger();
        const agent = durableAgent({ client, ledger, ...row.agent });
        const fault = faults[kind];
        const controller = new AbortController();
        if (kind === 'delay') {
          let first = true;
          peer.answered = () => {
            if (first) {
              // The agent has run it; the caller gives up before the late answer comes.
              first = false;
              controller.abort();
            }
          };
        }
        peer.faults.set({ kind, operation: 'SendMessage', ...fault.spec } as FaultSpec);

        const sent = await agent.send(
          { role: 'ROLE_USER', parts: [{ text: 'task alpha beta' }] },
          { signal: controller.signal },
        );
        const messageId = sent.record.attempts[0]?.messageId ?? '';
        const expected = fault.send(binding);
        expect(sent.status).toBe(expected.outcome);
        expect(peer.agent.executions.of(messageId)).toBe(expected.ran ? 1 : 0);
        expect(peer.faults.list()).toHaveLength(0);

        const final = sent.status === 'unknown' ? await agent.reconcile(sent.id) : sent;
        const runs = peer.agent.executions.of(messageId);
        // At most one execution per logical send, always.
        expect(runs).toBeLessThanOrEqual(1);
        expect(peer.agent.executions.total()).toBe(runs);
        // Exactly one once reconciled wherever evidence exists: the agent ran it, or a replay may run it now.
        const evidence = expected.ran || row.replays;
        expect(final.status).toBe(evidence ? 'committed' : 'unresolved');
        expect(runs).toBe(evidence ? 1 : 0);
        if (final.status === 'unresolved') {
          // Stays unknown for a person, never sent again on its own.
          expect(final.record.state).toMatchObject({ status: 'unknown', reason: 'no-evidence' });
          expect(peer.sent('SendMessage')).toHaveLength(1);
        }
        // The ledger's committed handle is the task the agent actually holds the message in.
        const state = final.record.state;
        if (state.status === 'committed' && kind !== 'different-task-id') {
          const taskId = state.result.taskId ?? '';
          const task = await client.getTask({ id: taskId });
          expect(task.history.some((message) => message.messageId === messageId)).toBe(true);
        }
        // And its history replays and verifies, revision by revision.
        expect((await verifyHistory(await ledger.history(sent.id))).ok).toBe(true);
      });
    });

    it('refuses keyed delivery to a foreign peer: it would run a re-sent keyed message again', async () => {
      const peer = await mountPeer({ mode: 'foreign', grpc: binding === 'GRPC' });
      expect(() =>
        durableAgent({
          client: peer.client(binding),
          ledger: {} as never,
          delivery: 'keyed',
          recovery: { kind: 'keyed' },
        }),
      ).toThrow(OptionsError);
      expect(peer.requests).toHaveLength(0);
    });
  });
}
