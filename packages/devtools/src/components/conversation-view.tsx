import { type ConversationEntry, conversationOf, type RenderedPart } from '../model/conversation.js';
import type { TaskView } from '../model/task-view.js';

const labels: Readonly<Record<ConversationEntry['kind'], string>> = {
  message: '',
  status: ' · status',
  artifact: ' · artifact',
};

function PartView({ part }: { readonly part: RenderedPart }) {
  switch (part.kind) {
    case 'text':
      // React writes it as a text node: Markdown and HTML show as the characters they are.
      return <p className="part-text">{part.text}</p>;
    case 'data':
      return <pre className="part-data">{part.json}</pre>;
    case 'file':
      return <p className="part-file muted">[{part.label}]</p>;
  }
}

/**
A task as its conversation (`model/conversation.ts`): the user's and the agent's messages in history order,
the agent's status messages, then its artifacts, each part rendered as text, never as HTML.

@example
```tsx
<ConversationView view={view} />
```
*/
export function ConversationView({ view }: { readonly view: TaskView | undefined }) {
  const entries = view === undefined ? [] : conversationOf(view);
  return (
    <section aria-label="Conversation">
      <h3>Conversation</h3>
      {entries.length === 0 ? (
        <p className="muted">No messages yet.</p>
      ) : (
        <ol className="messages conversation">
          {entries.map((entry) => (
            <li
              key={entry.key}
              className={`from-${entry.from}`}
              data-testid="turn"
              data-from={entry.from}
              data-kind={entry.kind}
              aria-label={`${entry.from}${labels[entry.kind]}${entry.title === undefined ? '' : ` ${entry.title}`}`}
            >
              <span className="muted small">
                {entry.from}
                {labels[entry.kind]}
                {entry.title === undefined ? null : ` “${entry.title}”`}
              </span>
              {entry.parts.map((part, index) => (
                // Parts have no id; their place in the turn is theirs.
                // biome-ignore lint/suspicious/noArrayIndexKey: a part's position is its identity in the turn.
                <PartView key={index} part={part} />
              ))}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
