import type { Artifact, Part } from '@surecall/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AssembledArtifact,
  applyArtifactSnapshot,
  applyArtifactUpdate,
  artifactText,
} from './artifacts.js';

const chunk = (artifactId: string, text: string, append: boolean, lastChunk = false) => ({
  artifact: { artifactId, name: artifactId, parts: [{ text }] },
  append,
  lastChunk,
});

function fold(updates: readonly ReturnType<typeof chunk>[]): AssembledArtifact[] {
  return updates.reduce<AssembledArtifact[]>((held, update) => applyArtifactUpdate(held, update), []);
}

describe('applyArtifactUpdate', () => {
  it('assembles the mock agent’s word chunks into the text, complete after the last chunk', () => {
    const artifacts = fold([
      chunk('text', 'alpha ', false),
      chunk('text', 'beta ', true),
      chunk('text', 'gamma', true, true),
    ]);
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]).toMatchObject({
      artifactId: 'text',
      chunks: 3,
      state: 'complete',
      missedStart: false,
    });
    expect(artifactText(artifacts[0] as AssembledArtifact)).toBe('alpha beta gamma');
  });

  it('is streaming until the last chunk', () => {
    expect(fold([chunk('text', 'alpha ', false)])[0]?.state).toBe('streaming');
  });

  it('starts an artifact afresh when a chunk does not append (as docs/protocol-checks.md#stream-events recommends)', () => {
    const artifacts = fold([chunk('text', 'old', false, true), chunk('text', 'new', false)]);
    expect(artifacts[0]).toMatchObject({ parts: [{ text: 'new' }], chunks: 1, state: 'streaming' });
  });

  it('flags an append with nothing to append to, and still shows its parts', () => {
    const [artifact] = fold([chunk('text', 'late', true)]);
    expect(artifact).toMatchObject({ parts: [{ text: 'late' }], missedStart: true });
  });

  it('keeps artifacts apart and in first-seen order', () => {
    const artifacts = fold([
      chunk('a', 'a1', false),
      chunk('b', 'b1', false),
      chunk('a', 'a2', true, true),
      chunk('b', 'b2', true),
    ]);
    expect(
      artifacts.map((artifact) => [artifact.artifactId, artifactText(artifact), artifact.state]),
    ).toEqual([
      ['a', 'a1a2', 'complete'],
      ['b', 'b1b2', 'streaming'],
    ]);
  });

  it('never changes the list it is given', () => {
    const held = fold([chunk('text', 'alpha ', false)]);
    const copy = structuredClone(held);
    applyArtifactUpdate(held, chunk('text', 'beta', true));
    expect(held).toEqual(copy);
  });

  it('gives the same parts however they are split into chunks', () => {
    const parts = fc.array(
      fc.string({ minLength: 1 }).map((text): Part => ({ text })),
      {
        minLength: 1,
        maxLength: 20,
      },
    );
    fc.assert(
      fc.property(parts, fc.array(fc.nat(), { maxLength: 20 }), (all, cuts) => {
        const bounds = [...new Set(cuts.map((cut) => cut % all.length))].sort((a, b) => a - b);
        const edges = [0, ...bounds.filter((cut) => cut > 0), all.length];
        const updates = edges.slice(1).map((end, index) => ({
          artifact: { artifactId: 'x', parts: all.slice(edges[index], end) },
          append: index > 0,
          lastChunk: end === all.length,
        }));
        const [artifact] = updates.reduce<AssembledArtifact[]>(applyArtifactUpdate, []);
        expect(artifact?.parts).toEqual(all);
        expect(artifact?.chunks).toBe(updates.length);
        expect(artifact?.state).toBe('complete');
      }),
    );
  });
});

describe('applyArtifactSnapshot', () => {
  const snapshot: Artifact[] = [{ artifactId: 'text', name: 'text', parts: [{ text: 'alpha beta' }] }];

  it('holds a snapshot’s artifacts whole, replacing what was assembled', () => {
    const held = fold([chunk('text', 'alpha ', false)]);
    expect(applyArtifactSnapshot(held, snapshot)).toEqual([
      {
        artifactId: 'text',
        name: 'text',
        parts: [{ text: 'alpha beta' }],
        chunks: 0,
        state: 'snapshot',
        missedStart: false,
      },
    ]);
  });

  it('keeps the chunk history of an artifact the snapshot confirms', () => {
    const held = fold([chunk('text', 'alpha ', false), chunk('text', 'beta', true, true)]);
    const confirmed = applyArtifactSnapshot(held, [
      { artifactId: 'text', name: 'text', parts: [{ text: 'alpha ' }, { text: 'beta' }] },
    ]);
    expect(confirmed[0]).toBe(held[0]);
    const changed = applyArtifactSnapshot(held, [
      { artifactId: 'text', parts: [{ text: 'alpha ' }, { text: 'beta!' }] },
    ]);
    expect(changed[0]).toMatchObject({ state: 'snapshot', chunks: 0 });
    const extra = applyArtifactSnapshot(held, [
      { artifactId: 'text', parts: [{ text: 'alpha ' }, { text: 'beta', mediaType: 'text/plain' }] },
    ]);
    expect(extra[0]?.state).toBe('snapshot');
  });

  it('keeps what is held when the snapshot has no artifacts member', () => {
    const held = fold([chunk('text', 'alpha ', false)]);
    expect(applyArtifactSnapshot(held, undefined)).toBe(held);
  });

  it('lets later chunks append to a snapshot', () => {
    const held = applyArtifactUpdate(
      applyArtifactSnapshot([], snapshot),
      chunk('text', ' gamma', true, true),
    );
    expect(held[0]).toMatchObject({ chunks: 1, state: 'complete', missedStart: false });
    expect(artifactText(held[0] as AssembledArtifact)).toBe('alpha beta gamma');
  });
});

describe('artifactText', () => {
  it('joins the text parts only', () => {
    expect(
      artifactText({
        parts: [{ text: 'a ' }, { data: { k: 1 } }, { url: 'https://x.example/f' }, { text: 'b' }],
      }),
    ).toBe('a b');
  });
});
