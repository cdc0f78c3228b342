/**
After dispatch nothing may keep a durable send from becoming unknown (docs/durable-send.md#after-dispatch): a
hostile loopback peer answers with documents whose refusal carries the longest violation paths the client can
produce, and the record still leaves `executing`, on the file and the memory ledger, and is listed by
`unknown()` at once.
*/
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProtocolBinding } from '../../src/client/security.js';
import { LedgerError } from '../../src/core/errors.js';
import { durableAgent } from '../../src/durable/agent.js';
import { openLedger } from '../../src/ledger/file.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { openLedger as openMemoryLedger } from '../../src/ledger/memory.js';
import { type HostileCall, type HostilePeer, jsonText, startHostilePeer } from '../support/hostile-peer.js';

let peer: HostilePeer;
let directory = '';
beforeAll(async () => {
  peer = await startHostilePeer();
  directory = await mkdtemp(join(tmpdir(), 'surecall-after-dispatch-'));
});
afterAll(async () => {
  await peer.close();
  await rm(directory, { recursive: true, force: true });
});

/** A send answer's body over either binding: the JSON-RPC envelope around `result`, or `result` itself. */
function answer(call: HostileCall, result: string): Response {
  return jsonText(
    call.binding === 'JSONRPC'
      ? `{"jsonrpc":"2.0","id":${JSON.stringify(call.rpcId)},"result":${result}}`
      : result,
  );
}

const longKey = (index: number) => `k${index}${'x'.repeat(62)}`;

const answers: Readonly<Record<string, (call: HostileCall) => Response>> = {
  // The issue's case: eight members deep, each key 64 characters, then a duplicate.
  'a duplicate eight long keys deep': (call) =>
    answer(
      call,
      `{"task":${Array.from({ length: 8 }, (_, index) => `{"${longKey(index)}":`).join('')}{"a":1,"a":2}${'}'.repeat(8)}}`,
    ),
  // 300 levels of arrays: a path of 900 bytes of indexes alone.
  'a duplicate 300 arrays deep': (call) =>
    answer(call, `{"task":${'['.repeat(300)}{"a":1,"a":2}${']'.repeat(300)}}`),
  'an unsafe integer 90 arrays deep, at index 8191 of each': (call) =>
    answer(call, `{"task":${`[${'0,'.repeat(8191)}`.repeat(90)}9007199254740993${']'.repeat(90)}}`),
};

// The client admits the deepest nesting the bounds allow, so the refusal's path is as long as a peer can make
// it.
const limits = { jsonDepth: 512, jsonValues: 1_000_000, responseBodyBytes: 4 * 1024 * 1024 };

async function ledgers(name: string): Promise<Array<[string, () => Promise<Ledger>]>> {
  const path = join(directory, `${name.replaceAll(/\W+/g, '-')}.jsonl`);
  return [
    ['file', () => openLedger({ name: path })],
    ['memory', () => openMemoryLedger({ name: name })],
  ];
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)(
  'a send refused after dispatch over %s',
  (binding: ProtocolBinding) => {
    it.each(Object.entries(answers))(
      '%s: unknown at once, with a path that fits',
      async (name, respond) => {
        peer.answer = (call) => (call.operation.includes('essage') ? respond(call) : undefined);
        try {
          for (const [kind, open] of await ledgers(`${binding}-${name}`)) {
            const ledger = await open();
            // No recovery: the record must stay as `send` wrote it (reconcile answers without I/O), so the
            // reopened journal can be compared with it.
            const agent = durableAgent({
              client: await peer.client(binding, { limits }),
              ledger,
              recovery: { kind: 'disabled' },
            });
            const outcome = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'hostile' }] });
            expect(outcome.status, kind).toBe('unknown');
            const { state } = outcome.record;
            expect(state).toMatchObject({ status: 'unknown', reason: 'ambiguous-outcome' });
            const path = state.status === 'unknown' ? (state.cause?.violation?.path ?? '') : '';
            expect(path.startsWith('$')).toBe(true);
            expect(new TextEncoder().encode(path).length).toBeLessThanOrEqual(512);
            expect((await agent.unknown()).map((record) => record.id)).toEqual([outcome.id]);
            expect((await agent.reconcile(outcome.id)).status).not.toBe('in-flight');
            await ledger.close();
            if (kind === 'file') {
              // Reopened, the record is as it was written: unknown, never a crashed executing one.
              const reopened = await open();
              expect((await reopened.get(outcome.id))?.state).toStrictEqual(state);
              await reopened.close();
            }
          }
        } finally {
          peer.answer = undefined;
        }
        // Megabyte answers through two ledgers, one of them fdatasync'd: seconds on a loaded machine.
      },
      30_000,
    );
  },
);

