/**
@module
Connecting the standalone devtools to an agent: the connect form checked, the interface chosen from the card
(ARCHITECTURE.md#layers-of-the-client, the "trust" layer; A2A spec, §8.3.2: the card lists interfaces in the
agent's order of preference), and the form as a shareable query string.
*/
import type { AgentCard, InterfacePin, ProtocolBinding } from '@surecall/client';

/** The connect form, as the inputs hold it. */
export type ConnectForm = {
  readonly cardUrl: string;
  /** `auto` takes the card's first interface the client speaks. */
  readonly binding: ProtocolBinding | 'auto';
  /** The interface URL to pin; `''` for the chosen binding's first. */
  readonly pinUrl: string;
  readonly tenant: string;
  /** An expected card digest (`sha256:` and 64 hex digits); `''` to accept the card as fetched. */
  readonly digest: string;
  /** A bearer token; `''` for anonymous. Kept in memory only, never in the query string. */
  readonly token: string;
  /** The security scheme the token is for, as the card names it. */
  readonly scheme: string;
};

/** An empty form. */
export const emptyConnectForm: ConnectForm = Object.freeze({
  cardUrl: '',
  binding: 'auto',
  pinUrl: '',
  tenant: '',
  digest: '',
  token: '',
  scheme: 'bearer',
});

/** A checked form. */
export type ConnectRequest = {
  readonly cardUrl: string;
  readonly binding?: ProtocolBinding;
  readonly pinUrl?: string;
  readonly tenant?: string;
  readonly digest?: string;
  readonly bearer?: { readonly scheme: string; readonly token: string };
  /**
  The control token of a loopback mock agent (`npm run mock-agent`), from the card URL's `#mock-token=`
  fragment: the Faults panel sends it as `x-surecall-mock-token`.
  */
  readonly mockToken?: string;
};

/** A field to fix, and how. */
export type ConnectProblem = { readonly field: keyof ConnectForm; readonly message: string };

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const MOCK_TOKEN = /^mock-token=([A-Za-z0-9_-]{32,256})$/;

/**
The card URL without its fragment, and the mock agent's control token when the fragment is
`#mock-token=<token>` (what `npm run mock-agent -- --banner` prints;
docs/interop.md#loopback-server-security). A fragment never reaches a server, so the token stays in the page.

@example
```ts
splitMockToken('http://127.0.0.1:4100/.well-known/agent-card.json#mock-token=' + 'a'.repeat(43));
// { cardUrl: 'http://127.0.0.1:4100/.well-known/agent-card.json', mockToken: 'aaa…' }
```
*/
export function splitMockToken(text: string): { cardUrl: string; mockToken?: string } {
  const hash = text.indexOf('#');
  if (hash < 0) {
    return { cardUrl: text };
  }
  const token = MOCK_TOKEN.exec(text.slice(hash + 1))?.[1];
  return { cardUrl: text.slice(0, hash), ...(token === undefined ? {} : { mockToken: token }) };
}

function httpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
    );
  } catch {
    return false;
  }
}

/**
Checks the connect form.

@example
```ts
parseConnectForm({ ...emptyConnectForm, cardUrl: 'http://127.0.0.1:4100/.well-known/agent-card.json' });
// { ok: true, request: { cardUrl: 'http://127.0.0.1:4100/.well-known/agent-card.json' } }
```
*/
export function parseConnectForm(
  form: ConnectForm,
): { ok: true; request: ConnectRequest } | { ok: false; problem: ConnectProblem } {
  const fail = (field: keyof ConnectForm, message: string) => ({
    ok: false as const,
    problem: { field, message },
  });
  const { cardUrl, mockToken } = splitMockToken(form.cardUrl.trim());
  const pinUrl = form.pinUrl.trim();
  const tenant = form.tenant.trim();
  const digest = form.digest.trim().toLowerCase();
  const token = form.token.trim();
  const scheme = form.scheme.trim();
  if (!httpUrl(cardUrl)) {
    return fail('cardUrl', 'The card URL must be an http(s) URL without user or password');
  }
  if (pinUrl !== '' && !httpUrl(pinUrl)) {
    return fail('pinUrl', 'The interface URL must be an http(s) URL without user or password');
  }
  if (digest !== '' && !DIGEST.test(digest)) {
    return fail('digest', 'The digest is sha256: followed by 64 hexadecimal digits');
  }
  if (token !== '' && scheme === '') {
    return fail('scheme', 'Name the card’s security scheme the token is for');
  }
  return {
    ok: true,
    request: {
      cardUrl,
      ...(form.binding === 'auto' ? {} : { binding: form.binding }),
      ...(pinUrl === '' ? {} : { pinUrl }),
      ...(tenant === '' ? {} : { tenant }),
      ...(digest === '' ? {} : { digest }),
      ...(token === '' ? {} : { bearer: { scheme, token } }),
      ...(mockToken === undefined ? {} : { mockToken }),
    },
  };
}

