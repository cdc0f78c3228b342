import type { DurableAgent } from '@surecall/client';
import { useState } from 'react';
import { describeRefusal } from '../model/sends.js';

/** The send box's durable send, and why the last one was refused. */
export type DurableSend = {
  /** Sends `text` as a user message through the durable agent; absent without one. */
  readonly send: ((text: string) => void) | undefined;
  /** Why the last durable send was refused before anything left, if it was. */
  readonly problem: string | undefined;
};

/**
Sends through the durable agent, calling `onStart` first (the devtools show the Sends panel, where the send's
record appears); a refusal becomes a public-safe line ({@link describeRefusal}).

@example
```ts
const durable = useDurableSend(agent, () => navigation.select('sends'));
durable.send?.('book it');
```
*/
export function useDurableSend(
  agent: Pick<DurableAgent, 'send'> | undefined,
  onStart: () => void,
): DurableSend {
  const [problem, setProblem] = useState<string | undefined>(undefined);
  if (agent === undefined) {
    return { send: undefined, problem };
  }
  const send = async (text: string): Promise<void> => {
    setProblem(undefined);
    onStart();
    try {
      await agent.send({ role: 'ROLE_USER', parts: [{ text }] });
    } catch (error) {
      setProblem(describeRefusal(error));
    }
  };
  return { send: (text) => void send(text), problem };
}
