/**
@module
The send intent the ledger suites record: one short text to one agent, at-most-once unless a test asks for
another delivery (a keyed one then carries a key of its own).
*/
import type { DeliveryMode, SendIntent } from '../../src/ledger/ledger.js';

export function intent(id: string, delivery: DeliveryMode = 'at-most-once'): SendIntent {
  return {
    id,
    tenant: 'acme',
    run: 'run-1',
    agent: { cardDigest: `sha256:${'c'.repeat(64)}`, binding: 'JSONRPC', url: 'https://agent.example/a2a' },
    message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: 'book the flight' }] },
    delivery,
    ...(delivery === 'keyed' ? { idempotencyKey: `key-${id}-0123456789` } : {}),
  };
}
