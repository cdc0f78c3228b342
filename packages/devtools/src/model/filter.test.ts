import { openLedger } from '@surecall/client/ledger/memory';
import { describe, expect, it } from 'vitest';
import { filterItems, matchesQuery, queryWords, sendFields, taskFields } from './filter.js';
import { lostSend, reconciledSend } from './ledger-fixtures.js';
import { applyTaskSnapshot, emptyTaskViews } from './task-view.js';

describe('matchesQuery', () => {
  it.each([
    ['an empty query keeps everything', '', ['x'], true],
    ['blanks are no words', '  \t ', [], true],
    ['a word in a field, ignoring case', 'LYON', ['task book the 9:40 to Lyon'], true],
    ['every word must appear, in any field', 'lyon committed', ['to Lyon', 'committed'], true],
    ['one word missing refuses', 'lyon failed', ['to Lyon', 'committed'], false],
    ['an absent field is no match', 'ctx', [undefined], false],
  ] as const)('%s', (_, query, fields, expected) => {
    expect(matchesQuery(query, fields)).toBe(expected);
  });

  it('reads the words of a query', () => {
    expect(queryWords(' Task  ABC ')).toEqual(['task', 'abc']);
  });
});

describe('the fields of each item', () => {
  it('finds a send by its id, status, text and the task it committed to', async () => {
    const ledger = await openLedger({ name: 'filter' });
    const committed = await reconciledSend(ledger, 'send-1');
    const unknown = await lostSend(ledger, 'send-2');
    const records = [committed, unknown];
    expect(filterItems('committed', records, sendFields).map((record) => record.id)).toEqual(['send-1']);
    expect(filterItems('task-send-1', records, sendFields).map((record) => record.id)).toEqual(['send-1']);
    expect(filterItems('book unknown', records, sendFields).map((record) => record.id)).toEqual(['send-2']);
    expect(filterItems('send-', records, sendFields)).toHaveLength(2);
  });

  it('finds a task by its context, state and what it said', () => {
    const views = applyTaskSnapshot(
      emptyTaskViews,
      {
        id: 't-1',
        contextId: 'ctx-9',
        status: { state: 'TASK_STATE_WORKING' },
        history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'book the 9:40' }] }],
        artifacts: [{ artifactId: 'a', parts: [{ text: 'seat 12A' }] }],
      },
      0,
    ).tasks;
    for (const query of ['ctx-9', 'working', '9:40', 'seat 12a', 't-1']) {
      expect(filterItems(query, views, taskFields), query).toHaveLength(1);
    }
    expect(filterItems('completed', views, taskFields)).toEqual([]);
  });
});
