/**
`surecall card|send --binding GRPC` against the official SDK server with its gRPC service
(`startSdkAgent({ grpc: true })`): the bin loads `@surecall/client/grpc` only for that flag, sends over the
card's gRPC interface, and a durable send records that interface as its agent.
*/
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '@surecall/client/ledger/file';
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, surecall } from './support/surecall.js';

let sdk: RunningSdkAgent;
let directory: string;

beforeAll(async () => {
  sdk = await startSdkAgent({ tickMs: 600_000, grpc: true });
  directory = await mkdtemp(join(tmpdir(), 'surecall-cli-grpc-'));
});

afterAll(async () => {
  await sdk.close();
  await rm(directory, { recursive: true, force: true });
});

describe('--binding GRPC', () => {
  it('card: lists the gRPC interfaces; the preferred one stays the first a gRPC client speaks', async () => {
    const run = await surecall(['card', sdk.cardUrl, '--loopback', '--binding', 'GRPC', '--json']);
    expect(run.code).toBe(0);
    const [report] = documents(run.stdout) as [{ interfaces: { binding: string; preferred: boolean }[] }];
    expect(report.interfaces.filter(({ binding }) => binding === 'GRPC')).toHaveLength(2);
    expect(report.interfaces.findIndex(({ preferred }) => preferred)).toBe(0);
  });

  it('send: answered over gRPC, and a durable send records the gRPC interface as its agent', async () => {
    const plain = await surecall([
      'send',
      sdk.cardUrl,
      'echo hello',
      '--loopback',
      '--binding',
      'GRPC',
      '--json',
    ]);
    expect(plain.code).toBe(0);
    expect(documents(plain.stdout)).toEqual([
      {
        status: 'answered',
        answer: { message: expect.objectContaining({ parts: [{ text: 'echo hello' }] }) },
      },
    ]);

    const ledger = join(directory, 'grpc.jsonl');
    const durable = await surecall([
      'send',
      sdk.cardUrl,
      'task a b',
      '--loopback',
      '--binding',
      'GRPC',
      '--durable',
      '--ledger',
      ledger,
      '--json',
    ]);
    expect(durable.code).toBe(0);
    const opened = await openLedger({ name: ledger });
    const records = await opened.list();
    await opened.close();
    expect(records.map((record) => [record.agent.binding, record.agent.url, record.state.status])).toEqual([
      ['GRPC', `${sdk.grpcUrl}/`, 'committed'],
    ]);
  });

  it('refuses a binding it does not know, naming the three', async () => {
    const run = await surecall(['send', sdk.cardUrl, 'hi', '--loopback', '--binding', 'grpc']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--binding must be JSONRPC, HTTP+JSON or GRPC');
  });
});
