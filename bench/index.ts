/**
`npm run bench`: prints one table and writes `bench-results.json` at the repository root. Each suite returns
rows measured side by side with their anchors (bench/harness.ts).
*/
import { writeFileSync } from 'node:fs';
import type { BenchRow } from './harness.js';

type Suite = { readonly name: string; readonly run: () => Promise<readonly BenchRow[]> };

const suites: readonly Suite[] = [
  { name: 'sse', run: async () => (await import('./sse.js')).run() },
  { name: 'json', run: async () => (await import('./json.js')).run() },
  { name: 'schema', run: async () => (await import('./schema.js')).run() },
  { name: 'client', run: async () => (await import('./client.js')).run() },
  { name: 'grpc', run: async () => (await import('./grpc.js')).run() },
  { name: 'ledger', run: async () => (await import('./ledger.js')).run() },
  { name: 'durable', run: async () => (await import('./durable.js')).run() },
  { name: 'postgres', run: async () => (await import('./postgres.js')).run() },
];

const only = process.argv.slice(2);
const rows: BenchRow[] = [];
for (const suite of suites) {
  if (only.length > 0 && !only.includes(suite.name)) {
    continue;
  }
  rows.push(...(await suite.run()));
}

console.table(
  rows.map((r) => ({
    name: r.name,
    unit: r.unit,
    ours: r.value,
    anchor: r.anchor,
    anchorValue: r.anchorValue,
    ratio: r.ratio,
    goal: r.goal,
    met: r.met ? 'yes' : 'NO',
  })),
);
const results = rows.map(({ name, unit, value, anchor, anchorValue, ratio }) => ({
  name,
  unit,
  value,
  anchor,
  anchorValue,
  ratio,
}));
writeFileSync(new URL('../bench-results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
