import { safeParseAgentCard } from '@surecall/client/protocol';
import { describe, expect, it } from 'vitest';
import { behaviours } from './behaviours.js';
import { agentCardResponse, buildAgentCard } from './card.js';
import type { IdempotencyMode } from './idempotency.js';

const origin = 'http://127.0.0.1:4000';
const cardUrl = `${origin}/.well-known/agent-card.json`;

describe('buildAgentCard', () => {
  it.each<IdempotencyMode>(['honouring', 'refusing', 'foreign'])(
    'is a valid v1.0 card in %s mode',
    (mode) => {
      for (const extended of [false, true]) {
        const result = safeParseAgentCard(buildAgentCard({ origin, mode, extended }));
        expect(result.ok).toBe(true);
      }
    },
  );

  it('lists both bindings at the origin, JSON-RPC first, without a tenant', () => {
    expect(buildAgentCard({ origin, mode: 'honouring', extended: false }).supportedInterfaces).toEqual([
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ]);
  });

  it('advertises the idempotency extension only when honouring keys', () => {
    const honouring = buildAgentCard({ origin, mode: 'honouring', extended: false });
    expect(honouring.capabilities).toEqual({
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
      extensions: [
        {
          uri: 'https://a2a-rust.com/extensions/idempotency/v1',
          description: expect.any(String),
          required: false,
        },
      ],
    });
    for (const mode of ['refusing', 'foreign'] as const) {
      expect(buildAgentCard({ origin, mode, extended: false }).capabilities).not.toHaveProperty('extensions');
    }
  });

  it('has one skill per behaviour, then the JSON-only data skills, and admits anonymous or bearer callers', () => {
    const card = buildAgentCard({ origin, mode: 'honouring', extended: false });
    expect(card.skills.map((skill) => skill.id)).toEqual([
      ...behaviours.map((info) => info.name),
      'sum',
      'sum-task',
    ]);
    expect(card.skills.slice(-2).map(({ inputModes, outputModes }) => ({ inputModes, outputModes }))).toEqual(
      [
        { inputModes: ['application/json'], outputModes: ['application/json'] },
        { inputModes: ['application/json'], outputModes: ['application/json'] },
      ],
    );
    expect(card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', description: expect.any(String) } },
    });
    expect(card.securityRequirements).toEqual([{ schemes: {} }, { schemes: { bearer: { list: [] } } }]);
  });

  it('is richer when extended', () => {
    const card = buildAgentCard({ origin, mode: 'honouring', extended: true });
    expect(card.provider).toEqual({ organization: 'surecall', url: origin });
    expect(card.documentationUrl).toBe(cardUrl);
    expect(buildAgentCard({ origin, mode: 'honouring', extended: false })).not.toHaveProperty('provider');
    // A skill for authenticated callers only, after the public ones.
    expect(card.skills.map((skill) => skill.id).slice(-3)).toEqual(['sum', 'sum-task', 'sum-extended']);
  });
});

describe('agentCardResponse', () => {
  const card = buildAgentCard({ origin, mode: 'honouring', extended: false });
  const fetchCard = (headers: Record<string, string> = {}, method = 'GET') =>
    agentCardResponse(new Request(cardUrl, { method, headers }), card);

  it('answers the card as JSON with an ETag and Cache-Control', async () => {
    const response = await fetchCard();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await response.json()).toEqual(card);
  });

  it('changes the ETag when the card changes', async () => {
    const etag = (await fetchCard()).headers.get('etag');
    const other = buildAgentCard({ origin, mode: 'foreign', extended: false });
    const otherTag = (await agentCardResponse(new Request(cardUrl), other)).headers.get('etag');
    expect(otherTag).not.toBe(etag);
  });

  it.each([
    ['the same tag', (tag: string) => tag],
    ['the weak form', (tag: string) => `W/${tag}`],
    ['a list holding it', (tag: string) => `"other", ${tag}`],
    ['a star', () => '*'],
  ])('answers 304 with no body to If-None-Match with %s', async (_, header) => {
    const etag = (await fetchCard()).headers.get('etag') ?? '';
    const response = await fetchCard({ 'if-none-match': header(etag) });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(etag);
    expect(await response.text()).toBe('');
  });

  it('answers 200 to a stale If-None-Match', async () => {
    expect((await fetchCard({ 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('answers HEAD with the headers alone, and other methods with 405', async () => {
    const head = await fetchCard({}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).not.toBeNull();
    expect(await head.text()).toBe('');
    const post = await fetchCard({}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
