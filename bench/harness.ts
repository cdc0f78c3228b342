/**
The shared machinery of `npm run bench`: every row compares ours with a named anchor measured side by side in
the same run, as the median of several alternating runs, so a noisy shared machine moves both sides alike.
*/
export type BenchRow = {
  readonly name: string;
  readonly unit: string;
  readonly value: number;
  readonly anchor: string;
  readonly anchorValue: number;
  /** value / anchorValue. */
  readonly ratio: number;
  /** The goal, as text, e.g. `ratio >= 3.0`. */
  readonly goal: string;
  readonly met: boolean;
};

export type Goal = { readonly op: '>=' | '<='; readonly ratio: number };

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const upper = sorted[middle];
  const lower = sorted[sorted.length % 2 === 0 ? middle - 1 : middle];
  if (upper === undefined || lower === undefined) {
    throw new Error('median of an empty list');
  }
  return (upper + lower) / 2;
}

/** Runs `ours` and `anchor` alternately `runs` times after one warm-up each, returning both medians. */
export async function sideBySide(
  runs: number,
  ours: () => Promise<number> | number,
  anchor: () => Promise<number> | number,
): Promise<{ ours: number; anchor: number }> {
  await ours();
  await anchor();
  const oursValues: number[] = [];
  const anchorValues: number[] = [];
  for (let run = 0; run < runs; run++) {
    // Alternate which side goes first so that neither always gets the warmer or the quieter slot.
    if (run % 2 === 0) {
      oursValues.push(await ours());
      anchorValues.push(await anchor());
    } else {
      anchorValues.push(await anchor());
      oursValues.push(await ours());
    }
  }
  return { ours: median(oursValues), anchor: median(anchorValues) };
}

/** Builds a row and judges it against its goal. */
export function row(
  name: string,
  unit: string,
  measured: { ours: number; anchor: number },
  anchor: string,
  goal: Goal,
): BenchRow {
  const ratio = measured.ours / measured.anchor;
  return {
    name,
    unit,
    value: round(measured.ours),
    anchor,
    anchorValue: round(measured.anchor),
    ratio: round(ratio),
    goal: `ratio ${goal.op} ${goal.ratio}`,
    met: goal.op === '>=' ? ratio >= goal.ratio : ratio <= goal.ratio,
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Wall time of one call, in milliseconds. */
export async function timeMs(work: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}
