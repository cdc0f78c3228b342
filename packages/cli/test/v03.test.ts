/**
`--protocol-versions` end to end (README.md#the-surecall-command, docs/protocol-checks.md#v03-peers): the bin
in a child process against the official SDK server in its legacy mode on loopback, whose card lists its
JSON-RPC endpoint in 1.0 and, last, in 0.3, and against a v0.3-only agent: a static host serving the SDK's
own v0.3 card, which names the SDK's endpoint. The README's example runs as written, `$CARD` being that
host's card URL.
*/
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, surecall } from './support/surecall.js';

let sdk: RunningSdkAgent;
let host: Server;
let v03CardUrl: string;

beforeAll(async () => {
  sdk = await startSdkAgent({ tickMs: 20, legacy: true });
  // A2A spec §3.6.2: a request without A2A-Version is a v0.3 request, so this is the card a v0.3-only agent
  // publishes; a static host serves it whatever the request says.
  const v03Card = await (await fetch(sdk.cardUrl)).text();
  host = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(v03Card);
  });
  host.listen(0, '127.0.0.1');
  await once(host, 'listening');
  v03CardUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/.well-known/agent-card.json`;
});

afterAll(async () => {
  host.close();
  await sdk.close();
});

type Interfaces = { interfaces: { url: string; protocolVersion: string; preferred: boolean }[] };

function preferred(stdout: string): { url: string; protocolVersion: string } | undefined {
  const [report] = documents(stdout) as Interfaces[];
  return report?.interfaces.find((entry) => entry.preferred);
}

// The README's words for a shell: single-quoted words kept whole, nothing else special.
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

describe('surecall card --protocol-versions', () => {
  it('marks the 1.0 interface with both versions, the v0.3 one with 0.3 alone', async () => {
    const both = await surecall([
      'card',
      sdk.cardUrl,
      '--loopback',
      '--protocol-versions',
      '1.0,0.3',
      '--json',
    ]);
    expect(both.code).toBe(0);
    expect(preferred(both.stdout)).toMatchObject({ url: sdk.jsonRpcUrl, protocolVersion: '1.0' });
    const v03 = await surecall(['card', sdk.cardUrl, '--loopback', '--protocol-versions', '0.3', '--json']);
    expect(preferred(v03.stdout)).toMatchObject({ url: sdk.jsonRpcUrl, protocolVersion: '0.3' });
  });

  it('reads a v0.3-only card with the flag, and refuses it without, naming the flag', async () => {
    const read = await surecall([
      'card',
      v03CardUrl,
      '--loopback',
      '--protocol-versions',
      '1.0,0.3',
      '--json',
    ]);
    expect(read, read.stderr).toMatchObject({ code: 0 });
    expect(preferred(read.stdout)).toMatchObject({ url: sdk.jsonRpcUrl, protocolVersion: '0.3' });
    const refused = await surecall(['card', v03CardUrl, '--loopback']);
    expect(refused, refused.stderr).toMatchObject({ code: 1 });
    expect(refused.stderr).toContain('add --protocol-versions 1.0,0.3');
  });

  it.each([['1.0,0.2'], ['0.3,0.3'], ['']])('refuses --protocol-versions %j as usage', async (list) => {
    const run = await surecall(['card', sdk.cardUrl, '--loopback', '--protocol-versions', list]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--protocol-versions takes 1.0 and 0.3');
  });
});

describe('surecall send --protocol-versions', () => {
  it('runs the README example as written against a v0.3-only agent', async () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(
      /\n\s*/g,
      ' ',
    );
    const example = /`(surecall send \$CARD [^`]*--protocol-versions 1\.0,0\.3)` answers `([^`]*)`/.exec(
      readme,
    );
    expect(example).not.toBeNull();
    const [, command = '', answer = ''] = example ?? [];
    const args = words(command)
      .slice(1)
      .map((word) => (word === '$CARD' ? v03CardUrl : word));
    const run = await surecall(args);
    expect(run, run.stdout).toMatchObject({ code: 0, stdout: `${answer}\n` });
    // Over v0.3: the SDK received the send without A2A-Version.
    const sends = sdk.received.filter((request) => request.path === new URL(sdk.jsonRpcUrl).pathname);
    expect(sends.at(-1)?.headers['a2a-version']).toBeUndefined();
  });

  it('speaks 1.0 to the SDK with both versions, since its card prefers 1.0', async () => {
    const run = await surecall([
      'send',
      sdk.cardUrl,
      'echo hi',
      '--loopback',
      '--protocol-versions',
      '1.0,0.3',
    ]);
    expect(run.code).toBe(0);
    const sends = sdk.received.filter((request) => request.path === new URL(sdk.jsonRpcUrl).pathname);
    expect(sends.at(-1)?.headers['a2a-version']).toBe('1.0');
  });
});

describe('surecall card|send --binding HTTP+JSON --protocol-versions 0.3', () => {
  let rest: RunningSdkAgent;

  beforeAll(async () => {
    // The SDK with its v0.3 REST router, whose card lists its HTTP+JSON endpoint in 1.0 and in 0.3.
    rest = await startSdkAgent({ tickMs: 20, legacy: true, legacyRest: true });
  });
  afterAll(() => rest.close());

  it('marks the v0.3 HTTP+JSON interface, and sends over it without A2A-Version', async () => {
    const flags = ['--loopback', '--binding', 'HTTP+JSON', '--protocol-versions', '0.3'];
    const card = await surecall(['card', rest.cardUrl, ...flags, '--json']);
    expect(card, card.stderr).toMatchObject({ code: 0 });
    expect(preferred(card.stdout)).toMatchObject({ url: rest.restUrl, protocolVersion: '0.3' });
    const run = await surecall(['send', rest.cardUrl, 'echo hi', ...flags]);
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: 'message: echo hi\n' });
    const sends = rest.received.filter((request) => request.path.endsWith('/v1/message:send'));
    expect(sends).toHaveLength(1);
    expect(sends[0]?.headers['a2a-version']).toBeUndefined();
  });
});
