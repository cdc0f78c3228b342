/**
A peer that answers a remote skill with an object key of its choosing: the caller's bearer token (a plain
identifier, which nothing tells from a member name), line breaks, escape sequences, `.`, `[0]`, `__proto__`,
bidi controls, 10 kB of text, any string. The mock agent's `altered-data` fault puts
`{ "<key>": "not-a-number" }` in the skill's answer, over both bindings, for the direct reply skill `sum` and
the task skill `sum-task` (its artifact, read by `completion()`), against a zod and a valibot
`record<string, number>` output schema. Whatever the key, every path holds `$`, indexes and `[*]` only, and a
key holding the token leaves it nowhere: not in the issues, the error's message, stack, `String()`,
`JSON.stringify` or `util.inspect`, not in a client or durable event, not in the ledger's records or histories
(ARCHITECTURE.md#errors, `redact.violation-path`).
*/
import { inspect } from 'node:util';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { createMockAgentServer } from '@surecall/mocks/node';
import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createClient } from '../../src/client/client.js';
import type { ClientEvent } from '../../src/client/events.js';
import type { ProtocolBinding } from '../../src/client/security.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { durableAgent } from '../../src/durable/agent.js';
import { remoteSkill } from '../../src/durable/remote-skill.js';
import { openLedger } from '../../src/ledger/memory.js';
import type { AgentCard } from '../../src/protocol/agent-card.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonObject } from '../../src/protocol/json-value.js';
import { servedCard } from '../support/card.js';

const mock = createMockAgentServer({ stepMs: 0 });
let raw: JsonObject;
let card: AgentCard;
let digest: string;

beforeAll(async () => {
  mock.listen();
  raw = await servedCard(mock.cardUrl);
  card = parseAgentCard(raw);
  digest = await cardDigest(raw);
});
afterEach(() => mock.faults.clear());
afterAll(() => mock.close());

/**
The caller's token: a plain identifier, so a validator's path cannot tell it from a member the schema names.
*/
const token = 'sk_live_4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e';

/**
Pieces a peer may put in a key: terminal and log forgery, path syntax, prototype names, bidi controls, a lone
surrogate, 10 kB.
*/
const hostile = fc.constantFrom(
  '\n',
  '\r',
  '\r\n',
  '\u0000',
  '\u001b[31m',
  '\u001b]8;;https://evil.test\u0007',
  '.',
  '[0]',
  '[*]',
  '$',
  '"',
  '\\',
  '__proto__',
  'constructor',
  '\u202e',
  '\u2066',
  '\u200f',
  '\ud800',
  'x'.repeat(10_000),
);
const piece = fc.oneof(hostile, fc.string({ unit: 'binary', maxLength: 16 }));

/** Keys that hold the token, alone or among hostile text. */
const tokenKey = fc.oneof(
  fc.constant(token),
  fc
    .tuple(fc.array(piece, { maxLength: 3 }), fc.array(piece, { maxLength: 3 }))
    .map(([before, after]) => [...before, token, ...after].join('')),
);
/** Any key at all, mostly ones that hold the token: the paths must stay structural whatever it is. */
const anyKey = fc.oneof(
  { arbitrary: tokenKey, weight: 3 },
  { arbitrary: hostile, weight: 1 },
  { arbitrary: fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')), weight: 1 },
);

const outputs: readonly [string, StandardSchemaV1<unknown, Record<string, number>>][] = [
  ['zod', z.record(z.string(), z.number())],
  ['valibot', v.record(v.string(), v.number())],
];
const Sum = v.object({ a: v.number(), b: v.number() });

// A path into the skill's answer: `$`, then indexes and masked keys only.
const answerPath = /^\$(?:\[(?:\*|\d+)\])*$/;
// A path of the wire layer's refusal (a lone surrogate in the key): the protocol's own members may be named,
// plain identifiers.
const protocolPath = /^\$(?:\.[A-Za-z_$][A-Za-z0-9_$]{0,63}|\[(?:\*|\d+)\])*$/;
// What a log line must never hold: C0 and C1 controls, and the bidi marks and controls that reorder what a
// reader sees.
function unprintable(text: string): string[] {
  return [...text].filter((char) => {
    const code = char.codePointAt(0) ?? 0;
    return (
      code <= 0x1f ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x200e ||
      code === 0x200f ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    );
  });
}

function exposed(value: unknown): string {
  const parts = [inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true })];
  try {
    parts.push(JSON.stringify(value));
  } catch {
    // A value JSON cannot print shows through inspect.
  }
  if (value instanceof Error) {
    parts.push(value.message, String(value.stack), String(value));
  }
  return parts.join('\n');
}

/**
A client event as it may be shown: a stream frame's `event` is the answer itself, delivered to the caller as
`subscribeToTask` yields it (content, not text the package builds), so it is left out.
*/
function withoutContent(event: ClientEvent): unknown {
  if (event.type === 'stream-frame') {
    const { event: _content, ...rest } = event;
    return rest;
  }
  return event;
}

type Issues = readonly { readonly path: string }[] | undefined;

