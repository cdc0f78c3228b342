import type { ActiveFault, FaultId, FaultKind } from '@surecall/mocks';
import { createFaultLab, safeParseFaultSpec } from '@surecall/mocks';
import { describe, expect, it } from 'vitest';
import {
  armedFor,
  describeFault,
  executionsPath,
  faultGroups,
  faultOperations,
  faultSpec,
  faultSwitches,
  initialValues,
  parseExecutions,
  parseFaultList,
} from './faults.js';

const fault = (spec: ActiveFault['spec'], remaining = 1, id = 'fault-1'): ActiveFault => ({
  id: id as FaultId,
  spec,
  remaining,
});

describe('faultSwitches', () => {
  it('lists every kind the mock knows once, lost responses first', () => {
    const kinds = faultSwitches.map((entry) => entry.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds.slice(0, 3)).toEqual(['drop-after', 'drop-before', 'status-after']);
    expect(faultSwitches.map((entry) => entry.group)).toEqual(
      [...faultSwitches.map((entry) => entry.group)].sort(
        (a, b) => Object.keys(faultGroups).indexOf(a) - Object.keys(faultGroups).indexOf(b),
      ),
    );
  });

  it('arms, with its initial parameters, a spec the mock accepts, for every kind and operation', () => {
    for (const entry of faultSwitches) {
      for (const operation of faultOperations) {
        const result = faultSpec(entry.kind, operation, initialValues(entry), 1);
        expect(result.ok).toBe(true);
        expect(safeParseFaultSpec(result.spec)).toMatchObject({ ok: true });
      }
    }
  });

  it('arms a spec the mock lab lists back as this switch', () => {
    const lab = createFaultLab();
    const result = faultSpec('drop-after', 'SendMessage', {}, 2);
    if (!result.ok) {
      throw new Error('expected a spec');
    }
    lab.set(result.spec);
    const listed = parseFaultList(JSON.parse(JSON.stringify({ faults: lab.list() })));
    expect(listed && armedFor(listed, 'drop-after', 'SendMessage')).toHaveLength(1);
    expect(listed?.[0]?.remaining).toBe(2);
  });
});

describe('faultSpec', () => {
  it('reads the parameters from the inputs’ strings', () => {
    expect(faultSpec('delay', 'GetTask', { ms: ' 150 ', when: 'before' }, 3)).toEqual({
      ok: true,
      spec: { kind: 'delay', operation: 'GetTask', count: 3, ms: 150, when: 'before' },
    });
    expect(faultSpec('cut-stream', 'SendStreamingMessage', { afterFrames: '0' }, 1).spec).toEqual({
      kind: 'cut-stream',
      operation: 'SendStreamingMessage',
      count: 1,
      afterFrames: 0,
    });
  });

  it.each([
    ['delay', { ms: '600001' }, 1, 'ms'],
    ['delay', { ms: '' }, 1, 'ms'],
    ['delay', { ms: '1.5' }, 1, 'ms'],
    ['delay', { ms: '10', when: 'during' }, 1, 'when'],
    ['status-after', { status: '404' }, 1, 'status'],
    ['cut-stream', { afterFrames: '-1' }, 1, 'afterFrames'],
    ['drop-after', {}, 0, 'count'],
    ['drop-after', {}, 1.5, 'count'],
  ] as [FaultKind, Record<string, string>, number, string][])(
    '%s with %j ×%d is refused on %s',
    (kind, values, count, field) => {
      const result = faultSpec(kind, 'SendMessage', values, count);
      expect(result.ok).toBe(false);
      expect(result.problem?.field).toBe(field);
    },
  );
});

describe('parseFaultList', () => {
  it('reads the mock’s answer', () => {
    const body = {
      faults: [{ id: 'fault-3', spec: { kind: 'drop-after', operation: 'SendMessage' }, remaining: 1 }],
    };
    expect(parseFaultList(body)).toEqual(body.faults);
    expect(parseFaultList({ faults: [] })).toEqual([]);
  });

  it.each([
    null,
    'faults',
    { faults: 'none' },
    { faults: [{ id: 1, spec: { kind: 'drop-after', operation: 'SendMessage' }, remaining: 1 }] },
    { faults: [{ id: 'f', spec: { kind: 'explode', operation: 'SendMessage' }, remaining: 1 }] },
    { faults: [{ id: 'f', spec: { kind: 'drop-after' }, remaining: 1 }] },
    { faults: [{ id: 'f', spec: { kind: 'drop-after', operation: 'SendMessage' }, remaining: -1 }] },
    { faults: [{ id: 'f', spec: { kind: 'toString', operation: 'SendMessage' }, remaining: 1 }] },
  ])('refuses %j', (body) => {
    expect(parseFaultList(body)).toBeUndefined();
  });
});

describe('parseExecutions', () => {
  it.each([
    [{ total: 0 }, { total: 0, byMessageId: {} }],
    [
      { total: 4, byMessageId: { 'm-1': 1, 'm-2': 0 } },
      { total: 4, byMessageId: { 'm-1': 1, 'm-2': 0 } },
    ],
  ])('reads %j', (body, count) => {
    expect(parseExecutions(body)).toEqual(count);
  });

  it.each([
    null,
    {},
    { total: -1 },
    { total: '3' },
    { total: 1, byMessageId: [] },
    { total: 1, byMessageId: { m: 'x' } },
  ])('refuses %j', (body) => {
    expect(parseExecutions(body)).toBeUndefined();
  });
});

describe('executionsPath', () => {
  it('asks for the latest 20 message ids, encoded', () => {
    expect(executionsPath([])).toBe('/__executions');
    expect(executionsPath(['m-1', 'm 2&x'])).toBe('/__executions?messageId=m-1&messageId=m+2%26x');
    const ids = Array.from({ length: 25 }, (_, index) => `m${index}`);
    const query = new URL(`http://x${executionsPath(ids)}`).searchParams.getAll('messageId');
    expect(query).toEqual(ids.slice(5));
  });
});

describe('armedFor', () => {
  const active = [
    fault({ kind: 'drop-after', operation: 'SendMessage' }, 1, 'a'),
    fault({ kind: 'drop-after', operation: '*' }, 1, 'b'),
    fault({ kind: 'drop-after', operation: 'GetTask' }, 1, 'c'),
    fault({ kind: 'drop-before', operation: 'SendMessage' }, 1, 'd'),
  ];

  it('finds the faults of a kind aimed at the operation or at any', () => {
    expect(armedFor(active, 'drop-after', 'SendMessage').map((entry) => entry.id)).toEqual(['a', 'b']);
    expect(armedFor(active, 'cut-stream', 'SendMessage')).toEqual([]);
  });
});

describe('describeFault', () => {
  it.each([
    [fault({ kind: 'drop-after', operation: 'SendMessage' }), 'Drop after commit on SendMessage, 1 left'],
    [
      fault({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2, count: 3 }, 2),
      'Cut stream on SendStreamingMessage (afterFrames 2), 2 left',
    ],
    [
      fault({ kind: 'delay', operation: '*', binding: 'JSONRPC', ms: 10, when: 'after' }),
      'Delay on any operation over JSONRPC (ms 10, when after), 1 left',
    ],
  ])('%j reads %j', (entry, text) => {
    expect(describeFault(entry)).toBe(text);
  });
});
