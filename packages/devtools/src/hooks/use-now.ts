import { useEffect, useState } from 'react';

/**
The current time, refreshed every `intervalMs` while `active` (an open stream's idle meter), still otherwise.

@example
```ts
const now = useNow(stream.status === 'open');
```
*/
export function useNow(active: boolean, intervalMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) {
      setNow(Date.now());
      return undefined;
    }
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
