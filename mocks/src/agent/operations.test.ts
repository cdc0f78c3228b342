import { describe, expect, it } from 'vitest';
import { operationNames } from './operations.js';

describe('operationNames', () => {
  it('lists the eleven operations of A2A v1.0', () => {
    expect(operationNames).toHaveLength(11);
    expect(new Set(operationNames).size).toBe(11);
  });
});
