/**
@module
Printing what an agent answered, for a person: a task's id, state and artifacts, a message's parts. The answer itself is printed because the user asked for it; it passes through `printable`, and a data part is printed as compact JSON.
*/
import type { Artifact, Message, Part, StreamResponse, Task } from '@surecall/client';
import type { Output } from './output.js';
import { printable } from './text.js';

const state = (value: string) => value.replace(/^TASK_STATE_/, '');

/** One part as one line of text. */
export function partText(part: Part): string {
  if ('text' in part) {
    return printable(part.text);
  }
  if ('data' in part) {
    return JSON.stringify(part.data);
  }
  if ('url' in part) {
    return `<file ${printable(part.url, true)}>`;
  }
  return `<${part.raw.length} base64 bytes${part.filename === undefined ? '' : ` ${printable(part.filename, true)}`}>`;
}

function artifactLines(out: Output, artifact: Artifact): void {
  const name = printable(artifact.name ?? artifact.artifactId, true);
  out.line(`artifact ${name}: ${artifact.parts.map(partText).join(' ')}`);
}

/** A unary answer: the task (state, status message, artifacts) or the direct message. */
export function printAnswer(
  out: Output,
  answer: { readonly task: Task } | { readonly message: Message },
): void {
  if ('message' in answer) {
    out.line(`message: ${answer.message.parts.map(partText).join(' ')}`);
    return;
  }
  const { task } = answer;
  out.line(`task ${printable(task.id, true)} ${state(task.status.state)}`);
  const said = task.status.message;
  if (said !== undefined) {
    out.line(`  ${said.parts.map(partText).join(' ')}`);
  }
  for (const artifact of task.artifacts ?? []) {
    artifactLines(out, artifact);
  }
}

/** The state a stream event reports, if any. */
export function eventState(event: StreamResponse): string | undefined {
  if ('task' in event) {
    return state(event.task.status.state);
  }
  if ('statusUpdate' in event) {
    return state(event.statusUpdate.status.state);
  }
  return undefined;
}

/** One stream event, as it arrives: a state line, or an artifact chunk. */
export function printEvent(out: Output, event: StreamResponse): void {
  if ('task' in event || 'message' in event) {
    printAnswer(out, event);
    return;
  }
  if ('statusUpdate' in event) {
    const said = event.statusUpdate.status.message;
    out.line(
      `${state(event.statusUpdate.status.state)}${said === undefined ? '' : `: ${said.parts.map(partText).join(' ')}`}`,
    );
    return;
  }
  const { artifact, append, lastChunk } = event.artifactUpdate;
  const name = printable(artifact.name ?? artifact.artifactId, true);
  out.line(
    `${append ? '  +' : 'artifact'} ${name}: ${artifact.parts.map(partText).join(' ')}${lastChunk ? ' (last chunk)' : ''}`,
  );
}
