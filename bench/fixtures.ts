/**
Deterministic payloads for `npm run bench`: every run, on every machine, measures the same bytes.
*/
import type { SendIntent } from '../packages/client/src/ledger/ledger.js';

const taskCount = 100;
const historyPerTask = 20;
// Sized so the page lands just under the 2 MiB default response ceiling (limits.ts `responseBodyBytes`): a
// benchmark page the client would refuse measures nothing.
const wordsPerText = 102;

const words = [
  'agent',
  'task',
  'context',
  'artifact',
  'ledger',
  'evidence',
  'summary',
  'invoice',
  'shipment',
  'review',
  'the',
  'a',
  'of',
  'and',
  'to',
  'with',
  'report',
  'quarter',
  'budget',
  'draft',
  'approved',
  'pending',
  'customer',
  'order',
  'delivery',
  'café',
  'naïve',
  'Zürich',
  '東京',
  'résumé',
  '—',
  '✓',
  '"quoted"',
  'line\nbreak',
  'tab\there',
];

/** A small seeded PRNG (mulberry32): the same seed yields the same page, with no `Math.random`. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) {
    throw new Error('pick from an empty list');
  }
  return item;
}

function uuid(random: () => number): string {
  let hex = '';
  for (let index = 0; index < 32; index++) {
    hex += Math.floor(random() * 16).toString(16);
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

function text(random: () => number): string {
  const parts: string[] = [];
  for (let index = 0; index < wordsPerText; index++) {
    parts.push(pick(random, words));
  }
  return parts.join(' ');
}

function message(random: () => number, ids: { contextId: string; taskId: string }, index: number): unknown {
  const parts: unknown[] = [{ text: text(random) }];
  if (index % 7 === 3) {
    parts.push({
      data: { amount: Math.floor(random() * 1_000_000), rate: Math.round(random() * 10_000) / 100, ok: true },
      mediaType: 'application/json',
    });
  }
  return {
    messageId: uuid(random),
    contextId: ids.contextId,
    taskId: ids.taskId,
    // A2A spec, §3.1: ROLE_USER is client to server, ROLE_AGENT server to client; a conversation alternates.
    role: index % 2 === 0 ? 'ROLE_USER' : 'ROLE_AGENT',
    parts,
  };
}

function task(random: () => number, timestamp: string): unknown {
  const ids = { contextId: uuid(random), taskId: uuid(random) };
  const history: unknown[] = [];
  for (let index = 0; index < historyPerTask; index++) {
    history.push(message(random, ids, index));
  }
  const artifacts: unknown[] = [];
  const artifactCount = random() < 0.5 ? 1 : 2;
  for (let index = 0; index < artifactCount; index++) {
    artifacts.push({ artifactId: uuid(random), name: `result-${index}`, parts: [{ text: text(random) }] });
  }
  return {
    id: ids.taskId,
    contextId: ids.contextId,
    status: {
      state: 'TASK_STATE_COMPLETED',
      timestamp,
      message: message(random, ids, 1),
    },
    history,
    artifacts,
  };
}

let cached: Uint8Array | undefined;

/**
A deterministic A2A v1.0 ProtoJSON `ListTasksResponse` page of just under 2 MiB: 100 completed tasks (the A2A
maximum page), each with 20 history messages and one or two artifacts. The bytes are built once and cached;
callers must not modify them.

@example
```ts
const bytes = listTasksPage();
JSON.parse(new TextDecoder().decode(bytes)).tasks.length; // 100
```
*/
export function listTasksPage(): Uint8Array {
  if (cached !== undefined) {
    return cached;
  }
  const random = prng(0x5eca11);
  const newest = Date.UTC(2026, 0, 15, 12, 0, 0);
  const tasks: unknown[] = [];
  for (let index = 0; index < taskCount; index++) {
    // A2A spec, §3.5: a ListTasks page is sorted by status timestamp, newest first.
    const timestamp = new Date(newest - index * 61_000).toISOString();
    tasks.push(task(random, timestamp));
  }
  const page = { tasks, nextPageToken: uuid(random), pageSize: taskCount, totalSize: 1_234 };
  cached = new TextEncoder().encode(JSON.stringify(page));
  return cached;
}

/**
The intent every ledger row records (`bench/ledger.ts`, `bench/postgres.ts`): one short text to one agent,
at-most-once.
*/
export function intent(id: string): SendIntent {
  return {
    id,
    tenant: 'bench',
    run: 'ledger',
    agent: { cardDigest: `sha256:${'c'.repeat(64)}`, binding: 'JSONRPC', url: 'https://agent.example/a2a' },
    message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: 'book the 9:40 to Lyon' }] },
    delivery: 'at-most-once',
  };
}
