import type { A2aClient } from '@surecall/client';
import { useId, useMemo } from 'react';
import { agentView, type ConnectionFacts } from '../model/agent-view.js';
import { inlineCode } from '../model/inline-code.js';
import { AgentFacts } from './agent-facts.js';
import { ExtensionsTable } from './extensions-table.js';
import { InterfacesTable } from './interfaces-table.js';
import { JsonTree } from './json-tree.js';

/** Props of {@link AgentPanel}. */
export type AgentPanelProps = {
  readonly client: Pick<A2aClient, 'card' | 'cardDigest' | 'binding'>;
  readonly connection: ConnectionFacts | undefined;
  /** The card's JSON as fetched; the decoded card when not given. */
  readonly rawCard: unknown;
};

/**
The agent the client is bound to: identity, digest, pinned interface, security, extensions, idempotency,
capabilities and skills, beside the card as a JSON tree.

@example
```tsx
<AgentPanel client={client} connection={facts} rawCard={raw} />
```
*/
export function AgentPanel({ client, connection, rawCard }: AgentPanelProps) {
  const view = useMemo(() => agentView(client, connection), [client, connection]);
  const id = useId();
  return (
    <div className="agent-panel columns">
      <section aria-labelledby={`${id}-identity`}>
        <h2 id={`${id}-identity`}>{view.name}</h2>
        <p className="muted">{view.description}</p>
        <AgentFacts view={view} />

        <h3>Interfaces</h3>
        <InterfacesTable rows={view.interfaces} />

        <h3>Extensions</h3>
        <ExtensionsTable rows={view.extensions} />

        <h3>Security schemes</h3>
        <p>{view.securitySchemes.length === 0 ? 'none' : view.securitySchemes.join(', ')}</p>

        <h3>Skills</h3>
        <ul className="skills">
          {view.skills.map((skill) => (
            <li key={skill.id}>
              <strong>{skill.name}</strong>{' '}
              <span className="muted" data-testid="skill-description">
                {inlineCode(skill.description).map((piece, index) =>
                  // A description's pieces have no id; their place is theirs.
                  // biome-ignore lint/suspicious/noArrayIndexKey: the position is the piece's identity.
                  piece.code ? <code key={index}>{piece.text}</code> : <span key={index}>{piece.text}</span>,
                )}
              </span>
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
