import {
  cardRequestLabel,
  honoursLabel,
  pinNote,
  securityLabel,
  trustLabel,
  yesNo,
} from '../model/agent-labels.js';
import type { AgentView } from '../model/agent-view.js';

/** Props of {@link AgentFacts}. */
export type AgentFactsProps = { readonly view: AgentView };

/**
The agent's facts as a description list: version, provider, card URL, digest and trust, how the card was asked
for, the binding and its pin, security, whether idempotency keys are honoured, and the capabilities.

@example
```tsx
<AgentFacts view={agentView(client, connection)} />
```
*/
export function AgentFacts({ view }: AgentFactsProps) {
  return (
    <dl className="facts">
      <dt>Version</dt>
      <dd>{view.version}</dd>
      {view.provider === undefined ? null : (
        <>
          <dt>Provider</dt>
          <dd>{view.provider}</dd>
        </>
      )}
      {view.cardUrl === undefined ? null : (
        <>
          <dt>Card URL</dt>
          <dd className="mono">{view.cardUrl}</dd>
        </>
      )}
      <dt>Card digest</dt>
      <dd className="mono" data-testid="card-digest">
        {view.digest}
      </dd>
      {view.trust === undefined ? null : (
        <>
          <dt>Card trust</dt>
          <dd data-testid="card-trust">{trustLabel(view.trust)}</dd>
        </>
      )}
      {view.cardRequest === undefined ? null : (
        <>
          <dt>Card request</dt>
          <dd data-testid="card-request">{cardRequestLabel(view.cardRequest)}</dd>
        </>
      )}
      <dt>Binding</dt>
      <dd>
        {view.binding} <span className="muted">({pinNote(view.pinSource)})</span>
      </dd>
      <dt>Security</dt>
      <dd>{securityLabel(view.security)}</dd>
      <dt>Idempotency keys honoured</dt>
      <dd data-testid="idempotency">
        {honoursLabel(view.idempotency.honours)}
        <span className="muted">
          {' '}
          · card {view.idempotency.advertised ? 'advertises' : 'does not advertise'} the idempotency extension
        </span>
      </dd>
      <dt>Capabilities</dt>
      <dd>
        streaming {yesNo(view.capabilities.streaming)} · push notifications{' '}
        {yesNo(view.capabilities.pushNotifications)} · extended card{' '}
        {yesNo(view.capabilities.extendedAgentCard)}
      </dd>
    </dl>
  );
}
