import { describe, expect, it } from 'vitest';
import {
  currentToken,
  defaultTaskFilter,
  firstPage,
  listTasksParams,
  nextPage,
  previousPage,
  type TaskFilterForm,
} from './task-filters.js';

const form = (overrides: Partial<TaskFilterForm>): TaskFilterForm => ({ ...defaultTaskFilter, ...overrides });

describe('listTasksParams', () => {
  it('asks for one page of every task by default', () => {
    expect(listTasksParams(defaultTaskFilter, '')).toEqual({ ok: true, params: { pageSize: 20 } });
  });

  it('passes the context (trimmed), the state and the page token', () => {
    expect(
      listTasksParams(
        form({ contextId: '  ctx-1 ', status: 'TASK_STATE_COMPLETED', pageSize: '100' }),
        'tok',
      ),
    ).toEqual({
      ok: true,
      params: { pageSize: 100, contextId: 'ctx-1', status: 'TASK_STATE_COMPLETED', pageToken: 'tok' },
    });
  });

  it.each([
    ['2026-01-31T09:30', new Date('2026-01-31T09:30').toISOString()],
    ['2026-01-31T09:30:15', new Date('2026-01-31T09:30:15').toISOString()],
    ['2026-01-31T09:30:00Z', '2026-01-31T09:30:00.000Z'],
    ['2026-01-31T09:30:00.5+02:00', '2026-01-31T07:30:00.500Z'],
  ])('reads since %j as statusTimestampAfter %j', (since, after) => {
    expect(listTasksParams(form({ since }), '')).toEqual({
      ok: true,
      params: { pageSize: 20, statusTimestampAfter: after },
    });
  });

  it.each([
    [{ pageSize: '0' }, 'pageSize'],
    [{ pageSize: '101' }, 'pageSize'],
    [{ pageSize: '2.5' }, 'pageSize'],
    [{ pageSize: ' ' }, 'pageSize'],
    [{ pageSize: 'ten' }, 'pageSize'],
    [{ since: 'yesterday' }, 'since'],
    [{ since: '2026-13-45T99:99' }, 'since'],
    [{ since: '2026-01-31' }, 'since'],
    [{ status: 'TASK_STATE_UNSPECIFIED' }, 'status'],
  ] as const)('refuses %j, naming %s', (overrides, field) => {
    const result = listTasksParams(form(overrides), '');
    expect(result.ok).toBe(false);
    expect(result.problem?.field).toBe(field);
  });
});

describe('paging', () => {
  it('goes forward by the page’s next token and back by the stack', () => {
    const second = nextPage(firstPage, 'p2');
    expect(second).toEqual({ tokens: ['', 'p2'], index: 1 });
    const third = second && nextPage(second, 'p3');
    expect(third && currentToken(third)).toBe('p3');
    const back = third && previousPage(third);
    expect(back && currentToken(back)).toBe('p2');
    // Going forward again from page 2 replaces what followed it.
    expect(back && nextPage(back, 'p3b')).toEqual({ tokens: ['', 'p2', 'p3b'], index: 2 });
  });

  it('stops at the last page and at the first', () => {
    expect(nextPage(firstPage, '')).toBeUndefined();
    expect(previousPage(firstPage)).toBeUndefined();
    expect(currentToken(firstPage)).toBe('');
  });
});
