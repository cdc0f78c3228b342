import { createMockAgentServer } from '@surecall/mocks/node';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { artifactText } from '../model/artifacts.js';
import { emptyFeed, reduceFeed } from '../model/feed.js';
import { streamMeters } from '../model/meters.js';
import { ConnectError, connect } from './connect.js';

// One MSW server per file: a second one in the same process would refuse the first one's origin.
// connect.loopback.test.ts has the loopback agent.
const tls = createMockAgentServer({ stepMs: 0, origin: 'https://agent.test' });

beforeAll(() => tls.listen());
afterEach(() => tls.server.resetHandlers());
afterAll(() => tls.close());

async function refusal(promise: Promise<unknown>): Promise<ConnectError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ConnectError)) {
    throw new Error('expected a ConnectError');
  }
  return error;
}

describe('connect', () => {
  it('discovers an https agent under TLS trust, pinned to the card’s preferred interface, anonymous', async () => {
    const connection = await connect({ cardUrl: tls.cardUrl });
    expect(connection).toMatchObject({
      pin: { binding: 'JSONRPC', url: 'https://agent.test/a2a/jsonrpc' },
      security: { kind: 'anonymous' },
      trust: 'tls',
      // Node has no CORS preflight: the versioned card request stands.
      cardRequest: 'versioned',
      origin: 'https://agent.test',
      rawCard: { name: 'surecall mock agent' },
    });
    expect(connection.client.binding).toBe('JSONRPC');
    expect(connection.client.cardDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('feeds the model: a streamed task’s frames, meters and assembled artifact', async () => {
    const { client } = await connect({ cardUrl: tls.cardUrl });
    let feed = emptyFeed;
    const unsubscribe = client.events.subscribe((event) => {
      feed = reduceFeed(feed, event);
    });
    const message = {
      messageId: 'm-stream',
      role: 'ROLE_USER' as const,
      parts: [{ text: 'task alpha beta gamma' }],
    };
    for await (const _event of client.sendStreamingMessage({ message })) {
      // Every event reaches the feed through client.events; the loop only drives the stream.
    }
    unsubscribe();
    const [stream] = feed.streams.streams;
    expect(stream?.status).toBe('complete');
    expect(stream?.frames.map((row) => row.kind)).toEqual([
      'task',
      'statusUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
    expect(stream?.wireBytes).toBe(stream?.frames.reduce((sum, row) => sum + row.wireBytes, 0));
    const meters = stream === undefined ? [] : streamMeters(stream);
    expect(meters.map((meter) => [meter.bound, meter.level])).toEqual([
      ['line', 'ok'],
      ['event', 'ok'],
      ['total', 'ok'],
      ['events', 'ok'],
      ['idle', 'ok'],
    ]);
    const [task] = feed.tasks.tasks;
    expect(task?.statusHistory.map((entry) => entry.state)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
    ]);
    expect(task?.artifacts[0]).toMatchObject({ chunks: 3, state: 'complete' });
    expect(artifactText(task?.artifacts[0] ?? { parts: [] })).toBe('alpha beta gamma');
    expect(feed).toMatchObject({ calls: 1, failures: 0 });
  });

  it.each([
    ['Discovery (status), HTTP 404', () => new HttpResponse('missing', { status: 404 })],
    [
      'InvalidAgentCard (json)',
      () => new HttpResponse('{not json', { headers: { 'content-type': 'application/json' } }),
    ],
    ['InvalidAgentCard (schema)', () => HttpResponse.json({ name: 'half a card' })],
    ['Discovery (network)', () => HttpResponse.error()],
  ] as const)('stops reading the card on %s, with no text of the answer', async (reason, answer) => {
    tls.server.use(http.get(tls.cardUrl, answer));
    const error = await refusal(connect({ cardUrl: tls.cardUrl }));
    expect(error.step).toBe('fetch');
    expect(error.message).toContain(`The card could not be read: ${reason}`);
    expect(error.message).not.toContain('half a card');
    expect(error.message).not.toContain('missing');
  });

  it('refuses a card whose digest is not the expected one', async () => {
    const error = await refusal(connect({ cardUrl: tls.cardUrl, digest: `sha256:${'0'.repeat(64)}` }));
    expect(error.step).toBe('digest');
  });

  it('refuses a pin the card does not list', async () => {
    const error = await refusal(connect({ cardUrl: tls.cardUrl, pinUrl: 'https://agent.test/elsewhere' }));
    expect(error.step).toBe('interface');
  });

  it('passes on discovery’s refusal of a pin that is not the card’s preferred interface', async () => {
    const error = await refusal(connect({ cardUrl: tls.cardUrl, binding: 'HTTP+JSON' }));
    expect(error.step).toBe('discover');
    expect(error.message).toBe(
      'Discovery refused the agent: InterfacePinMismatch (no-matching-pin), option pins',
    );
  });

  it('passes on discovery’s refusal of the security choice', async () => {
    const error = await refusal(connect({ cardUrl: tls.cardUrl, bearer: { scheme: 'oauth', token: 't' } }));
    expect(error.message).toBe(
      'Discovery refused the agent: Security (bearer-scheme-unsupported), option security',
    );
  });

  it('refuses a plain http card URL that is not loopback', async () => {
    const error = await refusal(connect({ cardUrl: 'http://agent.test/.well-known/agent-card.json' }));
    expect(error.step).toBe('fetch');
    expect(error.message).toMatch(/^The card could not be read: Discovery \(/);
  });
});
