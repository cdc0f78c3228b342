/**
@module
Printing what an agent answered, for a person: a task's id, state and artifacts, a message's parts. The answer
itself is printed because the user asked for it: every string of it through `terminalText` (one line, controls
and invisible characters shown escaped), a data part as compact JSON through `terminalJson`.
*/
import type { Artifact, Message, Part, StreamResponse, Task } from '@surecall/client';
import type { Output } from './output.js';
import { terminalJson, terminalText } from './text.js';

const state = (value: string) => value.replace(/^TASK_STATE_/, '');

/** One part as one line of text. */
export function partText(part: Part): string {
  if ('text' in part) {
    return terminalText(part.text);
  }
  if ('data' in part) {
    return terminalJson(part.data);
  }
  if ('url' in part) {
    return `<file ${terminalText(part.url)}>`;
  }
  return `<${part.raw.length} base64 bytes${part.filename === undefined ? '' : ` ${terminalText(part.filename)}`}>`;
}

function artifactLines(out: Output, artifact: Artifact): void {
  const name = terminalText(artifact.name ?? artifact.artifactId);
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
  out.line(`task ${terminalText(task.id)} ${state(task.status.state)}`);
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
  const name = terminalText(artifact.name ?? artifact.artifactId);
  out.line(
    `${append ? '  +' : 'artifact'} ${name}: ${artifact.parts.map(partText).join(' ')}${lastChunk ? ' (last chunk)' : ''}`,
  );
}
