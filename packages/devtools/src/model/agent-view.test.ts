import type { AgentCard } from '@surecall/client';
import { idempotencyExtensionUri } from '@surecall/client/idempotency';
import { parseAgentCard } from '@surecall/client/protocol';
import { describe, expect, it } from 'vitest';
import { agentView, honours, reportedPin } from './agent-view.js';

const card: AgentCard = parseAgentCard({
  name: 'mock',
  description: 'A mock agent.',
  version: '0.1.0',
  provider: { organization: 'surecall', url: 'https://surecall.example' },
  supportedInterfaces: [
    { url: 'http://h/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'http://h/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    { url: 'http://h/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 'acme' },
  ],
  capabilities: {
    streaming: true,
    extensions: [{ uri: idempotencyExtensionUri, description: 'keys', required: false }],
  },
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: {} }, { schemes: { bearer: { list: [] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'echo', description: 'Echoes.', tags: ['mock'] }],
});
const digest = `sha256:${'0'.repeat(64)}`;

describe('agentView', () => {
  it('shows the card, digest, pin, security and extensions the client was built with', () => {
    const view = agentView(
      { card, cardDigest: digest, binding: 'JSONRPC' },
      {
        cardUrl: 'http://h/.well-known/agent-card.json',
        trust: 'first-fetch-digest',
        cardRequest: 'plain-fallback',
        pin: { binding: 'JSONRPC', url: 'http://h:80/a2a/jsonrpc' },
        security: { kind: 'anonymous' },
        extensions: [],
      },
    );
    expect(view).toMatchObject({
      name: 'mock',
      version: '0.1.0',
      provider: 'surecall',
      digest,
      trust: 'first-fetch-digest',
      cardRequest: 'plain-fallback',
      binding: 'JSONRPC',
      pinSource: 'connection',
      security: { kind: 'anonymous' },
      securitySchemes: ['bearer'],
      capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
      idempotency: { honours: 'unknown', advertised: true },
    });
    expect(view.interfaces.map((row) => row.pinned)).toEqual([true, false, false]);
    expect(view.extensions).toEqual([
      { uri: idempotencyExtensionUri, description: 'keys', required: false, requested: false },
    ]);
    expect(view.skills).toEqual([{ id: 'echo', name: 'echo', description: 'Echoes.' }]);
  });

  it('pins the tenant’s interface only when the pin names that tenant', () => {
    const view = agentView(
      { card, cardDigest: digest, binding: 'HTTP+JSON' },
      { pin: { binding: 'HTTP+JSON', url: 'http://h/a2a/rest', tenant: 'acme' } },
    );
    expect(view.interfaces.map((row) => row.pinned)).toEqual([false, false, true]);
  });

  it('infers the pin when the card has one interface of the client’s binding, and says when it cannot', () => {
    const jsonRpc = agentView({ card, cardDigest: digest, binding: 'JSONRPC' });
    expect(jsonRpc.pinSource).toBe('inferred');
    expect(jsonRpc.interfaces.map((row) => row.pinned)).toEqual([true, false, false]);
    expect(jsonRpc.extensions[0]?.requested).toBeUndefined();
    const rest = agentView({ card, cardDigest: digest, binding: 'HTTP+JSON' });
    expect(rest.pinSource).toBe('ambiguous');
    expect(rest.interfaces.some((row) => row.pinned)).toBe(false);
  });

  it('takes the pin from the client when it reports one', () => {
    const client = {
      card,
      cardDigest: digest,
      binding: 'HTTP+JSON' as const,
      pin: { binding: 'HTTP+JSON', url: 'http://h/a2a/rest', tenant: 'acme' },
    };
    const view = agentView(client);
    expect(view.pinSource).toBe('connection');
    expect(view.interfaces.map((row) => row.pinned)).toEqual([false, false, true]);
  });

  it('reads the client’s verdict on idempotency keys when it gives one', () => {
    const client = { card, cardDigest: digest, binding: 'JSONRPC' as const, honoursIdempotency: false };
    expect(agentView(client).idempotency).toEqual({ honours: 'no', advertised: true });
  });
});

describe('honours', () => {
  it.each([
    [{}, 'unknown'],
    [{ honoursIdempotency: undefined }, 'unknown'],
    [{ honoursIdempotency: 'yes' }, 'unknown'],
    [{ honoursIdempotency: true }, 'yes'],
    [{ honoursIdempotency: false }, 'no'],
  ])('%j is %s', (client, verdict) => {
    expect(honours(client)).toBe(verdict);
  });
});

describe('reportedPin', () => {
  it.each([
    [{}, undefined],
    [{ pin: 'http://h' }, undefined],
    [{ pin: { binding: 'GRPC', url: 'http://h' } }, undefined],
    [{ pin: { binding: 'JSONRPC' } }, undefined],
    [{ pin: { binding: 'JSONRPC', url: 'http://h' } }, { binding: 'JSONRPC', url: 'http://h' }],
    [{ pin: { binding: 'JSONRPC', url: 'http://h', tenant: 7 } }, { binding: 'JSONRPC', url: 'http://h' }],
    [
      { pin: { binding: 'HTTP+JSON', url: 'http://h', tenant: 't' } },
      { binding: 'HTTP+JSON', url: 'http://h', tenant: 't' },
    ],
  ])('%j reports %j', (client, pin) => {
    expect(reportedPin(client)).toEqual(pin);
  });
});
