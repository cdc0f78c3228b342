import { useCallback, useEffect, useRef, useState } from 'react';
import { SurecallDevtools } from '../components/devtools.js';
import { ConnectError, type Connection, connect } from './connect.js';
import { ConnectForm } from './connect-form.js';
import {
  type ConnectRequest,
  connectQuery,
  emptyConnectForm,
  type ConnectForm as Form,
  formFromQuery,
  parseConnectForm,
} from './connection.js';
import { type EmbeddedMock, startEmbeddedMock } from './mock-mode.js';
import { useDurable } from './use-durable.js';

type Phase =
  | { readonly phase: 'connecting'; readonly label: string }
  | {
      readonly phase: 'ready';
      readonly connection: Connection;
      readonly mock: boolean;
      readonly serial: number;
    }
  | { readonly phase: 'failed'; readonly label: string; readonly message: string };

// One worker per page, however often the app asks (React's development double effects included).
let embedded: Promise<EmbeddedMock> | undefined;

/** A worker that did not start is forgotten, so that the next attempt starts one afresh. */
async function embeddedCardUrl(): Promise<string> {
  embedded ??= startEmbeddedMock();
  try {
    return (await embedded).cardUrl;
  } catch (error) {
    embedded = undefined;
    throw new ConnectError(
      'fetch',
      'The embedded mock agent did not start (is mockServiceWorker.js served beside the page?)',
      { cause: error },
    );
  }
}

/**
Stops the embedded mock, if one runs: once the devtools connect elsewhere, nothing in this page may answer for
an agent (docs/interop.md#browsers).
*/
async function stopEmbedded(): Promise<void> {
  const running = embedded;
  embedded = undefined;
  if (running === undefined) {
    return;
  }
  try {
    (await running).stop();
  } catch {
    // A worker that never started has nothing to stop.
  }
}

function describe(error: unknown): string {
  return error instanceof ConnectError ? error.message : 'Connecting failed unexpectedly';
}

/** The devtools for one connection, with a durable agent over the IndexedDB ledger of that agent. */
function Connected({ connection }: { readonly connection: Connection }) {
  const durable = useDurable(connection.client);
  return (
    <>
      {durable.phase === 'failed' ? (
        <p className="error" role="alert">
          {durable.message}
        </p>
      ) : null}
      <SurecallDevtools
        client={connection.client}
        connection={{
          cardUrl: connection.cardUrl,
          trust: connection.trust,
          cardRequest: connection.cardRequest,
          pin: connection.pin,
          security: connection.security,
          extensions: connection.extensions,
        }}
        rawCard={connection.rawCard}
        faultLab={connection.origin}
        {...(connection.mockToken === undefined ? {} : { faultLabToken: connection.mockToken })}
        {...(durable.phase === 'ready'
          ? {
              ...(durable.agent === undefined ? {} : { agent: durable.agent }),
              ledger: durable.ledger,
              ledgerRole: durable.role,
              delivery: {
                choices: durable.choices,
                current: durable.delivery,
                onChoose: durable.choose,
                acknowledged: durable.acknowledged,
                onAcknowledge: durable.acknowledge,
                refusal: durable.refusal,
              },
            }
          : {})}
      />
    </>
  );
}

/**
The standalone devtools: starts the embedded mock agent (or connects to the agent named by `?card=`), then
shows {@link SurecallDevtools} for that client. Another agent can be entered by card URL and pin at any time;
connecting to it stops the embedded mock, so every answer the devtools show then comes from that agent.

@example
```tsx
createRoot(element).render(<App />);
```
*/
export function App() {
  const [phase, setPhase] = useState<Phase>({ phase: 'connecting', label: 'the embedded mock agent' });
  const [form, setForm] = useState<Form>(() => formFromQuery(location.search) ?? emptyConnectForm);
  // The connect form folds once a connection is asked for, and opens only when a person opens it.
  const [connectOpen, setConnectOpen] = useState(false);
  const [formSerial, setFormSerial] = useState(0);
  const serial = useRef(0);

  const open = useCallback(async (request: ConnectRequest | undefined) => {
    serial.current += 1;
    const mine = serial.current;
    const label = request === undefined ? 'the embedded mock agent' : request.cardUrl;
    setPhase({ phase: 'connecting', label });
    try {
      if (request !== undefined) {
        await stopEmbedded();
      }
      const connection = await connect(request ?? { cardUrl: await embeddedCardUrl() });
      if (mine === serial.current) {
        setPhase({ phase: 'ready', connection, mock: request === undefined, serial: mine });
      }
    } catch (error) {
      if (mine === serial.current) {
        setPhase({ phase: 'failed', label, message: describe(error) });
      }
    }
  }, []);

  useEffect(() => {
    const initial = formFromQuery(location.search);
    if (initial === undefined) {
      void open(undefined);
      return;
    }
    const parsed = parseConnectForm(initial);
    if (parsed.ok) {
      void open(parsed.request);
    } else {
      setPhase({ phase: 'failed', label: initial.cardUrl, message: parsed.problem.message });
    }
  }, [open]);

  const summary =
    phase.phase === 'ready'
      ? `${phase.mock ? 'Embedded mock agent' : phase.connection.client.card.name} · ${phase.connection.pin.binding} · ${phase.connection.pin.url}`
      : phase.phase === 'connecting'
        ? `Connecting to ${phase.label}…`
        : `Could not connect to ${phase.label}`;

  return (
    <div className="app surecall-devtools">
      <header className="app-header">
        <h1>surecall devtools</h1>
        <p className="app-connection" role="status" data-testid="connection">
          {summary}
        </p>
        <details
          className="app-connect"
          open={connectOpen}
          onToggle={(event) => setConnectOpen(event.currentTarget.open)}
        >
          <summary>Connect to another agent</summary>
          <ConnectForm
            // A fresh form each time it folds, so the token a person typed is not kept in its fields.
            key={formSerial}
            initial={form}
            busy={phase.phase === 'connecting'}
            onConnect={(request, filled) => {
              // The bearer token went to the connection; the form keeps everything but it, folded.
              setForm({ ...filled, token: '' });
              setFormSerial((serial) => serial + 1);
              setConnectOpen(false);
              history.replaceState(null, '', `?${connectQuery(filled)}`);
              void open(request);
            }}
          />
          <button
            type="button"
            onClick={() => {
              setConnectOpen(false);
              history.replaceState(null, '', location.pathname);
              void open(undefined);
            }}
          >
            Use the embedded mock agent
          </button>
        </details>
      </header>
      <main>
        {phase.phase === 'failed' ? (
          <p className="error" role="alert">
            {phase.message}
          </p>
        ) : null}
        {phase.phase === 'ready' ? <Connected key={phase.serial} connection={phase.connection} /> : null}
      </main>
    </div>
  );
}
