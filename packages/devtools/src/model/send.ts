/**
@module
The send box's model: the user message a line of text becomes, and a record of each send as its answer, its
stream events or its error arrive. The records' message ids are what the Faults panel asks the mock's
execution counter about.
*/
import type { Message, SendMessageResponse, StreamResponse } from '@surecall/client';
import { formatError, formatState } from './format.js';

/** A unary send (SendMessage) or a streamed one (SendStreamingMessage). */
export type SendMode = 'send' | 'stream';

/** A ready-made line for the mock agent, whose first word picks a behaviour. */
export type SendPreset = { readonly label: string; readonly text: string; readonly mode: SendMode };

/** The presets the send box offers. */
export const sendPresets: readonly SendPreset[] = Object.freeze([
  { label: 'Echo', text: 'echo hello', mode: 'send' },
  { label: 'Streamed task', text: 'task alpha beta gamma', mode: 'stream' },
  { label: 'Input required', text: 'input', mode: 'send' },
  { label: 'Slow task', text: 'slow 5', mode: 'stream' },
]);

/** Where a send is. */
export type SendStatus = 'sending' | 'streaming' | 'answered' | 'failed';

/** One send, as the send box lists it. */
export type SendRecord = {
  readonly messageId: string;
  readonly text: string;
  readonly mode: SendMode;
  readonly startedAt: number;
  readonly status: SendStatus;
  /** One line: the reply, the task's state, or the error. */
  readonly outcome: string;
  readonly taskId: string | undefined;
  readonly contextId: string | undefined;
  /** Stream events received. */
  readonly events: number;
};

/** How many sends the box keeps. */
export const maxSendsKept = 20;

/**
The user message of a line of text (A2A spec, §3.1.1: a message with one text part; the messageId is the
client's).

@example
```ts
userMessage('echo hi', crypto.randomUUID(), 'ctx-1');
```
*/
export function userMessage(text: string, messageId: string, contextId?: string): Message {
  return {
    messageId,
    role: 'ROLE_USER',
    parts: [{ text }],
    ...(contextId === undefined || contextId === '' ? {} : { contextId }),
  };
}

/** A send that has just left. */
export function sendStarted(message: Message, mode: SendMode, at: number): SendRecord {
  const first = message.parts[0];
  return {
    messageId: message.messageId,
    text: first !== undefined && 'text' in first && typeof first.text === 'string' ? first.text : '',
    mode,
    startedAt: at,
    status: mode === 'send' ? 'sending' : 'streaming',
    outcome: mode === 'send' ? 'sending…' : 'streaming…',
    taskId: undefined,
    contextId: message.contextId,
    events: 0,
  };
}

function replyText(message: Message): string {
  const texts = message.parts.flatMap((part) =>
    'text' in part && typeof part.text === 'string' ? [part.text] : [],
  );
  return texts.length === 0 ? 'a message without text' : `“${texts.join(' ')}”`;
}

function taskOutcome(record: SendRecord, taskId: string, contextId: string, state: string): SendRecord {
  return { ...record, taskId, contextId, outcome: `task ${formatState(state)}` };
}

/**
A unary send answered: a direct reply, or a task.

@example
```ts
sendAnswered(record, await client.sendMessage({ message })).outcome; // 'reply “echo hello”'
```
*/
export function sendAnswered(record: SendRecord, response: SendMessageResponse): SendRecord {
  if ('task' in response) {
    const { id, contextId, status } = response.task;
    return { ...taskOutcome(record, id, contextId, status.state), status: 'answered' };
  }
  return {
    ...record,
    status: 'answered',
    outcome: `reply ${replyText(response.message)}`,
    contextId: response.message.contextId ?? record.contextId,
  };
}

/** One event of a streamed send. */
export function sendStreamed(record: SendRecord, event: StreamResponse): SendRecord {
  const counted = { ...record, events: record.events + 1 };
  if ('task' in event) {
    return taskOutcome(counted, event.task.id, event.task.contextId, event.task.status.state);
  }
  if ('statusUpdate' in event) {
    const { taskId, contextId, status } = event.statusUpdate;
    return taskOutcome(counted, taskId, contextId, status.state);
  }
  if ('message' in event) {
    return { ...counted, outcome: `reply ${replyText(event.message)}` };
  }
  return counted;
}

/** A streamed send whose stream ended without an error. */
export function sendEnded(record: SendRecord): SendRecord {
  return { ...record, status: 'answered' };
}

/** A send that failed, with its error's public-safe form. */
export function sendFailed(record: SendRecord, error: Readonly<Record<string, unknown>>): SendRecord {
  return { ...record, status: 'failed', outcome: formatError(error) };
}

/**
Puts a record in the list: replaces the one with its messageId, or adds it first, keeping the newest
{@link maxSendsKept}.

@example
```ts
setSends((sends) => withSend(sends, record));
```
*/
export function withSend(sends: readonly SendRecord[], record: SendRecord): SendRecord[] {
  const index = sends.findIndex((held) => held.messageId === record.messageId);
  if (index !== -1) {
    return sends.map((held, position) => (position === index ? record : held));
  }
  return [record, ...sends].slice(0, maxSendsKept);
}

/**
The task of the newest send that named one, for the Tasks panel to show first.

@example
```ts
latestTaskId(box.sends); // 'task-7'
```
*/
export function latestTaskId(sends: readonly SendRecord[]): string | undefined {
  return sends.find((send) => send.taskId !== undefined)?.taskId;
}
