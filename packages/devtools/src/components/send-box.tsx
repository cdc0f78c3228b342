import { useId, useState } from 'react';
import type { SendBox as SendBoxState } from '../hooks/use-send-box.js';
import type { SendMode } from '../model/send.js';
import { type DurableBox, DurableControls } from './durable-controls.js';
import { LatestSends } from './latest-sends.js';
import { SendPresets } from './send-presets.js';

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

/**
A line of text sent to the agent as a user message, unary or streamed, with presets for the mock agent's
behaviours and the latest sends' outcomes.

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
        {durable === undefined ? null : <DurableControls durable={durable} text={text} />}
      </form>
      <SendPresets
        streaming={streaming}
        onPreset={(preset) => {
          setText(preset.text);
          send(preset.mode, preset.text);
        }}
      />
      <LatestSends sends={box.sends} onOpenTask={onOpenTask} />
    </section>
  );
}
