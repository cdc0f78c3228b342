/**
@module
The vitest global setup of the `client (postgres)` project: a real PostgreSQL for the fleet ledger's tests
(docs/durable-send.md#postgresql). It starts a throwaway cluster with `scripts/postgres.sh` (loopback only,
deleted afterwards) unless `SURECALL_PG_URL` names a server to use instead, and provides its URL to the tests
as `postgresUrl`.
*/
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const script = fileURLToPath(new URL('../../../../scripts/postgres.sh', import.meta.url));
const run = promisify(execFile);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { SURECALL_PG_URL: given } = process.env;
  if (given !== undefined && given !== '') {
    project.provide('postgresUrl', given);
    return async () => undefined;
  }
  const { stdout } = await run('bash', [script, 'start'], { timeout: 600_000 });
  const url = stdout.trim().split('\n').at(-1) ?? '';
  if (!url.startsWith('postgres://')) {
    throw new Error('scripts/postgres.sh start printed no URL');
  }
  project.provide('postgresUrl', url);
  return async () => {
    await run('bash', [script, 'stop', url], { timeout: 120_000 });
  };
}