/**
One call of the skill while the agent's answers hold `{ [key]: 'not-a-number' }`: what it ended with, every
path the package built, and everything it built to be shown.
*/
async function callOnce(
  binding: Exclude<ProtocolBinding, 'GRPC'>,
  skill: 'sum' | 'sum-task',
  output: StandardSchemaV1<unknown, Record<string, number>>,
  key: string,
) {
  const url = card.supportedInterfaces.find((entry) => entry.protocolBinding === binding)?.url ?? '';
  const client = createClient({
    card,
    cardDigest: digest,
    pin: { binding, url },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => token },
    // The largest key the wire layer takes, so that a 10 kB key reaches the validator rather than the key
    // bound.
    limits: { jsonKeyBytes: 64 * 1024 },
  });
  const ledger = await openLedger({ name: `skill-keys-${crypto.randomUUID()}` });
  const agent = durableAgent({
    client,
    ledger,
    delivery: 'at-most-once',
    recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 100, maxProbes: 2 },
  });
  const clientEvents: unknown[] = [];
  const durableEvents: unknown[] = [];
  client.events.subscribe((event) => clientEvents.push(withoutContent(event)));
  agent.events.subscribe((event) => durableEvents.push(event));
  // Every answer of the agent says so: the direct reply, and the task's artifact however it is read (GetTask,
  // the subscription).
  mock.faults.set({
    kind: 'altered-data',
    operation: '*',
    binding,
    count: 1_000,
    data: { [key]: 'not-a-number' },
  });
  const seen: unknown[] = [];
  const paths: { readonly rule: string; readonly path: string }[] = [];
  const errors: unknown[] = [];
  const collect = (issues: Issues, error: unknown) => {
    for (const issue of issues ?? []) {
      paths.push({ rule: 'issue', path: issue.path });
    }
    const violation = (error as { violation?: { rule: string; path?: string } } | undefined)?.violation;
    if (violation?.path !== undefined) {
      paths.push({ rule: violation.rule, path: violation.path });
    }
    if (error !== undefined) {
      errors.push(error);
    }
  };
  try {
    const outcome = await remoteSkill({ agent, skill, input: Sum, output })({ a: 1, b: 2 });
    seen.push(outcome);
    if (outcome.status === 'failed') {
      collect(outcome.issues, outcome.error);
    } else if (outcome.status === 'unknown') {
      // The wire layer refused the answer (a lone surrogate, a key past its bound): the send may have run.
      collect(undefined, outcome.error);
    } else if (outcome.task !== undefined) {
      try {
        const done = await outcome.task.completion({ pollIntervalMs: 1, maxPolls: 1_000 });
        // `done.task` is the peer's task as GetTask answered it, the content the caller asked for; the rest
        // is what the package built.
        const { task: _task, ...built } = done;
        seen.push(built);
        if (done.status === 'invalid') {
          collect(done.issues, done.error);
        }
      } catch (error) {
        // GetTask's answer refused by the wire layer.
        collect(undefined, error);
      }
    }
    const records = await ledger.list();
    seen.push(...errors, clientEvents, durableEvents, records);
    for (const record of records) {
      seen.push(await ledger.history(record.id));
    }
    return { outcome, paths, errors, seen };
  } finally {
    await ledger.close();
    mock.faults.clear();
  }
}

function expectStructural(paths: readonly { readonly rule: string; readonly path: string }[]): void {
  for (const { rule, path } of paths) {
    expect(path).toMatch(rule === 'issue' || rule === 'skill-output' ? answerPath : protocolPath);
  }
}

function expectPrintable(errors: readonly unknown[]): void {
  for (const error of errors) {
    expect(error).toBeInstanceOf(Error);
    expect(unprintable((error as Error).message)).toEqual([]);
    expect(unprintable(String(error))).toEqual([]);
  }
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)(
  'a peer choosing the keys of a remote skill’s answer over %s',
  (binding) => {
    describe.each(['sum', 'sum-task'] as const)('skill %s', (skill) => {
      it.each(outputs)(
        '%s record<string, number> output: no key reaches a path, a message, an event or the ledger (property)',
        async (_, output) => {
          await fc.assert(
            fc.asyncProperty(anyKey, async (key) => {
              const { paths, errors, seen } = await callOnce(binding, skill, output, key);
              expectStructural(paths);
              expectPrintable(errors);
              if (key.includes(token)) {
                for (const value of seen) {
                  expect(exposed(value)).not.toContain(token);
                }
              }
            }),
            { numRuns: 25 },
          );
        },
      );

      it.each(outputs)(
        '%s record<string, number> output: the token as a key is refused at $[*]',
        async (_, output) => {
          const { outcome, paths, errors, seen } = await callOnce(binding, skill, output, token);
          expect(paths).toEqual([
            { rule: 'issue', path: '$[*]' },
            { rule: 'skill-output', path: '$[*]' },
          ]);
          expect(outcome.status).toBe(skill === 'sum' ? 'failed' : 'committed');
          expect(errors).toHaveLength(1);
          expect((errors[0] as Error).message).toContain(
            'invalid-response (schema): $[*] breaks rule skill-output',
          );
          for (const value of seen) {
            expect(exposed(value)).not.toContain(token);
          }
        },
      );
    });
  },
);
