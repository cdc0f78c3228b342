// A web app as a user writes it: the panel and the client, bundled by Vite for the browser. scripts/tarballs.sh
// builds it and refuses any `node:` import in the output (the ledger entry must pick IndexedDB here).
import { discover } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger';
import { SurecallDevtools } from '@surecall/devtools';
import '@surecall/devtools/styles.css';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const cardUrl = new URL('/.well-known/agent-card.json', location.href).href;
const client = await discover({
  cardUrl,
  pins: [{ binding: 'JSONRPC', url: new URL('/a2a/jsonrpc', location.href).href }],
  trust: { kind: 'tls' },
  security: { kind: 'anonymous' },
});
const ledger = await openLedger({ name: 'sends' });
createRoot(document.getElementById('root')).render(createElement(SurecallDevtools, { client, ledger }));
