import type { A2aClient } from '@surecall/client';
import { type ActionDispatch, useCallback, useEffect, useRef, useState } from 'react';
import type { FeedAction } from '../model/feed.js';
import { errorRecord, formatError } from '../model/format.js';

/** How many history messages the detail asks GetTask for. */
export const detailHistoryLength = 50;

/** Where a live subscription is. */
export type LiveState = 'idle' | 'subscribed' | 'ended' | 'stopped' | 'failed';

/** The task detail's actions and their state. */
export type TaskDetail = {
  readonly refreshing: boolean;
  readonly live: LiveState;
  /** The last action's error, as one line. */
  readonly error: string | undefined;
  refresh(): Promise<void>;
  subscribe(): Promise<void>;
  stop(): void;
};

/**
GetTask and SubscribeToTask for one task. A fetched task goes to the feed as a snapshot; a subscription's
events reach the feed through the client's own events, so this hook only drives the stream, and stops it
through the call's `signal`.

@example
```ts
const detail = useTaskDetail(client, taskId, dispatch);
await detail.subscribe();
```
*/
export function useTaskDetail(
  client: Pick<A2aClient, 'getTask' | 'subscribeToTask'>,
  taskId: string,
  dispatch: ActionDispatch<[FeedAction]>,
): TaskDetail {
  const [refreshing, setRefreshing] = useState(false);
  const [live, setLive] = useState<LiveState>('idle');
  const [error, setError] = useState<string | undefined>(undefined);
  const stopper = useRef<AbortController | undefined>(undefined);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    setError(undefined);
    try {
      const task = await client.getTask({ id: taskId, historyLength: detailHistoryLength });
      dispatch({ type: 'task-snapshot', task, at: Date.now() });
    } catch (thrown) {
      setError(formatError(errorRecord(thrown)));
    } finally {
      setRefreshing(false);
    }
  }, [client, dispatch, taskId]);

  const stop = useCallback(() => {
    stopper.current?.abort();
    stopper.current = undefined;
  }, []);

  const subscribe = useCallback(async () => {
    stop();
    const controller = new AbortController();
    stopper.current = controller;
    setLive('subscribed');
    setError(undefined);
    try {
      for await (const _event of client.subscribeToTask({ id: taskId }, { signal: controller.signal })) {
        // The events reach the panels through client.events; the loop only keeps the stream open until it
        // ends or is stopped.
      }
      setLive('ended');
    } catch (thrown) {
      if (controller.signal.aborted) {
        setLive('stopped');
      } else {
        setLive('failed');
        setError(formatError(errorRecord(thrown)));
      }
    } finally {
      if (stopper.current === controller) {
        stopper.current = undefined;
      }
    }
  }, [client, stop, taskId]);

  // A new task, or leaving the panel, ends the subscription and starts from the task as it stands.
  useEffect(() => {
    setLive('idle');
    setError(undefined);
    void refresh();
    return stop;
  }, [refresh, stop]);

  return { refreshing, live, error, refresh, subscribe, stop };
}
