import type { Part, Task } from '@surecall/client';
import { describe, expect, it } from 'vitest';
import { conversationOf, type RenderedPart, renderPart } from './conversation.js';
import { applyTaskSnapshot, emptyTaskViews } from './task-view.js';

const markdown = '**bold** <img src=x onerror=alert(1)> `code`';

function viewOf(task: Task) {
  const view = applyTaskSnapshot(emptyTaskViews, task, 1000).tasks[0];
  if (view === undefined) {
    throw new Error('no view');
  }
  return view;
}

describe('conversationOf', () => {
  it('puts the history in order, then the status message, then the artifacts, each part as text', () => {
    const view = viewOf({
      id: 't-1',
      contextId: 'c-1',
      status: {
        state: 'TASK_STATE_COMPLETED',
        message: { messageId: 's-1', role: 'ROLE_AGENT', parts: [{ text: 'done' }] },
      },
      history: [
        { messageId: 'u-1', role: 'ROLE_USER', parts: [{ text: markdown }] },
        { messageId: 'a-1', role: 'ROLE_AGENT', parts: [{ text: 'working on it' }, { data: { a: 1 } }] },
      ],
      artifacts: [
        { artifactId: 'text', name: 'reply', parts: [{ text: 'alpha ' }, { text: 'beta' }] },
        { artifactId: 'file', parts: [{ url: 'https://files.example/r.pdf', mediaType: 'application/pdf' }] },
      ],
    });
    expect(conversationOf(view)).toEqual([
      {
        key: 'message u-1',
        from: 'user',
        kind: 'message',
        title: undefined,
        parts: [{ kind: 'text', text: markdown, mediaType: undefined }],
      },
      {
        key: 'message a-1',
        from: 'agent',
        kind: 'message',
        title: undefined,
        parts: [
          { kind: 'text', text: 'working on it', mediaType: undefined },
          { kind: 'data', json: '{\n  "a": 1\n}' },
        ],
      },
      // A snapshot's status message is one of the task's messages, after its history.
      {
        key: 'message s-1',
        from: 'agent',
        kind: 'message',
        title: undefined,
        parts: [{ kind: 'text', text: 'done', mediaType: undefined }],
      },
      {
        key: 'artifact text',
        from: 'agent',
        kind: 'artifact',
        title: 'reply',
        parts: [{ kind: 'text', text: 'alpha beta', mediaType: undefined }],
      },
      {
        key: 'artifact file',
        from: 'agent',
        kind: 'artifact',
        title: 'file',
        parts: [{ kind: 'file', label: 'file https://files.example/r.pdf (application/pdf)' }],
      },
    ]);
  });

  it('does not repeat a status message the history already holds', () => {
    const said = { messageId: 'a-1', role: 'ROLE_AGENT' as const, parts: [{ text: 'done' }] };
    const view = viewOf({
      id: 't-2',
      contextId: 'c-1',
      status: { state: 'TASK_STATE_COMPLETED', message: said },
      history: [said],
    });
    expect(conversationOf(view).map((entry) => entry.key)).toEqual(['message a-1']);
  });
});

describe('renderPart', () => {
  it.each<[string, Part, RenderedPart]>([
    [
      'text, Markdown and HTML as its characters',
      { text: markdown, mediaType: 'text/markdown' },
      { kind: 'text', text: markdown, mediaType: 'text/markdown' },
    ],
    [
      'bytes by name and media type, never decoded',
      { raw: 'aGk=', filename: 'a.bin', mediaType: 'application/octet-stream' },
      { kind: 'file', label: 'bytes a.bin (application/octet-stream)' },
    ],
    [
      'a file URL by its name, never fetched',
      { url: 'https://x.example/a', filename: 'a.txt' },
      { kind: 'file', label: 'file a.txt' },
    ],
    ['data as JSON', { data: [1, 'two'] }, { kind: 'data', json: '[\n  1,\n  "two"\n]' }],
  ])('%s', (_, part, rendered) => {
    expect(renderPart(part)).toEqual(rendered);
  });
});
