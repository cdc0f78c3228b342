import type { A2aClient } from '@surecall/client';
import { useEffect, useState } from 'react';
import { type CallLog, emptyCallLog, reduceCallLog } from '../model/call-log.js';

/**
The log of `client`'s unary calls since the devtools mounted (`model/call-log.ts`), from its public events.

@example
```ts
const log = useCallLog(client);
```
*/
export function useCallLog(client: Pick<A2aClient, 'events'>): CallLog {
  const [log, setLog] = useState<CallLog>(emptyCallLog);
  useEffect(() => {
    setLog(emptyCallLog);
    return client.events.subscribe((event) => setLog((held) => reduceCallLog(held, event)));
  }, [client.events]);
  return log;
}
