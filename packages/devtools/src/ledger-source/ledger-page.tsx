import type { Ledger } from '@surecall/client/ledger';
import { useEffect, useState } from 'react';
import { SendsPanel } from '../components/sends-panel.js';
import { useSends } from '../hooks/use-sends.js';
import { type LedgerSource, openRemoteLedger } from './remote-ledger.js';

/**
The devtools page of `surecall devtools --ledger …`: the Sends panel over the read-only endpoint of the server
that served the page, without an agent (README.md#the-surecall-command). Reconciling stays a shell's job
(`surecall sends reconcile`), so the inbox has no Reconcile action, and the page offers no import: it shows
the ledger it was served, and nothing it cannot do.

@example
```tsx
const source = ledgerSourceFromHash(location.hash, location.origin);
if (source) createRoot(element).render(<LedgerPage source={source} />);
```
*/
export function LedgerPage({ source }: { readonly source: LedgerSource }) {
  const [ledger, setLedger] = useState<Ledger | undefined>(undefined);
  useEffect(() => {
    // Opened per effect run, so React's development double effects close one and keep the other.
    const opened = openRemoteLedger(source);
    setLedger(opened);
    return () => {
      void opened.close();
    };
  }, [source]);
  const sends = useSends(ledger);
  return (
    <div className="app surecall-devtools">
      <header className="app-header">
        <h1>surecall devtools</h1>
        <p className="app-connection" role="status" data-testid="connection">
          Ledger served by <span className="mono">surecall devtools</span>, read-only · {source.origin}
        </p>
      </header>
      <main className="ledger-page">
        <SendsPanel sends={sends} importer={false} />
      </main>
    </div>
  );
}
