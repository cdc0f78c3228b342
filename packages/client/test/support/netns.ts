/**
@module
Network namespaces for the partition tests (`test/durable/fleet-partition.test.ts`): each is a namespace of
its own with two veth pairs to this one, on addresses of 10.0.0.0/8 this module picks and owns, one for the
path to PostgreSQL and one for the path to the mock agent, so the test can cut the first alone (a blackhole
route on either side, so every packet is dropped both ways, as in a partition: nothing is refused, nothing
arrives) and heal it. A process runs
inside with `ip netns exec`; the mock agent is reached at the same `127.0.0.1:<port>` as from here, through a
relay process in the namespace (`test/support/loopback-relay.ts`) and a forwarder in this process, so its card
URL, its Host check and the client's loopback rule (`loopback: true`) hold there unchanged.

It needs root and `ip` (iproute2): {@link requireNetworkNamespaces} throws naming what is missing, so a
machine without them fails the test loudly rather than skipping it (CI runs as root). Namespaces are named
`surecall-<pid>-<n>`; {@link removeStale} deletes those of processes that are gone, so a run that was killed
leaves nothing behind for long.
*/
import { execFile, spawn } from 'node:child_process';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A namespace with its two paths, ready for a process. */
export type Namespace = {
  readonly name: string;
  /** This namespace's end of the PostgreSQL path's veth pair: where PostgreSQL must listen. */
  readonly postgresHost: string;
  /** The `ip netns exec` prefix that runs a command inside. */
  readonly exec: readonly string[];
  /** Drops every packet of the PostgreSQL path, both ways. */
  cut(): Promise<void>;
  /** Lets them through again; nothing when they pass already. */
  heal(): Promise<void>;
  /**
  Forwards `127.0.0.1:<port>` inside to the same port here, through `relay` (the compiled relay script).
  */
  forward(port: number, relay: string): Promise<() => Promise<void>>;
  /** Deletes the namespace, its veth pairs with it. */
  remove(): Promise<void>;
};

const prefix = 'surecall-';

async function ip(...args: string[]): Promise<void> {
  await run('ip', args);
}

/** Throws an error naming what the partition tests need and this machine lacks. */
export async function requireNetworkNamespaces(): Promise<void> {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) {
    missing.push('root (network namespaces and veth pairs need CAP_NET_ADMIN; CI runs as root)');
  }
  await run('ip', ['-V']).catch(() => missing.push('`ip` (iproute2: apt-get install iproute2)'));
  if (missing.length > 0) {
    throw new Error(`the partition tests need ${missing.join(', ')}; this machine lacks it`);
  }
}

/** Deletes the `surecall-<pid>-*` namespaces whose process is gone. */
export async function removeStale(): Promise<void> {
  const { stdout } = await run('ip', ['netns', 'list']);
  for (const [, name, pid] of stdout.matchAll(/^(surecall-(\d+)-\d+)/gm)) {
    let alive = true;
    try {
      process.kill(Number(pid), 0);
    } catch {
      alive = false;
    }
    if (!alive && name !== undefined) {
      await ip('netns', 'del', name).catch(() => undefined);
    }
  }
}

/** Pipes every connection to `server` on to `port` of 127.0.0.1 here. */
function forwarder(port: number): Server {
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = connect(port, '127.0.0.1');
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
    inbound.pipe(outbound).pipe(inbound);
  });
  server.on('close', () => {
    for (const socket of sockets) {
      socket.destroy();
    }
  });
  return server;
}

/**
Makes namespace `index` of this process: `10.<a>.<4·index>.0/30` for the PostgreSQL path and the /30 after it
for the agent's, `<a>` from this process's pid so two runs at once never share an address.
*/
export async function createNamespace(index: number): Promise<Namespace> {
  const name = `${prefix}${process.pid}-${index}`;
  const octet = 100 + (process.pid % 100);
  const tag = `sc${process.pid % 100_000}${index}`;
  const paths = ['p', 'a'].map((kind, offset) => ({
    host: `${tag}${kind}h`,
    inner: `${tag}${kind}n`,
    hostAddress: `10.${octet}.${4 * index + offset}.1`,
    innerAddress: `10.${octet}.${4 * index + offset}.2`,
  }));
  const [postgres, agent] = paths as [(typeof paths)[0], (typeof paths)[0]];
  await ip('netns', 'add', name);
  try {
    await ip('-n', name, 'link', 'set', 'lo', 'up');
    for (const path of paths) {
      await ip('link', 'add', path.host, 'type', 'veth', 'peer', 'name', path.inner, 'netns', name);
      await ip('addr', 'add', `${path.hostAddress}/30`, 'dev', path.host);
      await ip('link', 'set', path.host, 'up');
      await ip('-n', name, 'addr', 'add', `${path.innerAddress}/30`, 'dev', path.inner);
      await ip('-n', name, 'link', 'set', path.inner, 'up');
    }
  } catch (error) {
    await ip('netns', 'del', name).catch(() => undefined);
    throw error;
  }
  // A /32 blackhole beats the connected /30: established connections keep their sockets and retransmit into
  // it, as across a partition, until the route goes.
  let cut = false;
  const blackhole = async (verb: 'add' | 'del') => {
    if (cut === (verb === 'add')) {
      return;
    }
    cut = verb === 'add';
    await ip('route', verb, 'blackhole', `${postgres.innerAddress}/32`);
    await ip('-n', name, 'route', verb, 'blackhole', `${postgres.hostAddress}/32`);
  };
  return {
    name,
    postgresHost: postgres.hostAddress,
    exec: ['ip', 'netns', 'exec', name],
    cut: () => blackhole('add'),
    heal: () => blackhole('del'),
    async forward(port, relay) {
      const server = forwarder(port);
      server.listen(0, agent.hostAddress);
      await new Promise((resolve) => server.once('listening', resolve));
      const through = (server.address() as AddressInfo).port;
      const child = spawn(
        'ip',
        ['netns', 'exec', name, process.execPath, relay, String(port), agent.hostAddress, String(through)],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((resolve, reject) => {
        child.stdout?.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`the relay in ${name} exited (${code})`)));
      });
      return async () => {
        child.kill('SIGKILL');
        await new Promise((resolve) => server.close(resolve));
      };
    },
    remove: () => ip('netns', 'del', name),
  };
}
