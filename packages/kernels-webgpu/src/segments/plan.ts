import { magnitude as M, type DenseData } from '@sparse/kernel-abi';

/**
 * What the segment kernels share on the host: the integer arguments as numbers, the grouping of entries by a key
 * (a stable counting sort: linear, each group keeps its entries in their order, which is the order the JS kernels
 * add them in), and the float32 subnormal bound of a sum of rows.
 */

/** How a segment's sum is scaled: not at all, by 1 / count, by 1 / sqrt(count). */
export type SegmentMode = 'sum' | 'mean' | 'sqrt_n';

/** The entries of an int32 or int64 tensor as numbers (the runtime has refused int64 values past 2^53). */
export function intsOf(d: DenseData): ArrayLike<number> {
  const v = d.data;
  if (v instanceof BigInt64Array) return Float64Array.from(v, Number);
  return v as ArrayLike<number>;
}

/** Whether every value is a whole number in [0, bound). */
export function allBelow(values: ArrayLike<number>, bound: number): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!(v >= 0 && v < bound && Number.isInteger(v))) return false;
  }
  return true;
}

/** Whether the values never decrease. */
export function nonDecreasing(values: ArrayLike<number>): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] < values[i - 1]) return false;
  return true;
}

/** Entries grouped by key: key k's are start[k] .. start[k + 1], `item` holding each one's other value. */
export interface Groups {
  start: Uint32Array;
  item: Uint32Array;
  /** The most entries of one key. */
  longest: number;
}

/**
 * A stable counting sort of the entries by `keys` (each in [0, keyCount)), carrying `items`: O(entries + keyCount).
 * Sorted keys (the segment ids of a forward reduction) leave the entries where they are.
 */
export function groupBy(keys: ArrayLike<number>, keyCount: number, items: ArrayLike<number>): Groups {
  const n = keys.length;
  const start = new Uint32Array(keyCount + 1);
  for (let e = 0; e < n; e++) start[keys[e] + 1]++;
  let longest = 0;
  for (let k = 0; k < keyCount; k++) {
    longest = Math.max(longest, start[k + 1]);
    start[k + 1] += start[k];
  }
  const fill = start.slice(0, keyCount);
  const item = new Uint32Array(n);
  for (let e = 0; e < n; e++) item[fill[keys[e]]++] = items[e];
  return { start, item, longest };
}

/**
 * The magnitudes a float32 sum of up to `count` values of magnitudes `m` can take, partial sums included (a sum of
 * `count` terms is within count · m.hi, and a nonzero one at least the finer grid: magnitude.ts), by doubling:
 * O(log count). undefined where a step could be subnormal.
 */
export function sumOf(m: M.Maybe, count: number): M.Maybe {
  let s = m;
  for (let c = 1; c < count && s; c *= 2) s = M.add(s, s);
  return s;
}
