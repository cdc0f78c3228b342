import { useEffect, useState } from 'react';

/**
Anything with a `subscribe(listener)` that returns its unsubscribe: a ledger, or a durable agent's `events`.
*/
export type Feed = { subscribe(listener: (item: unknown) => unknown): () => void };

/**
How many items a feed delivered since the devtools mounted, or only those `counts` accepts (a function that
must keep its identity across renders); `undefined` when no feed is given.

@example
```ts
const changes = useEventCount(ledger);
const duplicates = useEventCount(agent?.events, isDuplicated);
```
*/
export function useEventCount(
  feed: Feed | undefined,
  counts?: (item: unknown) => boolean,
): number | undefined {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (feed === undefined) {
      return undefined;
    }
    setCount(0);
    return feed.subscribe((item) => {
      if (counts === undefined || counts(item)) {
        setCount((seen) => seen + 1);
      }
    });
  }, [feed, counts]);
  return feed === undefined ? undefined : count;
}
