import { useId, useState } from 'react';
import type { SendBox as SendBoxState } from '../hooks/use-send-box.js';
import type { DevtoolsDelivery } from '../model/durable-setup.js';
import { formatClock, shortId } from '../model/format.js';
import { type SendMode, sendPresets } from '../model/send.js';

/** Props of {@link SendBox}. */
export type SendBoxProps = {
  readonly box: SendBoxState;
  /** Whether the card allows SendStreamingMessage. */
  readonly streaming: boolean;
  /** Shows a task the send created. */
  onOpenTask(taskId: string): void;
  /** A durable agent to send through (“Durable send”), and the delivery modes a person may choose. */
  readonly durable?: DurableBox;
};

/** The send box's durable side: `send` is absent while the chosen delivery is refused. */
export type DurableBox = {
  send?(text: string): void;
  readonly delivery?: {
    readonly choices: readonly DevtoolsDelivery[];
    readonly current: DevtoolsDelivery;
    onChoose(delivery: DevtoolsDelivery): void;
    readonly acknowledged?: boolean;
    onAcknowledge?(acknowledged: boolean): void;
    readonly refusal?: string | undefined;
  };
};

/**
A line of text sent to the agent as a user message, unary or streamed, with presets for the mock agent's behaviours and the latest sends' outcomes.

@example
```tsx
<SendBox box={useSendBox(client)} streaming={client.card.capabilities.streaming} onOpenTask={show} />
```
*/
export function SendBox({ box, streaming, onOpenTask, durable }: SendBoxProps) {
  const [text, setText] = useState('task alpha beta gamma');
  const [contextId, setContextId] = useState('');
  const id = useId();
  const send = (mode: SendMode, line = text): void => {
    if (line.trim() !== '') {
      void box.send(line, mode, contextId.trim());
    }
  };
  return (
    <section className="send-box" aria-label="Send a message">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          send('send');
        }}
      >
        <label htmlFor={`${id}-text`}>Message</label>
        <input
          id={`${id}-text`}
          className="grow"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <label htmlFor={`${id}-context`}>Context id</label>
        <input
          id={`${id}-context`}
          size={12}
          placeholder="new"
          value={contextId}
          onChange={(event) => setContextId(event.target.value)}
        />
        <button type="submit">Send</button>
        <button type="button" disabled={!streaming} onClick={() => send('stream')}>
          Send streaming
        </button>
        {durable === undefined ? null : (
          <>
            <button
              type="button"
              title="Recorded in the ledger before it leaves; a lost answer becomes an unknown outcome to reconcile"
              disabled={durable.send === undefined}
              onClick={() => {
                if (text.trim() !== '') {
                  durable.send?.(text);
                }
              }}
            >
              Durable send
            </button>
            {durable.delivery === undefined ? null : (
              <>
                <label htmlFor={`${id}-delivery`}>Delivery</label>
                <select
                  id={`${id}-delivery`}
                  value={durable.delivery.current}
                  onChange={(event) => {
                    const chosen = durable.delivery?.choices.find((choice) => choice === event.target.value);
                    if (chosen !== undefined) {
                      durable.delivery?.onChoose(chosen);
                    }
                  }}
                >
                  {durable.delivery.choices.map((choice) => (
                    <option key={choice} value={choice}>
                      {choice}
                    </option>
                  ))}
                </select>
                {durable.delivery.current !== 'at-most-once' ||
                durable.delivery.onAcknowledge === undefined ? null : (
                  <label className="acknowledge small">
                    <input
                      type="checkbox"
                      checked={durable.delivery.acknowledged === true}
                      onChange={(event) => durable.delivery?.onAcknowledge?.(event.target.checked)}
                    />{' '}
                    The browser may send it twice (audited)
                  </label>
                )}
              </>
            )}
            {durable.delivery?.refusal === undefined ? null : (
              <p className="small muted" data-testid="durable-refusal">
                {durable.delivery.refusal}
              </p>
            )}
          </>
        )}
      </form>
      <fieldset className="presets">
        <legend>Presets</legend>
        {sendPresets.map((preset) => (
          <button
            key={preset.label}
            type="button"
            className="preset"
            disabled={preset.mode === 'stream' && !streaming}
            onClick={() => {
              setText(preset.text);
              send(preset.mode, preset.text);
            }}
          >
            {preset.label}: <span className="mono">{preset.text}</span>
            {preset.mode === 'stream' ? ' (streamed)' : ''}
          </button>
        ))}
      </fieldset>
      {box.sends.length === 0 ? null : (
        <ol className="sends" aria-label="Latest sends" aria-live="polite">
          {box.sends.slice(0, 4).map((record) => (
            <li key={record.messageId} className={`send status-${record.status}`} data-testid="send">
              <span className="mono small">{formatClock(record.startedAt)}</span>{' '}
              <span className="mono small" title={record.messageId}>
                {shortId(record.messageId)}
              </span>{' '}
              <span>“{record.text}”</span> → <span data-testid="send-outcome">{record.outcome}</span>
              {record.mode === 'stream' ? (
                <span className="muted small"> · {record.events} events</span>
              ) : null}
              {record.taskId === undefined ? null : (
                <>
                  {' '}
                  <button type="button" className="link" onClick={() => onOpenTask(record.taskId ?? '')}>
                    open task
                  </button>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
