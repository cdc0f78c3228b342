import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient, fetchAgentCard } from '@surecall/client';
import { grpcBinding } from '@surecall/client/grpc';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];

function start(...args: string[]) {
  return startWith({}, ...args);
}

function startWith(env: Record<string, string>, ...args: string[]) {
  const child = spawn(
    process.execPath,
    ['--conditions=@surecall/source', '--import', 'tsx', 'mocks/src/mounts/cli.ts', ...args],
    { cwd: root, stdio: 'pipe', env: { ...process.env, SURECALL_MOCK_TOKEN: '', ...env } },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const ready = new Promise<number>((resolve, reject) => {
    const check = () => {
      const match = /^READY (\d+) token=[A-Za-z0-9_-]{32,}\n/.exec(stdout);
      if (match?.[1] !== undefined) {
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => reject(new Error(`exited before READY: ${stderr}`)));
  });
  // A refused start never becomes ready; only the tests that wait for READY observe that.
  ready.catch(() => undefined);
  const token = () => /^READY \d+ token=([A-Za-z0-9_-]+)\n/.exec(stdout)?.[1] ?? '';
  return { child, ready, exited, token, output: () => ({ stdout, stderr }) };
}

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
    }
  }
});

// Each case starts a fresh `node --import tsx` process, which takes most of a second on a busy machine.
describe('npm run mock-agent', { timeout: 20_000 }, () => {
  it('prints exactly READY <port> token=<token>, serves the card there, and exits 0 on SIGTERM', async () => {
    const agent = start('--port', '0');
    const port = await agent.ready;
    const token = agent.token();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const faults = `http://127.0.0.1:${port}/__faults`;
    expect((await fetch(faults)).status).toBe(401);
    expect((await fetch(faults, { headers: { 'x-surecall-mock-token': token } })).status).toBe(200);
    const card = (await (await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: { url: string }[];
    };
    expect(card.supportedInterfaces.map((entry) => entry.url)).toContain(
      `http://127.0.0.1:${port}/a2a/jsonrpc`,
    );
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toEqual([0, null]);
    expect(agent.output()).toEqual({ stdout: `READY ${port} token=${token}\n`, stderr: '' });
  });

  it('takes its token from SURECALL_MOCK_TOKEN, and trusts each --cors-origin beside loopback', async () => {
    const token = 'e2e-token-0123456789-0123456789-abcdef';
    const agent = startWith(
      { SURECALL_MOCK_TOKEN: token },
      '--port',
      '0',
      '--cors-origin',
      'https://devtools.example',
      '--cors-origin',
      'https://other.example:8443',
    );
    const port = await agent.ready;
    expect(agent.token()).toBe(token);
    const card = `http://127.0.0.1:${port}/.well-known/agent-card.json`;
    for (const origin of [
      'https://devtools.example',
      'https://other.example:8443',
      'http://localhost:5173',
    ]) {
      const response = await fetch(card, { headers: { origin } });
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const evil = await fetch(card, { headers: { origin: 'https://evil.example' } });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toEqual([0, null]);
  });

  it('refuses to start with a malformed SURECALL_MOCK_TOKEN, exit code 1', async () => {
    const agent = startWith({ SURECALL_MOCK_TOKEN: 'too short' }, '--port', '0');
    expect(await agent.exited).toEqual([1, null]);
    expect(agent.output().stdout).toBe('');
    expect(agent.output().stderr).toContain('token');
  });

  it('with --banner, prints the card URL and example calls after READY, and exits 0 on SIGINT', async () => {
    const agent = start(
      '--port',
      '0',
      '--mode',
      'refusing',
      '--tenant-required',
      '--step-ms',
      '5',
      '--banner',
    );
    const port = await agent.ready;
    await expect.poll(() => agent.output().stdout).toContain('curl');
    const { stdout } = agent.output();
    const token = agent.token();
    expect(stdout.startsWith(`READY ${port} token=${token}\n`)).toBe(true);
    expect(stdout).toContain(`#mock-token=${token}`);
    expect(stdout).toContain(`-H 'x-surecall-mock-token: ${token}'`);
    expect(stdout).toContain(`http://127.0.0.1:${port}/.well-known/agent-card.json`);
    expect(stdout).toContain(`http://127.0.0.1:${port}/a2a/jsonrpc`);
    expect(stdout).toContain(`http://127.0.0.1:${port}/a2a/rest/message:send`);
    agent.child.kill('SIGINT');
    expect(await agent.exited).toEqual([0, null]);
  });

  it('with --grpc-port, serves gRPC too: a GRPC line after READY, the interface in the card and the banner', async () => {
    const agent = start('--port', '0', '--grpc-port', '0', '--banner');
    const port = await agent.ready;
    await expect.poll(() => agent.output().stdout).toContain('curl');
    const { stdout } = agent.output();
    const grpcPort = /^READY \d+ token=[A-Za-z0-9_-]+\nGRPC (\d+)\n/.exec(stdout)?.[1];
    expect(grpcPort).toMatch(/^\d+$/);
    const grpcUrl = `http://127.0.0.1:${grpcPort ?? ''}`;
    expect(stdout).toContain(`  GRPC        ${grpcUrl}`);
    const card = (await (await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: { url: string; protocolBinding: string }[];
    };
    expect(card.supportedInterfaces.at(-1)).toMatchObject({ url: grpcUrl, protocolBinding: 'GRPC' });
    const { card: parsed, digest } = await fetchAgentCard({
      cardUrl: `http://127.0.0.1:${port}/.well-known/agent-card.json`,
      loopback: true,
    });
    const client = createClient({
      card: parsed,
      cardDigest: digest,
      grpc: grpcBinding,
      pin: { binding: 'GRPC', url: grpcUrl },
      security: { kind: 'anonymous' },
    });
    const answer = await client.sendMessage({
      message: { messageId: 'cli-grpc', role: 'ROLE_USER', parts: [{ text: 'echo over grpc' }] },
    });
    expect(answer).toMatchObject({ message: { role: 'ROLE_AGENT' } });
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toEqual([0, null]);
  });

  it('with --extended-card-scope, serves the extended card only to a token that grants the scope, as its command section in mocks/README.md says', async () => {
    // The README's own example, read from its paragraph: the flag's value and the two tokens it names.
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const paragraph = readme.slice(readme.indexOf('`--extended-card-scope` keeps'));
    const [, scope = '', granted = '', refused = ''] =
      /with `--extended-card-scope (\S+)`, the token\s+`(\S+)` reads the extended card and `(\S+)` is refused/.exec(
        paragraph,
      ) ?? [];
    expect([scope, granted, refused]).toEqual(['card.extended', 'mock+card.extended', 'mock+tasks.read']);
    const agent = start('--port', '0', '--extended-card-scope', scope);
    const origin = `http://127.0.0.1:${await agent.ready}`;
    const rpc = async (token: string) =>
      (await (
        await fetch(`${origin}/a2a/jsonrpc`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'a2a-version': '1.0',
            authorization: `Bearer ${token}`,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} }),
        })
      ).json()) as { result?: { provider?: unknown }; error?: { message: string } };
    expect((await rpc(granted)).result?.provider).toEqual({ organization: 'surecall', url: origin });
    expect((await rpc(refused)).error?.message).toContain(`grants the scope ${scope}`);
    const rest = (token: string) =>
      fetch(`${origin}/a2a/rest/extendedAgentCard`, {
        headers: { 'a2a-version': '1.0', authorization: `Bearer ${token}` },
      });
    expect((await rest(granted)).status).toBe(200);
    expect((await rest(refused)).status).toBe(403);
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toEqual([0, null]);
  });

  it("runs mocks/README.md's v0.3 command as written: a v0.3 card, and the banner's v0.3 calls answer", async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const line = readme.split('\n').find((entry) => entry.includes('--protocol 0.3'));
    const command = line?.split('#')[0]?.trim() ?? '';
    expect(command).toMatch(/^npx surecall-mock-agent /);
    const agent = start(...command.split(/\s+/).slice(2));
    const port = await agent.ready;
    await expect.poll(() => agent.output().stdout).toContain('curl');
    const { stdout } = agent.output();
    expect(stdout).toContain(`A2A v0.3 mock agent on http://127.0.0.1:${port}`);
    const card = (await (await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`)).json()) as {
      protocolVersion: string;
      url: string;
    };
    expect(card).toMatchObject({ protocolVersion: '0.3.0', url: `http://127.0.0.1:${port}/a2a/jsonrpc` });
    const calls = [...stdout.matchAll(/curl -sN? -H 'Content-Type: application\/json' -d '([^']+)' (\S+)/g)];
    expect(calls.map((call) => (JSON.parse(call[1] ?? '') as { method: string }).method)).toEqual([
      'message/send',
      'message/stream',
    ]);
    for (const [, body, url] of calls) {
      const response = await fetch(url ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body ?? '',
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(
        /"result":\{"kind":"(message|task|status-update|artifact-update)"/,
      );
    }
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toEqual([0, null]);
  });

  it.each([
    ['an unknown protocol version', ['--port', '0', '--protocol', '0.2']],
    ['v0.3 with a gRPC port', ['--port', '0', '--protocol', '0.3', '--grpc-port', '0']],
    ['v0.3 with a tenant', ['--port', '0', '--protocol', '0.3', '--tenant-required']],
    ['v0.3 with a serializer style', ['--port', '0', '--protocol', '0.3', '--serializer', 'proto-names']],
    ['an unknown mode', ['--mode', 'sometimes']],
    ['a port out of range', ['--port', '70000']],
    ['an unknown flag', ['--port', '0', '--verbose']],
    ['a CORS origin with a path', ['--port', '0', '--cors-origin', 'https://devtools.example/']],
    ['a CORS wildcard', ['--port', '0', '--cors-origin', '*']],
    ['a gRPC port out of range', ['--port', '0', '--grpc-port', '70000']],
    ['an extended-card scope with a +', ['--port', '0', '--extended-card-scope', 'card+extended']],
    ['an empty extended-card scope', ['--port', '0', '--extended-card-scope', '']],
  ])('refuses %s with the usage on stderr and exit code 2', async (_name, args) => {
    const agent = start(...args);
    expect(await agent.exited).toEqual([2, null]);
    expect(agent.output().stdout).toBe('');
    expect(agent.output().stderr).toMatch(/^usage: surecall-mock-agent /);
  });
});
