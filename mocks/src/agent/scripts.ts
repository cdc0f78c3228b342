/**
@module
The scripted progress of a task: the steps of its behaviour's plan applied to the store one timer after
another, `stepMs` apart unless a step names its own delay.
*/
import type { Step, TimedStep } from './behaviours.js';
import { randomId } from './ids.js';
import type { Lifecycle } from './lifecycle.js';
import type { TaskStore } from './store.js';
import type { TaskRecord } from './task-record.js';
import { terminalStates } from './task-states.js';
import type { Message } from './wire.js';

/** The running scripts of one agent, one per task at most. */
export type Scripts = {
  /** Apply `steps` from `index` on, each after its delay, until they run out or the task is terminal. */
  run(record: TaskRecord, steps: readonly TimedStep[], index?: number): void;
  /** Stop the task's script, if one is running. */
  stop(record: TaskRecord): void;
  /** Forget every script, once the agent's timers are stopped. */
  clear(): void;
};

/** What scripts need from the agent. */
export type ScriptsOptions = {
  readonly store: TaskStore;
  readonly stepMs: number;
  readonly lifecycle: Lifecycle;
};

/** An agent message of `task` carrying `text`. */
export function agentMessage(
  task: { readonly id: string; readonly contextId: string },
  text: string,
): Message {
  // The client's identity check wants both ids on every agent message of a task
  // (docs/protocol-checks.md#unary-answers).
  return {
    messageId: randomId(),
    contextId: task.contextId,
    taskId: task.id,
    role: 'ROLE_AGENT',
    parts: [{ text }],
  };
}

/**
Creates the script runner of one agent.

@example
```ts
const scripts = createScripts({ store, stepMs: 10, lifecycle });
scripts.run(record, plan.steps);
```
*/
export function createScripts(options: ScriptsOptions): Scripts {
  const { store, stepMs, lifecycle } = options;
  const { after } = lifecycle;
  const scripts = new Map<TaskRecord, () => void>();

  function apply(record: TaskRecord, step: Step): void {
    const { task } = record;
    switch (step.kind) {
      case 'status':
        store.setStatus(
          record,
          step.state,
          step.text === undefined ? undefined : agentMessage(task, step.text),
        );
        return;
      case 'artifact':
        store.addArtifact(record, {
          artifact: {
            artifactId: step.artifactId,
            name: step.name,
            parts: step.parts?.map((part) => ({ ...part })) ?? [
              step.data === undefined
                ? { text: step.text }
                : { data: step.data, mediaType: 'application/json' },
            ],
          },
          append: step.append,
          lastChunk: step.lastChunk,
        });
        return;
      case 'pause':
        return;
    }
  }

  function run(record: TaskRecord, steps: readonly TimedStep[], index = 0): void {
    const next = steps[index];
    if (next === undefined || terminalStates.has(record.task.status.state)) {
      scripts.delete(record);
      return;
    }
    const cancel = after(next.delay === 'step' ? stepMs : next.delay, () => {
      apply(record, next.step);
      run(record, steps, index + 1);
    });
    scripts.set(record, cancel);
  }

  function stop(record: TaskRecord): void {
    scripts.get(record)?.();
    scripts.delete(record);
  }

  return {
    run,
    stop,
    clear() {
      scripts.clear();
    },
  };
}
