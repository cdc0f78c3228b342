// Plain Node ESM, as a user's script: the installed client talks to the installed mock agent on a loopback port, keeps
// a durable send in a file ledger, and the same agent behind the mocks' MSW mount streams a task. Run by scripts/tarballs.sh in a scratch
// project; any failure exits non-zero.
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discover, durableAgent, textPart, userMessage } from '@surecall/client';
import { compactLedger, openLedger } from '@surecall/client/ledger';
import { createMockAgentServer, startMockAgent } from '@surecall/mocks/node';

const mock = await startMockAgent({ port: 0 });
const directory = await mkdtemp(join(tmpdir(), 'surecall-tarball-'));
try {
  // Local development: an http: card on a literal loopback address, trusted by the digest of its first fetch.
  const client = await discover({
    cardUrl: mock.cardUrl,
    pins: [{ binding: 'JSONRPC', url: `${mock.origin}/a2a/jsonrpc` }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
  });
  const answer = await client.sendMessage({ message: userMessage([textPart('echo installed')]) });
  assert.ok('message' in answer || 'task' in answer, 'the agent answered');

  const ledger = await openLedger({ name: join(directory, 'sends') });
  const agent = durableAgent({
    client,
    ledger,
    recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 1000 },
  });
  const outcome = await agent.send({ role: 'ROLE_USER', parts: [textPart('echo durable')] });
  assert.equal(outcome.status, 'committed');
  assert.equal((await compactLedger(ledger)).records, 1);
  await ledger.close();

  // The MSW mount: the same agent answered in this process by the installed msw, no socket opened.
  const server = createMockAgentServer({ stepMs: 0 });
  assert.equal(server.cardUrl, 'https://agent.test/.well-known/agent-card.json');
  server.listen();
  try {
    const inProcess = await discover({
      cardUrl: server.cardUrl,
      pins: [{ binding: 'JSONRPC', url: `${server.origin}/a2a/jsonrpc` }],
      trust: { kind: 'tls' },
      security: { kind: 'anonymous' },
    });
    const streamed = [];
    for await (const event of inProcess.sendStreamingMessage({
      message: userMessage([textPart('task msw')]),
    })) {
      streamed.push(event);
    }
    assert.ok(streamed.length > 1, 'the MSW mount streamed the task');
    assert.equal(server.executions.total(), 1);
  } finally {
    server.close();
  }
  console.log('node: the installed client, ledger and mocks work');
} finally {
  await mock.close();
  await rm(directory, { recursive: true, force: true });
}
