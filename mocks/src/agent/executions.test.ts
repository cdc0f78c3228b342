import { describe, expect, it } from 'vitest';
import { createExecutionCounter } from './executions.js';

describe('createExecutionCounter', () => {
  it('counts per (tenant, messageId) and in total', () => {
    const counter = createExecutionCounter();
    counter.record('', 'm-1');
    counter.record('', 'm-1');
    counter.record('acme', 'm-1');
    counter.record('', 'm-2');
    expect(counter.of('m-1')).toBe(2);
    expect(counter.of('m-1', '')).toBe(2);
    expect(counter.of('m-1', 'acme')).toBe(1);
    expect(counter.of('m-2')).toBe(1);
    expect(counter.of('m-3')).toBe(0);
    expect(counter.total()).toBe(4);
  });

  it('never mixes up tenants and ids that join to the same text', () => {
    const counter = createExecutionCounter();
    counter.record('a:b', 'c');
    expect(counter.of('b:c', 'a')).toBe(0);
    expect(counter.of('c', 'a:b')).toBe(1);
  });

  it('forgets everything on reset', () => {
    const counter = createExecutionCounter();
    counter.record('', 'm-1');
    counter.reset();
    expect(counter.total()).toBe(0);
    expect(counter.of('m-1')).toBe(0);
  });
});
