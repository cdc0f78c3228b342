import { createMockAgentServer } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/app/connect.js';

// The embedded mock agent answers on the page's loopback http origin; this one does the same in Node. Not
// port 9 or another of the Fetch standard's bad ports, which fetch refuses before MSW 3 (which intercepts at
// the socket) sees it.
const loopback = createMockAgentServer({ stepMs: 0, origin: 'http://127.0.0.1:4590' });

beforeAll(() => loopback.listen());
afterAll(() => loopback.close());

describe('connect to a loopback http agent', () => {
  it('trusts the card by the digest of its first fetch, or by the one given', async () => {
    const first = await connect({ cardUrl: loopback.cardUrl });
    expect(first).toMatchObject({
      trust: 'first-fetch-digest',
      pin: { binding: 'JSONRPC', url: 'http://127.0.0.1:4590/a2a/jsonrpc' },
      origin: 'http://127.0.0.1:4590',
    });
    const again = await connect({
      cardUrl: loopback.cardUrl,
      digest: first.client.cardDigest,
      bearer: { scheme: 'bearer', token: 'token' },
    });
    expect(again).toMatchObject({ trust: 'expected-digest', security: { kind: 'bearer', scheme: 'bearer' } });
    expect(again.client.cardDigest).toBe(first.client.cardDigest);
  });
});
