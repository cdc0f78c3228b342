import type { A2aClient } from '@surecall/client';
import { useCallback, useState } from 'react';
import { errorRecord } from '../model/format.js';
import {
  type SendMode,
  type SendRecord,
  sendAnswered,
  sendEnded,
  sendFailed,
  sendStarted,
  sendStreamed,
  userMessage,
  withSend,
} from '../model/send.js';

/** The send box's state and its one action. */
export type SendBox = {
  /** Newest first. */
  readonly sends: readonly SendRecord[];
  /**
  Sends `text` as a new user message, unary or streamed; resolves when the answer or the stream is over.
  */
  send(text: string, mode: SendMode, contextId?: string): Promise<void>;
};

/**
Drives the client from the send box, keeping a record per send. The frames and the tasks reach the other
panels through the client's events, not through this hook.

@example
```ts
const { sends, send } = useSendBox(client);
await send('task alpha beta gamma', 'stream');
```
*/
export function useSendBox(client: Pick<A2aClient, 'sendMessage' | 'sendStreamingMessage'>): SendBox {
  const [sends, setSends] = useState<readonly SendRecord[]>([]);
  const send = useCallback(
    async (text: string, mode: SendMode, contextId?: string) => {
      const message = userMessage(text, crypto.randomUUID(), contextId);
      let record = sendStarted(message, mode, Date.now());
      const show = (next: SendRecord): void => {
        record = next;
        setSends((held) => withSend(held, next));
      };
      show(record);
      try {
        if (mode === 'send') {
          show(sendAnswered(record, await client.sendMessage({ message })));
          return;
        }
        for await (const event of client.sendStreamingMessage({ message })) {
          show(sendStreamed(record, event));
        }
        show(sendEnded(record));
      } catch (error) {
        show(sendFailed(record, errorRecord(error)));
      }
    },
    [client],
  );
  return { sends, send };
}
