/**
@module
Everything the devtools derive from the client's inspector feed, in one reducer: the streams, the tasks, and a
count of calls and failures. The only inputs are the client's public events and the tasks the devtools fetched
themselves (CONTRIBUTING.md#devtools).
*/
import type { ClientEvent } from '@surecall/client';
import { emptyStreams, reduceStreams, type StreamsState } from './streams.js';
import { emptyTaskViews, reduceTaskViews, type TaskSnapshot, type TaskViews } from './task-view.js';

/** What the feed reducer takes: a client event, or a task the devtools fetched. */
export type FeedAction = ClientEvent | TaskSnapshot;

/** The derived state. */
export type FeedState = {
  readonly streams: StreamsState;
  readonly tasks: TaskViews;
  /** Client events received. */
  readonly events: number;
  /** Calls started (`request` events). */
  readonly calls: number;
  /** Calls that failed (`error` events). */
  readonly failures: number;
};

/** The state before any event. */
export const emptyFeed: FeedState = Object.freeze({
  streams: emptyStreams,
  tasks: emptyTaskViews,
  events: 0,
  calls: 0,
  failures: 0,
});

/**
Folds one action into the feed state.

@example
```ts
const [feed, dispatch] = useReducer(reduceFeed, emptyFeed);
useEffect(() => client.events.subscribe(dispatch), [client]);
```
*/
export function reduceFeed(state: FeedState, action: FeedAction): FeedState {
  if (action.type === 'task-snapshot') {
    return { ...state, tasks: reduceTaskViews(state.tasks, action) };
  }
  return {
    streams: reduceStreams(state.streams, action),
    tasks: reduceTaskViews(state.tasks, action),
    events: state.events + 1,
    calls: state.calls + (action.type === 'request' ? 1 : 0),
    failures: state.failures + (action.type === 'error' ? 1 : 0),
  };
}
