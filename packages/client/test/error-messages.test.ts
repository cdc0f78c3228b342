/**
What an error's message tells a person (ARCHITECTURE.md#errors): the operation, the field path or the bound,
and for a send whose outcome is unknown what to do; the `cause` of a broken connection is the platform's code
alone. Over a real loopback wire: the mock agent, and a server that resets the connection.
*/
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { A2aClient } from '../src/client/client.js';
import { OptionsError, RequestError, TransportError } from '../src/core/errors.js';
import { discover } from '../src/discovery/discovery.js';
import { durableAgent } from '../src/durable/agent.js';
import { openLedger } from '../src/ledger/memory.js';

let mock: RunningMockAgent;
let client: A2aClient;
let reset: Server;
let resetOrigin = '';

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, stepMs: 0 });
  client = await discover({
    cardUrl: mock.cardUrl,
    pins: [{ binding: 'JSONRPC', url: `${mock.origin}/a2a/jsonrpc` }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
  });
  // Answers the card as the mock does, then resets the connection of every A2A request (a TCP RST, not a
  // clean close).
  const card = await (await fetch(mock.cardUrl)).text();
  reset = createServer((request, response) => {
    if (request.url === '/.well-known/agent-card.json') {
      const rewritten = card.replaceAll(mock.origin, resetOrigin);
      response.writeHead(200, { 'content-type': 'application/json' }).end(rewritten);
      return;
    }
    request.socket.resetAndDestroy();
  });
  await new Promise<void>((resolve) => reset.listen(0, '127.0.0.1', resolve));
  resetOrigin = `http://127.0.0.1:${(reset.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await mock.close();
  await new Promise((resolve) => reset.close(resolve));
});

async function thrown(pending: Promise<unknown>): Promise<Error> {
  const error = await pending.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) {
    // Read to the end, or to the error.
  }
}

const text = (parts: string) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER' as const,
  parts: [{ text: parts }],
});

describe('error messages', () => {
  it('name the operation and, for a lost send, say the outcome is unknown and what to do', async () => {
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const error = await thrown(client.sendMessage({ message: text('echo lost') }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ operation: 'SendMessage', dispatched: true });
    expect(error.message).toMatch(/^A2A SendMessage failed: transport \(/);
    expect(error.message).toContain('outcome unknown: reconcile, do not resend');
    expect(error.stack?.split('\n')[0]).toBe(`TransportError: ${error.message}`);
  });

  it('say the outcome is unknown for a stream cut before its first event, and not once the task is known', async () => {
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 0 });
    const early = await thrown(drain(client.sendStreamingMessage({ message: text('task a b c') })));
    expect(early.message).toMatch(/^A2A SendStreamingMessage failed: /);
    expect(early.message).toContain('outcome unknown: reconcile, do not resend');
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
    // Without resumption, so the break after the task is known reaches the caller as an error.
    const late = await thrown(
      drain(client.sendStreamingMessage({ message: text('task a b c') }, { resume: false })),
    );
    expect(late.message).toMatch(/^A2A SendStreamingMessage failed: transport \(/);
    expect(late.message).not.toContain('outcome unknown');
  });

  it('never tell a person to reconcile a read, whose retry is safe', async () => {
    mock.faults.set({ kind: 'drop-after', operation: 'GetTask' });
    const error = await thrown(client.getTask({ id: 'no-such-task' }));
    expect(error.message).toMatch(/^A2A GetTask failed: /);
    expect(error.message).not.toContain('outcome unknown');
  });

  it('name the field a request broke', async () => {
    const error = await thrown(client.sendMessage({ message: { ...text('x'), role: 'ROLE_AGENT' } }));
    expect(error).toBeInstanceOf(RequestError);
    expect(error.message).toMatch(/^A2A SendMessage failed: request \(invalid-params\): \$\.message\.role /);
    expect(error.message).not.toContain('outcome unknown');
  });

  it('give the bound an option broke', async () => {
    const ledger = await openLedger({ name: 'bounds' });
    const error = (() => {
      try {
        durableAgent({
          client,
          ledger,
          recovery: { kind: 'context-history', maxPages: 1, historyLength: 1, retryAfterMs: -1 },
        });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(OptionsError);
    expect((error as OptionsError).message).toMatch(/\(below-minimum: at least \d+\)$/);
    expect(error).toMatchObject({ option: 'recovery.retryAfterMs', reason: 'below-minimum' });
    expect(new OptionsError('limits.sseLineBytes', 'above-ceiling', 4096).message).toBe(
      'surecall option limits.sseLineBytes is invalid (above-ceiling: at most 4096)',
    );
  });

  it('carry the code of a reset connection as the cause, and nothing of the peer', async () => {
    const resetting = await discover({
      cardUrl: `${resetOrigin}/.well-known/agent-card.json`,
      pins: [{ binding: 'JSONRPC', url: `${resetOrigin}/a2a/jsonrpc` }],
      loopback: true,
      trust: { kind: 'first-fetch' },
      security: { kind: 'anonymous' },
    });
    const error = await thrown(resetting.sendMessage({ message: text('echo reset') }));
    expect(error).toMatchObject({ kind: 'transport', reason: 'network', dispatched: true });
    expect(error.cause).toEqual({ code: expect.stringMatching(/^(ECONNRESET|UND_ERR_SOCKET|EPIPE)$/) });
    expect(error.message).toContain(`transport (network, ${(error.cause as { code: string }).code})`);
    expect(error.message).toContain('outcome unknown: reconcile, do not resend');
    expect(inspect(error, { depth: 10 })).not.toContain('127.0.0.1');
  });
});
