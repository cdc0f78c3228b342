import { describe, expect, it } from 'vitest';
import { cardRequestLabel, honoursLabel, pinNote, securityLabel, trustLabel, yesNo } from './agent-labels.js';

describe('the Agent panel’s labels', () => {
  it.each([
    [true, 'yes'],
    [false, 'no'],
  ] as const)('yesNo(%s) is %s', (value, label) => {
    expect(yesNo(value)).toBe(label);
  });

  it.each([
    ['tls', 'TLS: the https card URL’s verified server'],
    ['expected-digest', 'the digest given when connecting'],
    ['first-fetch-digest', 'the digest of the first fetch (a loopback http card; TLS cannot vouch for it)'],
  ] as const)('trust %s reads “%s”', (trust, label) => {
    expect(trustLabel(trust)).toBe(label);
  });

  it.each([
    ['versioned', 'GET with A2A-Version: 1.0'],
    ['plain-fallback', 'a plain GET: the agent refused the preflight A2A-Version causes'],
  ] as const)('card request %s reads “%s”', (request, label) => {
    expect(cardRequestLabel(request)).toBe(label);
  });

  it.each([
    ['connection', 'as pinned'],
    ['inferred', 'inferred: the only 1.0 interface of this binding'],
    ['ambiguous', 'the card lists several interfaces of this binding; the pin was not reported'],
  ] as const)('a pin from %s reads “%s”', (source, note) => {
    expect(pinNote(source)).toBe(note);
  });

  it.each([
    ['yes', 'yes, says the client'],
    ['no', 'no, says the client'],
    ['unknown', 'unknown: this client does not report it'],
  ] as const)('honouring %s reads “%s”', (honours, label) => {
    expect(honoursLabel(honours)).toBe(label);
  });

  it.each([
    [undefined, 'not reported'],
    [{ kind: 'anonymous' }, 'anonymous'],
    [{ kind: 'bearer', scheme: 'bearer' }, 'bearer token, scheme “bearer”'],
  ] as const)('security %j reads “%s”', (security, label) => {
    expect(securityLabel(security)).toBe(label);
  });
});