describe('a ledger that refuses what a dispatched attempt ended in', () => {
  it.each<[string, (call: HostileCall) => Response | undefined]>([
    ['the commit of an answer', () => undefined],
    ['the unknown of a refused answer', (call) => answer(call, '{"task":{"a":1,"a":2}}')],
  ])('%s: records unknown without a cause instead of staying executing', async (_name, respond) => {
    peer.answer = (call) => (call.operation.includes('essage') ? respond(call) : undefined);
    const inner = await openMemoryLedger({ name: 'refusing' });
    let refused = 0;
    // Refuses the first transition after `start` with the one reason content can be refused for.
    const ledger: Ledger = Object.create(inner, {
      transition: {
        value: async (...args: Parameters<Ledger['transition']>) => {
          const current = await inner.get(args[0]);
          if (current?.state.status === 'executing' && refused === 0) {
            refused++;
            throw new LedgerError('invalid-input', { rule: 'max-bytes' });
          }
          return inner.transition(...args);
        },
      },
    });
    try {
      const agent = durableAgent({ client: await peer.client('JSONRPC'), ledger });
      const outcome = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'refused record' }] });
      expect(refused).toBe(1);
      expect(outcome.status).toBe('unknown');
      expect(outcome.record.state).toStrictEqual({
        status: 'unknown',
        attemptId: outcome.record.attempts[0]?.attemptId,
        reason: 'ambiguous-outcome',
      });
      expect((await agent.unknown()).map((record) => record.id)).toEqual([outcome.id]);
    } finally {
      peer.answer = undefined;
      await inner.close();
    }
  });
});

// docs/durable-send.md#after-dispatch: a store that cannot record the outcome still ends the send unknown,
// never in an exception.
describe('a store that refuses the write after dispatch', () => {
  type Interference = (ledger: Ledger) => Promise<void>;
  const interferences: Array<[string, Interference, LedgerError['reason']]> = [
    ['closed while the request is out', (ledger) => ledger.close(), 'closed'],
    [
      'whose record another writer turned unknown (a second process with the same worker id)',
      async (ledger) => {
        const [record] = await ledger.list();
        const attemptId = record?.attempts[0]?.attemptId;
        if (record === undefined || attemptId === undefined) {
          throw new Error('no record was written before dispatch');
        }
        await ledger.transition(record.id, record.revision, {
          type: 'unknown',
          attemptId,
          reason: 'crashed-while-executing',
        });
      },
      'stale-revision',
    ],
  ];

  it.each(['file', 'memory'] as const)('%s', async (kind) => {
    for (const [name, interfere, reason] of interferences) {
      const path = join(directory, `refused-write-${kind}-${name.length}.jsonl`);
      const open = () => (kind === 'file' ? openLedger({ name: path }) : openMemoryLedger({ name: path }));
      const ledger = await open();
      peer.answer = async (call) => {
        if (call.operation.includes('essage')) {
          await interfere(ledger);
        }
        return undefined;
      };
      try {
        const agent = durableAgent({ client: await peer.client('JSONRPC'), ledger });
        const outcome = await agent.send({ role: 'ROLE_USER', parts: [{ text: name }] });
        expect(outcome.status, name).toBe('unknown');
        expect(outcome.error, name).toBeInstanceOf(LedgerError);
        expect((outcome.error as LedgerError).reason, name).toBe(reason);
        // The peer answered: what it said travels with the outcome, though the store never recorded it.
        expect(outcome.answer !== undefined && 'task' in outcome.answer, name).toBe(true);
        expect(outcome.record.state.status, name).toBe('executing');
      } finally {
        peer.answer = undefined;
        await ledger.close();
      }
      if (kind === 'file' && reason === 'closed') {
        // The next writable open turns the record unknown, for a reconcile pass to resolve by evidence.
        const reopened = await open();
        const [record] = await reopened.list();
        expect(record?.state).toMatchObject({ status: 'unknown', reason: 'crashed-while-executing' });
        await reopened.close();
      }
    }
  });
});

// docs/protocol-checks.md#token-provider: anything but a token is an authorization error before dispatch, so
// the send is known not started.
describe('a token provider without a token', () => {
  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['an empty string', ''],
    ['a token with a line break', 'abc\r\nx-injected: 1'],
    ['a token with a space', 'abc def'],
    ['a number', 7],
  ])(
    'answering %s: the durable send failed, not started, and nothing reached the peer',
    async (_name, given) => {
      const before = peer.hits.get('SendMessage') ?? 0;
      const ledger = await openMemoryLedger({ name: 'tokens' });
      try {
        const client = await peer.client('JSONRPC', {
          security: { kind: 'bearer', scheme: 'bearer', token: async () => given as string },
        });
        const agent = durableAgent({ client, ledger });
        const outcome = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'no token' }] });
        expect(outcome.status).toBe('failed');
        expect(outcome.record.state).toMatchObject({
          status: 'failed',
          effect: 'not-started',
          cause: { kind: 'authorization', reason: 'unavailable', dispatched: false },
        });
        expect(peer.hits.get('SendMessage') ?? 0).toBe(before);
      } finally {
        await ledger.close();
      }
    },
  );
});
