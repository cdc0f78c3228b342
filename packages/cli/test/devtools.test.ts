/**
The devtools server of `surecall devtools` over a real file ledger: the read-only endpoint behind the per-run
token, the Host check, no CORS grant, no path outside the app's folder; and the devtools' read-only ledger
source (`packages/devtools/src/ledger-source/remote-ledger.ts`) reading it as the page does, following a send
another writer makes meanwhile.
*/
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cardDigest, createClient, type DurableAgent, durableAgent, type JsonValue } from '@surecall/client';
import type { Ledger } from '@surecall/client/ledger';
import { openLedger } from '@surecall/client/ledger/file';
import { parseAgentCard } from '@surecall/client/protocol';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bypassTargets, rawRequest } from '../../../mocks/test/support/bypass-targets.js';
import { openRemoteLedger } from '../../devtools/src/ledger-source/remote-ledger.js';
import { type DevtoolsServer, startDevtoolsServer } from '../src/devtools-server.js';
import { openJournalView } from '../src/journal-view.js';

type Answer = { readonly status: number; readonly headers: Record<string, unknown>; readonly body: string };

/** A raw request, so the Host header is what the test says (fetch would set its own). */
function get(
  server: DevtoolsServer,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<Answer> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });
}

let mock: RunningMockAgent;
let directory: string;
let ledger: Ledger;
let agent: DurableAgent;
let server: DevtoolsServer;
let host: string;
let firstId: string;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, stepMs: 5 });
  directory = await mkdtemp(join(tmpdir(), 'surecall-devtools-'));
  const app = join(directory, 'app');
  await mkdir(app);
  await writeFile(join(app, 'index.html'), '<!doctype html><title>devtools</title>');
  await writeFile(join(directory, 'secret.txt'), 'outside the app');
  const raw = (await (await fetch(mock.cardUrl)).json()) as JsonValue;
  const card = parseAgentCard(raw);
  const client = createClient({
    card,
    cardDigest: await cardDigest(raw),
    pin: { binding: 'JSONRPC', url: card.supportedInterfaces[0]?.url ?? '' },
    security: { kind: 'anonymous' },
  });
  // The writer holds the journal's lock for the whole test, as a running sender would; the view takes none.
  ledger = await openLedger({ name: join(directory, 'sends.jsonl') });
  agent = durableAgent({ client, ledger });
  firstId = (await agent.send({ role: 'ROLE_USER', parts: [{ text: 'echo one' }] })).id;
  server = await startDevtoolsServer({
    view: await openJournalView(join(directory, 'sends.jsonl')),
    root: app,
    port: 0,
  });
  host = new URL(server.origin).host;
});

afterAll(async () => {
  await server.close();
  await ledger.close();
  await mock.close();
  await rm(directory, { recursive: true, force: true });
});

describe('the devtools server', () => {
  it('prints a loopback link whose fragment holds a fresh token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#ledger=[A-Za-z0-9_-]{43}$/);
  });

  it('serves the app to its own Host, and the ledger only with the token, never granting another origin', async () => {
    const page = await get(server, '/', { host });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>devtools</title>');
    for (const headers of [
      { host },
      { host, authorization: 'Bearer wrong' },
      { host, authorization: server.token },
    ]) {
      expect((await get(server, '/api/ledger/records', headers)).status).toBe(401);
    }
    const records = await get(server, '/api/ledger/records', {
      host,
      authorization: `Bearer ${server.token}`,
      origin: 'https://evil.example',
    });
    expect(records.status).toBe(200);
    expect(JSON.parse(records.body)).toMatchObject({
      records: [{ record: { id: firstId }, status: 'committed' }],
    });
    for (const answer of [page, records]) {
      expect(answer.headers).not.toHaveProperty('access-control-allow-origin');
    }
    expect(records.headers['cache-control']).toBe('no-store');
  });

  it('refuses a foreign Host header, even with the token (DNS rebinding)', async () => {
    for (const foreign of ['evil.example', `evil.example:${new URL(server.origin).port}`, '127.0.0.1:1']) {
      const answer = await get(server, '/api/ledger/records', {
        host: foreign,
        authorization: `Bearer ${server.token}`,
      });
      expect(answer.status).toBe(421);
      expect(answer.body).not.toContain(firstId);
    }
  });

  // RFC 9112 §3.2: Node keeps the first of two Host lines, so its own name first, then a foreign one, must
  // not pass.
  it('refuses two Host headers, its own first, even with the token', async () => {
    const { port } = new URL(server.origin);
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.end(
          `GET /api/ledger/records HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\nAuthorization: Bearer ${server.token}\r\nConnection: close\r\n\r\n`,
        );
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(head.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 (400|421) /);
    expect(head).not.toContain(firstId);
  });

  it('writes nothing and serves nothing outside the app folder', async () => {
    expect((await get(server, '/api/ledger/records', { host }, 'POST')).status).toBe(405);
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt']) {
      const answer = await get(server, path, { host });
      expect(answer.status).toBe(404);
      expect(answer.body).not.toContain('outside the app');
    }
  });
});

describe('the devtools server, reached by another spelling of its ledger routes', () => {
  // The mock agent's control routes run the same table (mocks/test/control-routes.test.ts).
  it.each(bypassTargets)(
    'refuses $name without the token, serving nothing of the ledger',
    async ({ target }) => {
      const { port } = new URL(server.origin);
      for (const [path, query] of [
        ['/api/ledger/records', ''],
        ['/api/ledger/history', `?id=${firstId}`],
      ] as const) {
        const raw = `${target(path, Number(port))}${query}`;
        const answer = await rawRequest(Number(port), { method: 'GET', target: raw, headers: { host } });
        expect.soft([400, 401, 404, 421], `GET ${raw} → ${answer.status}`).toContain(answer.status);
        expect.soft(answer.body, `GET ${raw}`).not.toContain(firstId);
      }
    },
  );
});

describe('the devtools read-only ledger source', () => {
  it('lists and reads histories through the endpoint, refuses writes, and follows another writer', async () => {
    const remote = openRemoteLedger({ origin: server.origin, token: server.token }, { pollMs: 50 });
    try {
      expect((await remote.list()).map((record) => record.id)).toContain(firstId);
      expect((await remote.history(firstId)).map((revision) => revision.transition.type)).toEqual([
        'create',
        'start',
        'commit',
      ]);
      await expect(
        remote.transition(firstId, 2, { type: 'pending', attemptId: 'a', notBefore: 0 }),
      ).rejects.toMatchObject({ kind: 'ledger', reason: 'unsupported' });
      const heard: string[] = [];
      const unsubscribe = remote.subscribe((change) =>
        heard.push(`${change.record.id} ${change.record.state.status}`),
      );
      // The first poll takes stock; a send made after it is heard.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'echo two' }] });
      await expect.poll(() => heard, { timeout: 10_000 }).toContain(`${second.id} committed`);
      expect(heard.some((entry) => entry.startsWith(firstId))).toBe(false);
      unsubscribe();
    } finally {
      await remote.close();
    }
    const refused = openRemoteLedger({ origin: server.origin, token: 'x'.repeat(43) });
    await expect(refused.list()).rejects.toMatchObject({ kind: 'ledger', reason: 'io', rule: 'token' });
  });
});
