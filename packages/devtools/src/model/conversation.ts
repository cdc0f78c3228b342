/**
@module
A task as the conversation it is: its messages in the order of its history (A2A spec §4.1.1: a task's history
is its messages in order; they carry no timestamps), the agent's status messages that the history does not
hold yet, then its artifacts, the task's output, in the order they were first seen. Each part is rendered as
what it is, and only as text: a text part as its characters (Markdown and HTML included, never interpreted),
a data part as JSON, a file by its name, media type and size or URL, never fetched.
*/
import type { Part } from '@surecall/client';
import type { TaskView } from './task-view.js';

/** One part, as the view shows it. */
export type RenderedPart =
  | { readonly kind: 'text'; readonly text: string; readonly mediaType: string | undefined }
  | { readonly kind: 'data'; readonly json: string }
  | { readonly kind: 'file'; readonly label: string };

/** One turn of the conversation: a message of the user or the agent, or an artifact of the agent. */
export type ConversationEntry = {
  readonly key: string;
  readonly from: 'user' | 'agent';
  readonly kind: 'message' | 'status' | 'artifact';
  /** The artifact's name, or its id. */
  readonly title: string | undefined;
  readonly parts: readonly RenderedPart[];
};

/** A part as text only: a peer's words are shown, never interpreted (CONTRIBUTING.md#devtools). */
export function renderPart(part: Part): RenderedPart {
  if ('text' in part && typeof part.text === 'string') {
    return { kind: 'text', text: part.text, mediaType: part.mediaType };
  }
  if ('data' in part) {
    return { kind: 'data', json: JSON.stringify(part.data, null, 2) };
  }
  const media = part.mediaType === undefined ? '' : ` (${part.mediaType})`;
  if ('url' in part && typeof part.url === 'string') {
    return { kind: 'file', label: `file ${part.filename ?? part.url}${media}` };
  }
  return { kind: 'file', label: `bytes${part.filename === undefined ? '' : ` ${part.filename}`}${media}` };
}

/** The parts of a message or an artifact, a streamed artifact's adjacent text chunks joined into one text. */
export function renderParts(parts: readonly Part[]): RenderedPart[] {
  const rendered: RenderedPart[] = [];
  for (const part of parts.map(renderPart)) {
    const last = rendered.at(-1);
    if (part.kind === 'text' && last?.kind === 'text' && last.mediaType === part.mediaType) {
      rendered[rendered.length - 1] = { ...last, text: `${last.text}${part.text}` };
    } else {
      rendered.push(part);
    }
  }
  return rendered;
}

/**
The conversation of `view`.

@example
```ts
conversationOf(view).map((entry) => `${entry.from} ${entry.kind}`); // ['user message', 'agent status', 'agent artifact']
```
*/
export function conversationOf(
  view: Pick<TaskView, 'messages' | 'statusHistory' | 'artifacts'>,
): ConversationEntry[] {
  const entries: ConversationEntry[] = view.messages.map((message) => ({
    key: `message ${message.messageId}`,
    from: message.role === 'ROLE_USER' ? 'user' : 'agent',
    kind: 'message',
    title: undefined,
    parts: renderParts(message.parts),
  }));
  // A status message is an agent's turn too; one the history already holds (by its text) is not repeated.
  const said = new Set(
    view.messages.flatMap((message) =>
      message.parts.flatMap((part) => ('text' in part && typeof part.text === 'string' ? [part.text] : [])),
    ),
  );
  for (const [index, entry] of view.statusHistory.entries()) {
    if (entry.text !== undefined && !said.has(entry.text)) {
      said.add(entry.text);
      entries.push({
        key: `status ${index}`,
        from: 'agent',
        kind: 'status',
        title: undefined,
        parts: [{ kind: 'text', text: entry.text, mediaType: undefined }],
      });
    }
  }
  for (const artifact of view.artifacts) {
    entries.push({
      key: `artifact ${artifact.artifactId}`,
      from: 'agent',
      kind: 'artifact',
      title: artifact.name ?? artifact.artifactId,
      parts: renderParts(artifact.parts),
    });
  }
  return entries;
}
