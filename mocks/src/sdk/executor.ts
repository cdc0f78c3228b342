/**
@module
An `AgentExecutor` for the official `@a2a-js/sdk` server that behaves like the mock agent for the words the interop tests use: `echo …` answers a direct Message; `task a b c` (and any unknown first word) runs a task that streams one artifact chunk per word and completes; `input` stops in INPUT_REQUIRED and completes on a follow-up carrying its taskId; `slow N` sends one progress chunk per tick for N ticks and stops on CancelTask; a message naming the data skill `sum` or `sum-task` in its metadata gets `{ "sum": a + b }` as a direct data Message or as the data artifact of a completed task. Events are written as ProtoJSON, typed by our own wire types, and handed to the SDK through its `fromJSON` codecs, so the SDK's own serialiser decides what goes on the wire.
*/
import { randomUUID } from 'node:crypto';
import {
  Message as SdkMessage,
  Task as SdkTask,
  TaskArtifactUpdateEvent as SdkTaskArtifactUpdateEvent,
  TaskStatus as SdkTaskStatus,
  TaskStatusUpdateEvent as SdkTaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { skillMetadataKey } from '@surecall/client';
import { maxSlowSeconds } from '../agent/behaviours.js';
import type { Message, TaskState, TaskStatus, WireArtifactUpdate, WireTask } from '../agent/wire.js';

/** Options of {@link createSdkExecutor}. */
export type SdkExecutorOptions = {
  /** Spacing of the `slow N` progress chunks, in milliseconds. @default 1000 */
  readonly tickMs?: number;
};

/** The executor, plus `close()` to stop every running `slow` task's timer. */
export type SdkExecutor = AgentExecutor & { close(): void };

type Ids = { readonly taskId: string; readonly contextId: string };

const now = (): string => new Date().toISOString();

function agentMessage(ids: Ids, text: string): Message {
  // Our identity check wants both ids on every agent message of a task (docs/protocol-checks.md#unary-answers).
  return {
    messageId: randomUUID(),
    contextId: ids.contextId,
    taskId: ids.taskId,
    role: 'ROLE_AGENT',
    parts: [{ text }],
  };
}

function firstText(message: SdkMessage): string {
  for (const part of message.parts) {
    if (part.content?.$case === 'text') {
      return part.content.value;
    }
  }
  return '';
}

/** `a + b` of a data skill's single data part, or `undefined` when the input is not `{ a: number, b: number }`. */
function sumOf(message: SdkMessage): number | undefined {
  const [part, ...rest] = message.parts;
  const input: unknown = part?.content?.$case === 'data' ? part.content.value : undefined;
  if (rest.length > 0 || typeof input !== 'object' || input === null) {
    return undefined;
  }
  const { a, b } = input as { readonly a?: unknown; readonly b?: unknown };
  return typeof a === 'number' && typeof b === 'number' ? a + b : undefined;
}

function publishStatus(bus: ExecutionEventBus, ids: Ids, state: TaskState, text: string): void {
  const event = {
    taskId: ids.taskId,
    contextId: ids.contextId,
    status: { state, message: agentMessage(ids, text), timestamp: now() },
  };
  bus.publish(AgentEvent.statusUpdate(SdkTaskStatusUpdateEvent.fromJSON(event)));
}

type Chunk = {
  readonly artifactId: string;
  readonly text: string;
  readonly append: boolean;
  readonly lastChunk: boolean;
};

function publishChunk(bus: ExecutionEventBus, ids: Ids, chunk: Chunk): void {
  const event: WireArtifactUpdate = {
    taskId: ids.taskId,
    contextId: ids.contextId,
    artifact: { artifactId: chunk.artifactId, name: chunk.artifactId, parts: [{ text: chunk.text }] },
    // ProtoJSON leaves a false flag out (A2A spec §5.5), as the SDK's own writer does.
    ...(chunk.append ? { append: true } : {}),
    ...(chunk.lastChunk ? { lastChunk: true } : {}),
  };
  bus.publish(AgentEvent.artifactUpdate(SdkTaskArtifactUpdateEvent.fromJSON(event)));
}

function publishSubmitted(bus: ExecutionEventBus, ids: Ids, user: SdkMessage): void {
  const task: WireTask = {
    id: ids.taskId,
    contextId: ids.contextId,
    status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() },
    artifacts: [],
  };
  // The SDK requires a Task or Message as the first event of every execution; it keeps the user turn in the history.
  const sdkTask = SdkTask.fromJSON(task);
  sdkTask.history = [{ ...user, taskId: ids.taskId, contextId: ids.contextId }];
  bus.publish(AgentEvent.task(sdkTask));
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

/**
Creates the executor. Every `execute` publishes its first Task or Message synchronously, as the SDK requires; a `slow` task then runs on a timer until its ticks are done or `cancelTask` publishes CANCELED.

@example
```ts
const executor = createSdkExecutor({ tickMs: 50 });
const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
// … later
executor.close();
```
*/
export function createSdkExecutor(options: SdkExecutorOptions = {}): SdkExecutor {
  const tickMs = options.tickMs ?? 1000;
  // The running `slow` tasks by id: CancelTask and close() stop them early.
  const running = new Map<string, { readonly ids: Ids; readonly stop: (canceled: boolean) => void }>();

  function runSlow(bus: ExecutionEventBus, ids: Ids, ticks: number): Promise<void> {
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
      }, tickMs);
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

  async function execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ids: Ids = { taskId: context.taskId, contextId: context.contextId };
    const user = context.userMessage;
    const text = firstText(user);
    if (context.task !== undefined) {
      // A follow-up turn on an INPUT_REQUIRED task: the SDK wants the Task first. It goes out already WORKING, since the
      // new turn has begun; a stream starting from a snapshot still in INPUT_REQUIRED would look finished at once.
      const status: TaskStatus = {
        state: 'TASK_STATE_WORKING',
        message: agentMessage(ids, 'working'),
        timestamp: now(),
      };
      bus.publish(AgentEvent.task({ ...context.task, status: SdkTaskStatus.fromJSON(status) }));
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
      // A2A spec §3.1.1: the agent may answer with a direct Message; it belongs to no task, so it carries no taskId.
      const reply: Message = {
        messageId: randomUUID(),
        contextId: ids.contextId,
        role: 'ROLE_AGENT',
        parts: [{ text }],
      };
      bus.publish(AgentEvent.message(SdkMessage.fromJSON(reply)));
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
      await runSlow(bus, ids, slowSeconds(second));
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
      bus.publish(AgentEvent.message(SdkMessage.fromJSON(reply)));
      return;
    }
    publishSubmitted(bus, ids, user);
    publishStatus(bus, ids, 'TASK_STATE_WORKING', 'working');
    if (sum === undefined) {
      publishStatus(bus, ids, 'TASK_STATE_FAILED', 'sum needs { "a": number, "b": number }');
      return;
    }
    const event: WireArtifactUpdate = {
      taskId: ids.taskId,
      contextId: ids.contextId,
      artifact: {
        artifactId: 'result',
        name: 'result',
        parts: [{ data: { sum }, mediaType: 'application/json' }],
      },
      lastChunk: true,
    };
    bus.publish(AgentEvent.artifactUpdate(SdkTaskArtifactUpdateEvent.fromJSON(event)));
    publishStatus(bus, ids, 'TASK_STATE_COMPLETED', 'done');
  }

  async function cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const entry = running.get(taskId);
    if (entry === undefined) {
      // Nothing runs for this task: the SDK then sees no CANCELED event and answers TaskNotCancelable (docs/interop.md#the-official-js-sdk-server).
      return;
    }
    entry.stop(true);
    publishStatus(bus, entry.ids, 'TASK_STATE_CANCELED', 'canceled by client');
  }

  return {
    execute,
    cancelTask,
    close: () => {
      for (const entry of [...running.values()]) {
        entry.stop(true);
      }
    },
  };
}
