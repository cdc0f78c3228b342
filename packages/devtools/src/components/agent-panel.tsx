import type { A2aClient } from '@surecall/client';
import { useId, useMemo } from 'react';
import { agentView, type ConnectionFacts } from '../model/agent-view.js';
import { JsonTree } from './json-tree.js';

/** Props of {@link AgentPanel}. */
export type AgentPanelProps = {
  readonly client: Pick<A2aClient, 'card' | 'cardDigest' | 'binding'>;
  readonly connection: ConnectionFacts | undefined;
  /** The card's JSON as fetched; the decoded card when not given. */
  readonly rawCard: unknown;
};

const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

const trustLabel = {
  tls: 'TLS: the https card URL’s verified server',
  'expected-digest': 'the digest given when connecting',
  'first-fetch-digest': 'the digest of the first fetch (a loopback http card; TLS cannot vouch for it)',
} as const;

/**
The agent the client is bound to: identity, digest, pinned interface, security, extensions, idempotency, capabilities and skills, beside the card as a JSON tree.

@example
```tsx
<AgentPanel client={client} connection={facts} rawCard={raw} />
```
*/
export function AgentPanel({ client, connection, rawCard }: AgentPanelProps) {
  const view = useMemo(() => agentView(client, connection), [client, connection]);
  const id = useId();
  const pinNote = {
    connection: 'as pinned',
    inferred: 'inferred: the only 1.0 interface of this binding',
    ambiguous: 'the card lists several interfaces of this binding; the pin was not reported',
  }[view.pinSource];
  const honours = {
    yes: 'yes, says the client',
    no: 'no, says the client',
    unknown: 'unknown: this client does not report it',
  }[view.idempotency.honours];
  return (
    <div className="agent-panel columns">
      <section aria-labelledby={`${id}-identity`}>
        <h2 id={`${id}-identity`}>{view.name}</h2>
        <p className="muted">{view.description}</p>
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
              <dd data-testid="card-trust">{trustLabel[view.trust]}</dd>
            </>
          )}
          <dt>Binding</dt>
          <dd>
            {view.binding} <span className="muted">({pinNote})</span>
          </dd>
          <dt>Security</dt>
          <dd>
            {view.security === undefined
              ? 'not reported'
              : view.security.kind === 'anonymous'
                ? 'anonymous'
                : `bearer token, scheme “${view.security.scheme}”`}
          </dd>
          <dt>Idempotency keys honoured</dt>
          <dd data-testid="idempotency">
            {honours}
            <span className="muted">
              {' '}
              · card {view.idempotency.advertised ? 'advertises' : 'does not advertise'} the idempotency
              extension
            </span>
          </dd>
          <dt>Capabilities</dt>
          <dd>
            streaming {yesNo(view.capabilities.streaming)} · push notifications{' '}
            {yesNo(view.capabilities.pushNotifications)} · extended card{' '}
            {yesNo(view.capabilities.extendedAgentCard)}
          </dd>
        </dl>

        <h3>Interfaces</h3>
        <table>
          <thead>
            <tr>
              <th scope="col">Binding</th>
              <th scope="col">Version</th>
              <th scope="col">URL</th>
              <th scope="col">Tenant</th>
              <th scope="col">Pinned</th>
            </tr>
          </thead>
          <tbody>
            {view.interfaces.map((row) => (
              <tr
                key={`${row.binding} ${row.version} ${row.url} ${row.tenant ?? ''}`}
                className={row.pinned ? 'pinned' : undefined}
              >
                <td>{row.binding}</td>
                <td>{row.version}</td>
                <td className="mono">{row.url}</td>
                <td>{row.tenant ?? '—'}</td>
                <td>{row.pinned ? 'pinned' : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>

        <h3>Extensions</h3>
        {view.extensions.length === 0 ? (
          <p className="muted">The card declares no extensions.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">URI</th>
                <th scope="col">Required</th>
                <th scope="col">Requested</th>
              </tr>
            </thead>
            <tbody>
              {view.extensions.map((row) => (
                <tr key={row.uri}>
                  <td className="mono" title={row.description}>
                    {row.uri}
                  </td>
                  <td>{yesNo(row.required)}</td>
                  <td>{row.requested === undefined ? 'not reported' : yesNo(row.requested)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}

        <h3>Security schemes</h3>
        <p>{view.securitySchemes.length === 0 ? 'none' : view.securitySchemes.join(', ')}</p>

        <h3>Skills</h3>
        <ul className="skills">
          {view.skills.map((skill) => (
            <li key={skill.id}>
              <strong>{skill.name}</strong> <span className="muted">{skill.description}</span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby={`${id}-card`}>
        <h2 id={`${id}-card`}>Card JSON</h2>
        <JsonTree value={rawCard} label="Agent card JSON" />
      </section>
    </div>
  );
}
