import { useEffect, useState } from 'react';

/** Anything with a `subscribe(listener)` that returns its unsubscribe: a ledger, or a durable agent's `events`. */
export type Feed = { subscribe(listener: (item: unknown) => unknown): () => void };

/**
How many items a feed delivered since the devtools mounted; `undefined` when no feed is given.

@example
```ts
const changes = useEventCount(ledger);
```
*/
export function useEventCount(feed: Feed | undefined): number | undefined {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (feed === undefined) {
      return undefined;
    }
    setCount(0);
    return feed.subscribe(() => setCount((seen) => seen + 1));
  }, [feed]);
  return feed === undefined ? undefined : count;
}
