import { describe, expect, it } from 'vitest';
import { exitCodeOfPass, type PassReport } from './exit-code.js';

const none: PassReport = { claimed: 0, committed: 0, pending: 0, unresolved: 0, skipped: 0, superseded: 0 };

describe('exitCodeOfPass', () => {
  it.each<[string, Partial<PassReport>, number]>([
    ['nothing was due', {}, 0],
    ['every claimed send committed', { claimed: 3, committed: 3 }, 0],
    ['one is pending', { claimed: 2, committed: 1, pending: 1 }, 3],
    ['one was claimed but not probeable here', { claimed: 1, skipped: 1 }, 3],
    ['another writer moved one first', { claimed: 2, committed: 1, superseded: 1 }, 3],
    ['one is unresolved', { claimed: 2, pending: 1, unresolved: 1 }, 4],
    ['one was probed into a status the report does not count (duplicated)', { claimed: 2, committed: 1 }, 4],
  ])('%s', (_, counts, code) => {
    expect(exitCodeOfPass({ ...none, ...counts })).toBe(code);
  });
});
