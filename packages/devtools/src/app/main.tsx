/// <reference types="vite/client" />
/**
@module
The standalone devtools page: `npm start` serves it on 127.0.0.1 with the mock agent running in the page.
Opened from `surecall devtools --ledger …` (its link carries `#ledger=<token>`), it shows that ledger
read-only instead.
*/
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LedgerPage } from '../ledger-source/ledger-page.js';
import { ledgerSourceFromHash } from '../ledger-source/remote-ledger.js';
import { App } from './app.js';
import '../styles.css';
import './app.css';

const root = document.getElementById('root');
if (root === null) {
  throw new Error('index.html has no #root element');
}
const ledgerSource = ledgerSourceFromHash(location.hash, location.origin);
createRoot(root).render(
  <StrictMode>{ledgerSource === undefined ? <App /> : <LedgerPage source={ledgerSource} />}</StrictMode>,
);
