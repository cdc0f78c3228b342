import type { A2aClient } from '@surecall/client';
import { type ActionDispatch, useEffect, useReducer } from 'react';
import { emptyFeed, type FeedAction, type FeedState, reduceFeed } from '../model/feed.js';

/**
The devtools' one subscription to the client's inspector feed, folded by {@link reduceFeed}. The returned
`dispatch` also takes the tasks the panels fetch (`task-snapshot`), so they join the same history in arrival
order. Events from before the first render are not seen: mount the devtools before the calls to watch.

@example
```ts
const [feed, dispatch] = useFeed(client);
```
*/
export function useFeed(client: Pick<A2aClient, 'events'>): [FeedState, ActionDispatch<[FeedAction]>] {
  const [feed, dispatch] = useReducer(reduceFeed, emptyFeed);
  const { events } = client;
  useEffect(() => events.subscribe(dispatch), [events]);
  return [feed, dispatch];
}
