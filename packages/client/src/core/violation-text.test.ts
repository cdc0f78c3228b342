import { describe, expect, it } from 'vitest';
import { DiscoveryError, InvalidResponseError, RequestError } from './errors.js';
import { violationText } from './violation-text.js';

describe('violationText', () => {
  it.each([
    [
      { rule: 'required', path: '$.tasks[0].status.state' },
      '$.tasks[0].status.state is required and missing (absent, null or its default)',
    ],
    [
      { rule: 'uri', path: '$.capabilities.extensions[0].uri' },
      '$.capabilities.extensions[0].uri must be an absolute URI (RFC 3986)',
    ],
    [
      { rule: 'duplicate-key', path: '$.task' },
      '$.task names one member twice (a JSON name twice, or the JSON and the proto name of one field)',
    ],
    [{ rule: 'syntax', offset: 12 }, 'byte 12 is not JSON'],
    [
      { rule: 'artifacts-not-requested', path: '$.tasks[0].artifacts' },
      '$.tasks[0].artifacts breaks rule artifacts-not-requested',
    ],
    [{ rule: 'toString' }, '$ breaks rule toString'],
  ])('words %j', (violation, text) => {
    expect(violationText(violation)).toBe(text);
  });

  it('is nothing without a violation', () => {
    expect(violationText(undefined)).toBeUndefined();
  });
});

describe('error messages name the rule that refused, never the value', () => {
  it('for an answer, a request and a card', () => {
    const answer = new InvalidResponseError('schema', {
      dispatched: true,
      violation: { rule: 'max-bytes', path: '$.task.history[0].parts[0].filename' },
    });
    expect(answer.message).toBe(
      'A2A client operation failed: invalid-response (schema): $.task.history[0].parts[0].filename is longer than its byte bound',
    );
    const request = new RequestError('invalid-params', {
      violation: { rule: 'role', path: '$.message.role' },
    });
    expect(request.message).toContain('$.message.role has the wrong role for its sender');
    const card = new DiscoveryError('InvalidAgentCard', {
      detail: 'schema',
      violation: { rule: 'url', path: '$.supportedInterfaces[0].url' },
    });
    expect(card.message).toBe(
      'surecall discovery failed: InvalidAgentCard (schema): $.supportedInterfaces[0].url must be an absolute URL with a host and no userinfo',
    );
  });
});
