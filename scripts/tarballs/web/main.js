// A web app as a user writes it: the mock agent in the page behind MSW's service worker (`@surecall/mocks/browser`),
// the client talking to it, and the panel, bundled by Vite for the browser. scripts/tarballs.sh builds it (refusing
// any `node:` import in the output: the ledger entry must pick IndexedDB here) and e2e/web.spec.ts opens it in Chromium.
import { discover, textPart, userMessage } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger';
import { SurecallDevtools } from '@surecall/devtools';
import '@surecall/devtools/styles.css';
import { createMockAgentWorker } from '@surecall/mocks/browser';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const mock = createMockAgentWorker({ stepMs: 0 });
await mock.start({ onUnhandledFrame: 'bypass', quiet: true });
// Served on a loopback http: origin by `vite preview`, so the card is taken as first fetched (local development).
const client = await discover({
  cardUrl: mock.cardUrl,
  pins: [{ binding: 'JSONRPC', url: new URL('/a2a/jsonrpc', location.href).href }],
  loopback: true,
  trust: { kind: 'first-fetch' },
  security: { kind: 'anonymous' },
});
const answer = await client.sendMessage({ message: userMessage([textPart('echo from the tarballs')]) });
const ledger = await openLedger({ name: 'sends' });
createRoot(document.getElementById('root')).render(createElement(SurecallDevtools, { client, ledger }));
document.getElementById('answer').textContent = 'message' in answer ? 'answered' : 'a task';
