import { type LedgerRecord, openLedger, statusOf } from '@surecall/client/ledger/memory';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adviceOf, type NextStep, reconcileCommand, shellWord } from './advice.js';
import type { ConnectArgs } from './args.js';

const card = 'http://127.0.0.1:4100/.well-known/agent-card.json';
const connect: ConnectArgs = {
  cardUrl: card,
  loopback: true,
  binding: undefined,
  pins: [],
  digest: undefined,
  tokenEnv: 'AGENT_TOKEN',
  tokenStdin: false,
  scheme: undefined,
  protocolVersions: undefined,
};
const writer: NextStep = { ledger: 'sends.jsonl', connect, maxProbes: 10 };
const reader: NextStep = { ledger: 'sends.jsonl', maxProbes: 10 };
const now = Date.UTC(2026, 0, 2, 3, 4, 5);
const cause = { name: 'TransportError', kind: 'transport', reason: 'network', dispatched: true };

/** A real record of the memory store, moved through `steps` from executing. */
async function recordAfter(
  steps: readonly ('unknown' | 'pending' | 'no-evidence' | 'no-list-tasks' | 'conflicting' | 'duplicate')[],
): Promise<LedgerRecord> {
  const ledger = await openLedger({ name: 'advice' });
  let record = await ledger.create({
    id: 'r-1',
    tenant: 'default',
    run: 'default',
    agent: { cardDigest: `sha256:${'c'.repeat(64)}`, binding: 'JSONRPC', url: 'http://127.0.0.1:4100/a2a' },
    message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'task book it' }] },
    delivery: 'at-most-once',
  });
  const attemptId = 'a-1';
  record = await ledger.transition('r-1', record.revision, { type: 'start', attemptId, messageId: 'm-1' });
  for (const step of steps) {
    record = await ledger.transition(
      'r-1',
      record.revision,
      step === 'unknown'
        ? { type: 'unknown', attemptId, cause, reason: 'ambiguous-outcome' }
        : step === 'pending'
          ? { type: 'pending', attemptId, notBefore: now + 30_000 }
          : step === 'duplicate'
            ? { type: 'duplicate', attemptId, taskIds: ['t-1', 't-2'] }
            : {
                type: 'unresolved',
                attemptId,
                reason: step === 'conflicting' ? 'conflicting-evidence' : step,
                ...(step === 'conflicting'
                  ? {
                      cause: {
                        name: 'InvalidResponseError',
                        kind: 'invalid-response',
                        reason: 'schema',
                        dispatched: true,
                        violation: { rule: 'history-altered' },
                      },
                    }
                  : {}),
              },
    );
  }
  await ledger.close();
  return record;
}

describe('adviceOf', () => {
  // The records' times, and so the printed probe time, are the fake clock's.
  beforeEach(() => {
    vi.useFakeTimers({ now });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    [
      'an unknown send names the reconcile command with the flags it was sent with',
      ['unknown'],
      writer,
      `it may have run, so never resend it; reconcile it: surecall sends reconcile r-1 --ledger sends.jsonl --card ${card} --loopback --token-env AGENT_TOKEN`,
    ],
    [
      'a reader, which knows no card, leaves --card to fill in and keeps --loopback for an http: agent',
      ['unknown'],
      reader,
      'it may have run, so never resend it; reconcile it: surecall sends reconcile r-1 --ledger sends.jsonl --card <card-url> --loopback',
    ],
    [
      'a pending send names the time and the number of its next probe',
      ['unknown', 'pending'],
      writer,
      `no evidence yet after 1 probe; probe 2 of at most 10 is due at 2026-01-02T03:04:35.000Z (in 30 s): surecall sends reconcile --ledger sends.jsonl --card ${card} --loopback --token-env AGENT_TOKEN`,
    ],
    [
      'an unresolved send says it ran out of probes',
      ['unknown', 'pending', 'no-evidence'],
      writer,
      'no evidence after every probe allowed: the agent shows no task with the message (the last probe: transport network): a person decides; it is never resent on its own (reason no-evidence)',
    ],
    [
      'an unresolved send to a v0.3 agent says no scan can run',
      ['unknown', 'no-list-tasks'],
      reader,
      'the agent speaks v0.3, which has no ListTasks: no scan can show whether the message ran (the last probe: transport network): a person decides; it is never resent on its own (reason no-list-tasks)',
    ],
    [
      'an unresolved send says which evidence contradicted itself, by the rule the library kept',
      ['unknown', 'conflicting'],
      reader,
      'the evidence contradicts itself (the last probe: invalid-response schema, rule history-altered): a person decides; it is never resent on its own (reason conflicting-evidence)',
    ],
    [
      'a duplicated send names its tasks',
      ['unknown', 'duplicate'],
      reader,
      'the message is in 2 tasks (t-1, t-2): the agent ran it more than once; a person decides which stands',
    ],
  ] as const)('%s', async (_, steps, next, expected) => {
    const record = await recordAfter(steps);
    expect(adviceOf(record, statusOf(record), next, now)).toBe(expected);
  });

  it('counts the wait to the next probe from the time it is printed', async () => {
    const record = await recordAfter(['unknown', 'pending']);
    expect(adviceOf(record, 'pending', writer, now + 29_500)).toContain('(in 1 s)');
    expect(adviceOf(record, 'pending', writer, now + 60_000)).toContain('(in 0 s)');
  });
});

describe('reconcileCommand', () => {
  it.each([
    ['a plain word as it is', 'sends.jsonl', 'sends.jsonl'],
    ['a space quoted', 'my sends.jsonl', `'my sends.jsonl'`],
    ['a quote closed and escaped', "it's.jsonl", `'it'\\''s.jsonl'`],
    ['a dollar quoted', '$HOME/x', `'$HOME/x'`],
  ])('shellWord: %s', (_, word, expected) => {
    expect(shellWord(word)).toBe(expected);
  });

  it('never prints a postgres:// ledger, whose URL may hold a password', () => {
    const command = reconcileCommand({ ledger: 'postgres://app:s3cret@db/ledger', connect, maxProbes: 10 });
    expect(command).toBe(
      `surecall sends reconcile --ledger "$DATABASE_URL" --card ${card} --loopback --token-env AGENT_TOKEN`,
    );
    expect(command).not.toContain('s3cret');
  });

  it('prints a peer-chosen id as terminal text, one shell word', () => {
    expect(reconcileCommand(reader, 'a b\u001b[2J')).toBe(
      "surecall sends reconcile 'a b\\x1b[2J' --ledger sends.jsonl --card <card-url>",
    );
  });
});
