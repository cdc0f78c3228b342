/**
The eleven operations of `test/client.test.ts` over gRPC, against the mock agent's gRPC mount
(`startMockAgent({ grpcPort })`, `@surecall/mocks/grpc`): the same calls and the same checked answers, by a
client given `grpcBinding` and pinned to the card's GRPC interface. No MSW listens here: its interception of
Node's sockets keeps an HTTP/2 connection from opening.
*/
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcBinding } from '../src/bindings/grpc/entry.js';
import { createClient } from '../src/client/client.js';
import { cardDigest } from '../src/discovery/digest.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import { servedCard } from './support/card.js';
import { expectAllEleven, runAll } from './support/eleven-operations.js';

let mock: RunningMockAgent;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, grpcPort: 0, stepMs: 0 });
});

afterAll(() => mock.close());

describe('all eleven operations over GRPC', () => {
  it('succeed, with every answer checked', async () => {
    // As in client.test.ts: a bearer client needs a single-scheme alternative for the extended card
    // (docs/protocol-checks.md#security-selection).
    const raw = {
      ...(await servedCard(mock.cardUrl)),
      securityRequirements: [{ schemes: {} }, { schemes: { bearer: { list: ['agent.invoke'] } } }],
    };
    const client = createClient({
      card: parseAgentCard(raw),
      cardDigest: await cardDigest(raw),
      grpc: grpcBinding,
      pin: { binding: 'GRPC', url: mock.grpcUrl ?? '' },
      security: { kind: 'bearer', scheme: 'bearer', token: async () => 'token-for-the-grpc-test' },
    });
    expect(client.binding).toBe('GRPC');
    expectAllEleven(await runAll(client));
  });
});