const SPOKEN: readonly string[] = ['JSONRPC', 'HTTP+JSON'];

function sameUrl(left: string, right: string): boolean {
  try {
    return new URL(left).href === new URL(right).href;
  } catch {
    return false;
  }
}

/**
The interface to pin: the card's first (its order is the agent's preference) that has `protocolVersion` 1.0, a
binding the client speaks, and matches what the request names (binding, URL, tenant). `undefined` when none
does.

@example
```ts
choosePin(card, { cardUrl, binding: 'HTTP+JSON' }); // { binding: 'HTTP+JSON', url: 'http://…/a2a/rest' }
```
*/
export function choosePin(
  card: Pick<AgentCard, 'supportedInterfaces'>,
  request: Pick<ConnectRequest, 'binding' | 'pinUrl' | 'tenant'>,
): InterfacePin | undefined {
  const chosen = card.supportedInterfaces.find(
    (entry) =>
      entry.protocolVersion === '1.0' &&
      SPOKEN.includes(entry.protocolBinding) &&
      (request.binding === undefined || entry.protocolBinding === request.binding) &&
      (request.pinUrl === undefined || sameUrl(entry.url, request.pinUrl)) &&
      (request.tenant === undefined || entry.tenant === request.tenant),
  );
  if (chosen === undefined) {
    return undefined;
  }
  return {
    binding: chosen.protocolBinding as ProtocolBinding,
    url: chosen.url,
    ...(chosen.tenant === undefined ? {} : { tenant: chosen.tenant }),
  };
}

/**
The form as a query string, so a connection can be bookmarked; neither the bearer token nor the card URL's
fragment (a mock agent's control token) goes in it.

@example
```ts
connectQuery({ ...emptyConnectForm, cardUrl: 'http://127.0.0.1:4100/.well-known/agent-card.json' });
// 'card=http%3A%2F%2F127.0.0.1%3A4100%2F.well-known%2Fagent-card.json'
```
*/
export function connectQuery(form: ConnectForm): string {
  const query = new URLSearchParams({ card: splitMockToken(form.cardUrl.trim()).cardUrl });
  const optional: [string, string][] = [
    ['binding', form.binding === 'auto' ? '' : form.binding],
    ['pin', form.pinUrl.trim()],
    ['tenant', form.tenant.trim()],
    ['digest', form.digest.trim()],
  ];
  for (const [name, value] of optional) {
    if (value !== '') {
      query.set(name, value);
    }
  }
  return query.toString();
}

/**
The form a query string asks for, or `undefined` when it names no card (the page then runs the embedded mock
agent).

@example
```ts
formFromQuery('?card=http%3A%2F%2F127.0.0.1%3A4100%2F.well-known%2Fagent-card.json&binding=HTTP%2BJSON')?.binding; // 'HTTP+JSON'
```
*/
export function formFromQuery(search: string): ConnectForm | undefined {
  const query = new URLSearchParams(search);
  const cardUrl = query.get('card');
  if (cardUrl === null || cardUrl.trim() === '') {
    return undefined;
  }
  const binding = query.get('binding');
  return {
    ...emptyConnectForm,
    cardUrl,
    binding: binding === 'JSONRPC' || binding === 'HTTP+JSON' ? binding : 'auto',
    pinUrl: query.get('pin') ?? '',
    tenant: query.get('tenant') ?? '',
    digest: query.get('digest') ?? '',
  };
}
