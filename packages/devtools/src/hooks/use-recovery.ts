import type { DurableEvents } from '@surecall/client';
import { useEffect, useState } from 'react';
import { type RecoverySpan, recoverySpans } from '../model/recovery.js';

/**
The reconciliations a durable agent ran since the panel mounted, as spans (oldest first).

@example
```ts
const spans = useRecovery(agent?.events);
```
*/
export function useRecovery(events: DurableEvents | undefined): readonly RecoverySpan[] {
  const [spans, setSpans] = useState<readonly RecoverySpan[]>([]);
  useEffect(() => {
    setSpans([]);
    return events?.subscribe((event) => setSpans((held) => recoverySpans(held, event)));
  }, [events]);
  return spans;
}
