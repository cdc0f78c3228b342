import type { LedgerRole } from '../model/durable-setup.js';
import type { FeedState } from '../model/feed.js';

/** Props of {@link FeedStatus}. */
export type FeedStatusProps = {
  readonly feed: Pick<FeedState, 'events' | 'calls' | 'failures'>;
  /** The durable agent's events so far; `undefined` without an agent. */
  readonly agentEvents: number | undefined;
  /**
  Sends found to have run more than once (docs/durable-send.md#duplicated); `undefined` without an agent.
  */
  readonly duplicates: number | undefined;
  /** The ledger's changes so far; `undefined` without a ledger. */
  readonly ledgerChanges: number | undefined;
  readonly ledgerRole: LedgerRole | undefined;
};

/**
The status line beside the tabs: what the client, the durable agent and the ledger did since the devtools
mounted, and whether this tab writes the ledger.

@example
```tsx
<FeedStatus feed={feed} agentEvents={3} duplicates={0} ledgerChanges={5} ledgerRole="writer" />
```
*/
export function FeedStatus({ feed, agentEvents, duplicates, ledgerChanges, ledgerRole }: FeedStatusProps) {
  return (
    <span data-testid="feed-status">
      client: {feed.events} events · {feed.calls} calls · {feed.failures} failed
      {agentEvents === undefined ? '' : ` · durable agent: ${agentEvents} events`}
      {duplicates === undefined || duplicates === 0 ? null : (
        <span data-testid="duplicated-count"> · {duplicates} duplicated</span>
      )}
      {ledgerChanges === undefined ? '' : ` · ledger: ${ledgerChanges} changes`}
      {ledgerRole === undefined ? null : (
        <span data-testid="ledger-role">
          {ledgerRole === 'writer'
            ? ' · this tab writes the ledger'
            : ' · this tab follows the ledger (read-only)'}
        </span>
      )}
    </span>
  );
}
