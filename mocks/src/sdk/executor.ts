/**
@module
An `AgentExecutor` for the official `@a2a-js/sdk` server that behaves like the mock agent for the words the
interop tests use: `echo …` answers a direct Message; `task a b c` (and any unknown first word) runs a task
that streams one artifact chunk per word and completes; `input` stops in INPUT_REQUIRED and completes on a
follow-up carrying its taskId; `slow N` sends one progress chunk per tick for N ticks and stops on CancelTask;
a message naming the data skill `sum` or `sum-task` in its metadata gets `{ "sum": a + b }` as a direct data
Message or as the data artifact of a completed task. Events are written as ProtoJSON, typed by our own wire
types, and handed to the SDK through its `fromJSON` codecs, so the SDK's own serialiser decides what goes on
the wire.
*/
import { randomUUID } from 'node:crypto';
import type { Message as SdkMessage } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { skillMetadataKey } from '@surecall/client';
import { maxSlowSeconds } from '../agent/behaviours.js';
import type { Message } from '../agent/wire.js';
import {
  type Chunk,
  type Ids,
  publishArtifact,
  publishChunk,
  publishMessage,
  publishResumed,
  publishStatus,
  publishSubmitted,
} from './events.js';

/** Options of {@link createSdkExecutor}. */
export type SdkExecutorOptions = {
  /** Spacing of the `slow N` progress chunks, in milliseconds. @default 1000 */
  readonly tickMs?: number;
};

/** The executor, plus `close()` to stop every running `slow` task's timer. */
export type SdkExecutor = AgentExecutor & { close(): void };

/**
What one executor holds: the tick of `slow` and the running `slow` tasks by id, which CancelTask and close()
stop early.
*/
type ExecutorState = {
  readonly tickMs: number;
  readonly running: Map<string, { readonly ids: Ids; readonly stop: (canceled: boolean) => void }>;
};

function firstText(message: SdkMessage): string {
  for (const part of message.parts) {
    if (part.content?.$case === 'text') {
      return part.content.value;
    }
  }
  return '';
}

/**
`a + b` of a data skill's single data part, or `undefined` when the input is not `{ a: number, b: number }`.
*/
function sumOf(message: SdkMessage): number | undefined {
  const [part, ...rest] = message.parts;
  const input: unknown = part?.content?.$case === 'data' ? part.content.value : undefined;
  if (rest.length > 0 || typeof input !== 'object' || input === null) {
    return undefined;
  }
  const { a, b } = input as { readonly a?: unknown; readonly b?: unknown };
  return typeof a === 'number' && typeof b === 'number' ? a + b : undefined;
}

function wordChunks(words: readonly string[]): Chunk[] {
  return words.map((word, index) => ({
    artifactId: 'text',
    // The chunks concatenate back to the words separated by single spaces.
    text: index < words.length - 1 ? `${word} ` : word,
    append: index > 0,
    lastChunk: index === words.length - 1,
  }));
}

function slowSeconds(word: string | undefined): number {
  const value = word !== undefined && /^\d{1,9}$/.test(word) ? Number(word) : 5;
  return Math.min(Math.max(value, 1), maxSlowSeconds);
}

function runSlow(state: ExecutorState, bus: ExecutionEventBus, ids: Ids, ticks: number): Promise<void> {
  const { running } = state;
  return new Promise((resolve) => {
    let done = 0;
    const timer = setInterval(() => {
      done++;
      publishChunk(bus, ids, {
        artifactId: 'progress',
        text: `tick ${done}/${ticks}\n`,
        append: done > 1,
        lastChunk: done === ticks,
      });
      if (done === ticks) {
        stop(false);
      }
    }, state.tickMs);
    const stop = (canceled: boolean): void => {
      clearInterval(timer);
      running.delete(ids.taskId);
      if (!canceled) {
        publishStatus(bus, ids, 'TASK_STATE_COMPLETED', 'done');
      }
      resolve();
    };
    running.set(ids.taskId, { ids, stop });
  });
}

