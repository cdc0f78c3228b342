/**
The client a bench worker process sends with: the mock agent on loopback, its card taken as first fetched
(README.md#local-development), pinned to its JSON-RPC interface.
*/
import { type A2aClient, discover } from '@surecall/client';

export function loopbackClient(cardUrl: string): Promise<A2aClient> {
  return discover({
    cardUrl,
    pins: [{ binding: 'JSONRPC', url: new URL('/a2a/jsonrpc', cardUrl).href }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
  });
}
