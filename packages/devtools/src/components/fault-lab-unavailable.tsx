/** Props of {@link FaultLabUnavailable}. */
export type FaultLabUnavailableProps = {
  readonly origin: string;
  /** Why the lab did not answer, public-safe. */
  readonly reason: string;
  onRetry(): void;
};

/**
What the Faults panel shows while no fault lab answers at `origin`: why, where one can be had, and a retry.

@example
```tsx
<FaultLabUnavailable origin={origin} reason="The fault lab failed" onRetry={() => void lab.refresh()} />
```
*/
export function FaultLabUnavailable({ origin, reason, onRetry }: FaultLabUnavailableProps) {
  return (
    <div className="empty">
      <p>
        No mock fault lab answers at <span className="mono">{origin}</span>: {reason}.
      </p>
      <p className="muted">
        The Faults panel works with the embedded mock agent and with <code>npm run mock-agent</code>: paste
        the card URL it prints with its <code>#mock-token=</code> fragment, the token of its control routes.
      </p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