async function execute(state: ExecutorState, context: RequestContext, bus: ExecutionEventBus): Promise<void> {
  const ids: Ids = { taskId: context.taskId, contextId: context.contextId };
  const user = context.userMessage;
  const text = firstText(user);
  if (context.task !== undefined) {
    // A follow-up turn on an INPUT_REQUIRED task: the SDK wants the Task first.
    publishResumed(bus, ids, context.task);
    const name = text.trim() || 'there';
    publishChunk(bus, ids, {
      artifactId: 'answer',
      text: `Hello, ${name}!`,
      append: false,
      lastChunk: true,
    });
    publishStatus(bus, ids, 'TASK_STATE_COMPLETED', 'done');
    return;
  }
  const skill: unknown = user.metadata?.[skillMetadataKey];
  if (skill === 'sum' || skill === 'sum-task') {
    runSum(bus, ids, user, skill);
    return;
  }
  const words = text.split(/\s+/).filter((word) => word !== '');
  const [first = '', second] = words;
  const command = first.toLowerCase();
  if (command === 'echo') {
    // A2A spec §3.1.1: the agent may answer with a direct Message; it belongs to no task, so it carries no
    // taskId.
    publishMessage(bus, {
      messageId: randomUUID(),
      contextId: ids.contextId,
      role: 'ROLE_AGENT',
      parts: [{ text }],
    });
    return;
  }
  publishSubmitted(bus, ids, user);
  publishStatus(bus, ids, 'TASK_STATE_WORKING', 'working');
  if (command === 'input') {
    publishStatus(
      bus,
      ids,
      'TASK_STATE_INPUT_REQUIRED',
      'What is your name? Reply with a message that carries this taskId.',
    );
    return;
  }
  if (command === 'slow') {
    await runSlow(state, bus, ids, slowSeconds(second));
    return;
  }
  const chunkWords = command === 'task' ? words.slice(1) : words;
  for (const chunk of wordChunks(chunkWords.length > 0 ? chunkWords : ['(no', 'text)'])) {
    publishChunk(bus, ids, chunk);
  }
  publishStatus(bus, ids, 'TASK_STATE_COMPLETED', 'done');
}

function runSum(bus: ExecutionEventBus, ids: Ids, user: SdkMessage, skill: 'sum' | 'sum-task'): void {
  const sum = sumOf(user);
  if (skill === 'sum') {
    const reply: Message = {
      messageId: randomUUID(),
      contextId: ids.contextId,
      role: 'ROLE_AGENT',
      parts:
        sum === undefined
          ? [{ text: 'sum needs { "a": number, "b": number }' }]
          : [{ data: { sum }, mediaType: 'application/json' }],
    };
    publishMessage(bus, reply);
    return;
  }
  publishSubmitted(bus, ids, user);
  publishStatus(bus, ids, 'TASK_STATE_WORKING', 'working');
  if (sum === undefined) {
    publishStatus(bus, ids, 'TASK_STATE_FAILED', 'sum needs { "a": number, "b": number }');
    return;
  }
  publishArtifact(bus, {
    taskId: ids.taskId,
    contextId: ids.contextId,
    artifact: {
      artifactId: 'result',
      name: 'result',
      parts: [{ data: { sum }, mediaType: 'application/json' }],
    },
    lastChunk: true,
  });
  publishStatus(bus, ids, 'TASK_STATE_COMPLETED', 'done');
}

async function cancelTask(state: ExecutorState, taskId: string, bus: ExecutionEventBus): Promise<void> {
  const entry = state.running.get(taskId);
  if (entry === undefined) {
    // Nothing runs for this task: the SDK then sees no CANCELED event and answers TaskNotCancelable
    // (docs/interop.md#the-official-js-sdk-server).
    return;
  }
  entry.stop(true);
  publishStatus(bus, entry.ids, 'TASK_STATE_CANCELED', 'canceled by client');
}

/**
Creates the executor. Every `execute` publishes its first Task or Message synchronously, as the SDK requires;
a `slow` task then runs on a timer until its ticks are done or `cancelTask` publishes CANCELED.

@example
```ts
const executor = createSdkExecutor({ tickMs: 50 });
const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
// … later
executor.close();
```
*/
export function createSdkExecutor(options: SdkExecutorOptions = {}): SdkExecutor {
  const state: ExecutorState = { tickMs: options.tickMs ?? 1000, running: new Map() };
  return {
    execute: (context, bus) => execute(state, context, bus),
    cancelTask: (taskId, bus) => cancelTask(state, taskId, bus),
    close: () => {
      for (const entry of [...state.running.values()]) {
        entry.stop(true);
      }
    },
  };
}
