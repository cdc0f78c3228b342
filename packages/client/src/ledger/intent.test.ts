import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contractBounds } from '../protocol/bounds.js';
import { labelRule } from '../protocol/text.js';
import { decodeLedger } from './decoding.js';
import { plainIntent, SendIntent } from './intent.js';

const digest = `sha256:${'c'.repeat(64)}`;

function intent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'send-1',
    tenant: 'acme',
    run: 'nightly-42',
    agent: { cardDigest: digest, binding: 'JSONRPC', url: 'https://agent.example/a2a' },
    message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'book the 9:40 to Lyon' }] },
    delivery: 'at-most-once',
    ...overrides,
  };
}

/** The schema path of `Ledger.create` (engine.ts): the message copied as JSON, then the intent decoded. */
function viaSchema(input: Record<string, unknown>) {
  const message = input['message'] === undefined ? undefined : JSON.parse(JSON.stringify(input['message']));
  return decodeLedger(SendIntent, { ...input, message });
}

class Intent {
  constructor(fields: Record<string, unknown>) {
    Object.assign(this, fields);
  }
}

describe('plainIntent: the intent most callers write, without the schemas', () => {
  it.each([
    ['at-most-once', intent()],
    ['keyed', intent({ delivery: 'keyed', idempotencyKey: 'key-1' })],
    ['message-id-deduplicated', intent({ delivery: 'message-id-deduplicated' })],
    [
      'a pinned tenant',
      intent({
        agent: { cardDigest: digest, binding: 'HTTP+JSON', url: 'http://127.0.0.1:8080/a2a', tenant: 't-1' },
      }),
    ],
    [
      'a context and a task',
      intent({
        message: {
          role: 'ROLE_USER',
          parts: [{ text: '' }],
          contextId: 'c-1',
          taskId: 't-1',
          messageId: 'm-2',
        },
      }),
    ],
    [
      '128 text parts',
      intent({
        message: {
          messageId: 'm-3',
          role: 'ROLE_USER',
          parts: Array.from({ length: 128 }, () => ({ text: 'é' })),
        },
      }),
    ],
  ])('accepts %s as the schema decodes it, member order included, sharing no object', (_, input) => {
    const plain = plainIntent(input);
    const decoded = viaSchema(input);
    expect(decoded.ok).toBe(true);
    expect(plain).toStrictEqual(decoded.value);
    expect(JSON.stringify(plain)).toBe(JSON.stringify(decoded.value));
    expect(plain?.agent).not.toBe(input['agent']);
    expect(plain?.message).not.toBe(input['message']);
    expect(plain?.message.parts).not.toBe((input['message'] as { parts: unknown }).parts);
    expect(plain?.message.parts[0]).not.toBe((input['message'] as { parts: unknown[] }).parts[0]);
  });

  it.each([
    ['an explicit undefined member', intent({ idempotencyKey: undefined })],
    ['an unknown member', intent({ note: 'x' })],
    ['a class instance', new Intent(intent()) as unknown as Record<string, unknown>],
    [
      'message metadata',
      intent({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }], metadata: { a: 1 } } }),
    ],
    ['a data part', intent({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ data: { a: 1 } }] } })],
    [
      'a part with metadata',
      intent({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x', metadata: {} }] } }),
    ],
    ['a role number', intent({ message: { messageId: 'm', role: 1, parts: [{ text: 'x' }] } })],
    ['no parts', intent({ message: { messageId: 'm', role: 'ROLE_USER', parts: [] } })],
    ['a key without keyed delivery', intent({ idempotencyKey: 'k' })],
    ['keyed delivery without a key', intent({ delivery: 'keyed' })],
    [
      'a URL with userinfo',
      intent({ agent: { cardDigest: digest, binding: 'JSONRPC', url: 'https://u:p@h/' } }),
    ],
    [
      'an uppercase digest',
      intent({ agent: { cardDigest: digest.toUpperCase(), binding: 'JSONRPC', url: 'https://h/' } }),
    ],
    ['a label with surrounding space', intent({ run: ' nightly' })],
  ])('leaves %s to the schema', (_, input) => {
    expect(plainIntent(input)).toBeUndefined();
  });

  it('reads each member once, so an accessor cannot swap a value after its check', () => {
    let reads = 0;
    const message = {
      role: 'ROLE_USER',
      parts: [{ text: 'x' }],
      get messageId() {
        reads++;
        return reads === 1 ? 'm-1' : ' not an id';
      },
    };
    const plain = plainIntent(intent({ message }));
    expect(plain?.message.messageId).toBe('m-1');
    expect(reads).toBe(1);
  });

  // Strings at and around every rule: lengths at the bounds (in UTF-8 bytes), surrounding whitespace,
  // controls, lone surrogates; mostly valid, so that the generated intents reach the fast path often.
  const validLabel = fc
    .string({ minLength: 1, maxLength: 8 })
    .filter((value) => labelRule(value, contractBounds.idBytes) === undefined);
  const edge = fc.constantFrom(
    '',
    ' a',
    'a ',
    'a\u0000b',
    'a\u0085b',
    '\ud800',
    '\u00a0x',
    'x'.repeat(512),
    'x'.repeat(513),
    'é'.repeat(256),
    'é'.repeat(257),
  );
  const anything = fc.oneof(edge, fc.integer(), fc.constant(null), fc.constant(undefined), fc.constant({}));
  const member = <T>(value: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 12, arbitrary: value }, { weight: 1, arbitrary: anything });
  const text = member(fc.oneof({ weight: 6, arbitrary: validLabel }, { weight: 1, arbitrary: edge }));
  const part = fc.oneof(
    { weight: 12, arbitrary: fc.record({ text: member(fc.string({ maxLength: 8 })) }) },
    { weight: 1, arbitrary: fc.record({ text: fc.string(), metadata: fc.constant({}) }) },
    { weight: 1, arbitrary: fc.record({ data: fc.jsonValue({ maxDepth: 1 }) }) },
    { weight: 1, arbitrary: anything },
  );
  /** Adds an unknown member now and then. */
  const sometimesExtra = <T extends object>(value: fc.Arbitrary<T>) =>
    fc
      .tuple(value, fc.nat(15), anything)
      .map(([object, dice, extra]) => (dice === 0 ? { ...object, extra } : object));
  const message = sometimesExtra(
    fc.record(
      {
        messageId: text,
        contextId: text,
        taskId: text,
        role: member(
          fc.oneof(
            { weight: 6, arbitrary: fc.constant('ROLE_USER') },
            { weight: 1, arbitrary: fc.constantFrom('ROLE_AGENT', 'ROLE_UNSPECIFIED') },
          ),
        ),
        parts: fc.oneof(
          { weight: 12, arbitrary: fc.array(part, { minLength: 1, maxLength: 3 }) },
          { weight: 1, arbitrary: fc.constant([]) },
          { weight: 1, arbitrary: fc.constant(Array.from({ length: 129 }, () => ({ text: 'x' }))) },
        ),
      },
      { requiredKeys: ['messageId', 'role', 'parts'] },
    ),
  );
  /** `valid` most of the time, else one of `invalid`. */
  const mostly = <T>(valid: T, ...invalid: T[]) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(valid) },
      { weight: 1, arbitrary: fc.constantFrom(...invalid) },
    );
  const agent = sometimesExtra(
    fc.record(
      {
        cardDigest: member(
          mostly(digest, `sha256:${'C'.repeat(64)}`, 'sha256:abc', `sha256:${'0'.repeat(64)}`),
        ),
        binding: member(mostly<string>('JSONRPC', 'HTTP+JSON', 'GRPC')),
        url: member(
          mostly(
            'https://agent.example/a2a',
            'http://127.0.0.1:8080/a2a',
            'urn:example:a2a',
            'https://u:p@agent.example/',
            ' https://agent.example/',
            'not a url',
            `https://agent.example/${'a'.repeat(4100)}`,
          ),
        ),
        tenant: text,
      },
      { requiredKeys: ['cardDigest', 'binding', 'url'] },
    ),
  );
  const intents = sometimesExtra(
    fc.record(
      {
        id: text,
        tenant: text,
        run: text,
        agent: member(agent),
        message: member(message),
        delivery: member(fc.constantFrom('at-most-once', 'keyed', 'message-id-deduplicated', 'twice')),
        idempotencyKey: text,
      },
      { requiredKeys: ['id', 'tenant', 'run', 'agent', 'message', 'delivery'] },
    ),
  )
    // Mostly a key exactly when the delivery is keyed, as checkIntent requires.
    .chain((input) =>
      fc.nat(7).map((dice) => {
        if (dice === 0) {
          return input;
        }
        const { idempotencyKey, ...rest } = input;
        return input.delivery === 'keyed' ? { ...rest, idempotencyKey: idempotencyKey ?? 'key-1' } : rest;
      }),
    );

  it('accepts only what the schema accepts, and decodes it alike (property)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(intents, (input) => {
        const plain = plainIntent(input);
        if (plain === undefined) {
          return;
        }
        accepted++;
        const decoded = viaSchema(input);
        expect(decoded.ok).toBe(true);
        expect(JSON.stringify(plain)).toBe(JSON.stringify(decoded.value));
        expect(plain).toStrictEqual(decoded.value);
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the fast path often enough for the property to say something.
    expect(accepted).toBeGreaterThan(30);
  });

  it('accepts every valid intent of the common shape (property)', () => {
    const label = fc
      .string({ minLength: 1, maxLength: 16 })
      .filter((value) => labelRule(value, contractBounds.idBytes) === undefined);
    const valid = fc.record({
      id: label,
      tenant: label,
      run: label,
      agent: fc.record({
        cardDigest: fc.constant(digest),
        binding: fc.constantFrom('JSONRPC', 'HTTP+JSON'),
        url: fc.constant('https://agent.example/a2a'),
      }),
      message: fc.record({
        messageId: label,
        role: fc.constant('ROLE_USER'),
        parts: fc.array(fc.record({ text: fc.string() }), { minLength: 1, maxLength: 4 }),
      }),
      delivery: fc.constantFrom('at-most-once', 'message-id-deduplicated'),
    });
    fc.assert(
      fc.property(valid, (input) => {
        expect(viaSchema(input).ok).toBe(true);
        expect(plainIntent(input)).toBeDefined();
      }),
    );
  });
});
