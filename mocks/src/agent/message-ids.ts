/**
@module
The optional ids of the agent's messages (`AgentOptions.messageIds`). In the A2A v1.0 proto a `Message`'s
`context_id` and `task_id` are optional ("If set, the message will be associated with…"), and a message inside
a task belongs to that task; the official SDKs always fill them in, agents built without them often do not.
The agent can answer either way, so a client can be tried against both
(docs/protocol-checks.md#unary-answers).
*/

/** Whether the agent's answers carry their messages' `contextId` and `taskId`. */
export type MessageIds = 'set' | 'omitted';

// The members of an answer that hold messages (A2A proto `SendMessageResponse`, `Task`, `TaskStatus`,
// `TaskStatusUpdateEvent`, `StreamResponse`, `ListTasksResponse`); `metadata`, `data` and artifacts hold
// none.
const holders = new Set(['message', 'task', 'tasks', 'status', 'history', 'statusUpdate']);

/**
A copy of an answer, or of one stream event, whose every message (a direct reply, a status message, the
history's, a status update's) leaves out `contextId` and `taskId`.

@example
```ts
withoutMessageIds({ message: { messageId: 'm', contextId: 'c', role: 'ROLE_AGENT', parts } });
// { message: { messageId: 'm', role: 'ROLE_AGENT', parts } }
```
*/
export function withoutMessageIds<T>(value: T): T {
  return strip(value, false) as T;
}

function strip(value: unknown, message: boolean): unknown {
  if (Array.isArray(value)) {
    return value.map((entry) => strip(entry, message));
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (message && (key === 'contextId' || key === 'taskId')) {
      continue;
    }
    // A task's `history` and a status's or a reply's `message` are messages; the other holders contain them.
    out[key] = holders.has(key) ? strip(member, key === 'history' || key === 'message') : member;
  }
  return out;
}
