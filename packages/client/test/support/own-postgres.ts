/**
@module
A PostgreSQL server of one partition test's own (`test/durable/fleet-partition.test.ts`): its own data
directory, port and addresses, so the test may restart it, and cut the workers of its network namespaces off
it, without the suites beside it seeing anything. It listens on 127.0.0.1 and on the namespaces' PostgreSQL
paths (`test/support/netns.ts`), and trusts only those; run as root, the server runs as the `postgres` user,
since PostgreSQL refuses to run as root (as `scripts/postgres.sh` does). `initdb` and `pg_ctl` come from PATH,
else the newest `/usr/lib/postgresql/<major>/bin`.
*/
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A running server of the test's own. */
export type OwnPostgres = {
  /** The connection string for `host` (127.0.0.1 unless given). */
  url(host?: string): string;
  /** `pg_ctl restart -m fast`: every connection is terminated, the server is back on the same port. */
  restart(): Promise<void>;
  /** What the server logged so far. */
  log(): Promise<string>;
  /** Stops the server at once and deletes its folder. */
  stop(): Promise<void>;
};

/** The folder of `initdb` and `pg_ctl`, or an error saying PostgreSQL is missing. */
async function binaries(): Promise<string> {
  const onPath = await run('sh', ['-c', 'command -v pg_ctl']).then(
    ({ stdout }) => stdout.trim(),
    () => '',
  );
  if (onPath !== '') {
    const { stdout } = await run('readlink', ['-f', onPath]);
    return join(stdout.trim(), '..');
  }
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = majors
    .map((major) => join(root, major, 'bin'))
    .find((bin) => existsSync(join(bin, 'pg_ctl')));
  if (found === undefined) {
    throw new Error('PostgreSQL is missing: run `bash scripts/postgres.sh ensure` (it installs it)');
  }
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Where the server lives and who may reach it. */
export type OwnPostgresOptions = {
  /** Addresses it listens on besides 127.0.0.1. */
  readonly hosts: readonly string[];
  /** The CIDR block it trusts besides 127.0.0.1. */
  readonly trusted: string;
  /** The folder its data directory goes in (a tmpfs the test mounted, to fill); a temporary one otherwise. */
  readonly dataIn?: string;
};

/** Starts a server on a free port; its write-ahead log stays in its temporary folder, on the disk. */
export async function startOwnPostgres(options: OwnPostgresOptions): Promise<OwnPostgres> {
  const { hosts, trusted } = options;
  const bin = await binaries();
  const root = process.getuid?.() === 0;
  const user = root ? 'postgres' : userInfo().username;
  const owner = (command: string, args: readonly string[]) =>
    root ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, [...args]);
  const directory = await mkdtemp(join(tmpdir(), 'surecall-partition-pg-'));
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    for (const folder of [directory, options.dataIn ?? directory]) {
      await chown(folder, Number(stdout.trim()), Number(stdout.trim()));
    }
  }
  const data = join(options.dataIn ?? directory, 'data');
  const port = await freePort();
  const ctl = (...args: string[]) =>
    owner(join(bin, 'pg_ctl'), ['-D', data, '-l', join(directory, 'server.log'), '-w', '-t', '60', ...args]);
  try {
    await owner(join(bin, 'initdb'), [
      '-D',
      data,
      '--waldir',
      join(directory, 'wal'),
      '-U',
      user,
      '--auth=trust',
      '--encoding=UTF8',
      '--no-locale',
    ]);
    await appendFile(join(data, 'pg_hba.conf'), `host all all ${trusted} trust\n`);
    const listen = ['127.0.0.1', ...hosts].join(',');
    await ctl(
      '-o',
      `-c listen_addresses=${listen} -p ${port} -k ${directory} -c max_connections=100`,
      'start',
    );
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    url: (host = '127.0.0.1') => `postgres://${user}@${host}:${port}/postgres`,
    // The options it was started with stay in postmaster.opts, which restart reuses.
    restart: async () => {
      await ctl('-m', 'fast', 'restart');
    },
    log: () => readFile(join(directory, 'server.log'), 'utf8'),
    stop: async () => {
      await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
      await rm(data, { recursive: true, force: true });
    },
  };
}
