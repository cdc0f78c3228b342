// The client's page as a user writes it, built by every bundler of scripts/tarballs/bundlers.mjs (main.js
// starts it; Next's page starts it in an effect): it
// discovers the installed mock agent on loopback (its origin in the page's `?agent=`), sends it one message,
// keeps one durable send in the browser's ledger and reads it back from the ledger opened again, then says
// in `#answer` what happened. A store opened again still holding the send is no volatile store: the page
// must get IndexedDB (`@surecall/client/ledger` under the `browser` condition).
import { discover, durableAgent, textPart, userMessage } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger';

async function run() {
  const agent = new URL(globalThis.location.href).searchParams.get('agent');
  const client = await discover({
    cardUrl: `${agent}/.well-known/agent-card.json`,
    pins: [{ binding: 'JSONRPC', url: `${agent}/a2a/jsonrpc` }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
  });
  const answer = await client.sendMessage({ message: userMessage([textPart('echo from a bundled page')]) });
  if (!('message' in answer)) {
    return 'a task, not the echo';
  }
  const name = `bundled-${crypto.randomUUID()}`;
  const ledger = await openLedger({ name });
  const sent = await durableAgent({ client, ledger }).send({ role: 'ROLE_USER', parts: [textPart('kept')] });
  await ledger.close();
  const again = await openLedger({ name });
  const records = await again.list();
  await again.close();
  const kept = records.some((record) => record.state.status === 'committed');
  return `answered; durable ${sent.status}; ${kept ? 'kept' : 'lost'} across a reopen`;
}

/** Runs the page and writes its outcome into `#answer`. */
export function start() {
  run().then(
    (text) => {
      document.getElementById('answer').textContent = text;
    },
    (error) => {
      document.getElementById('answer').textContent = `failed: ${error?.name}: ${error?.message}`;
    },
  );
}
