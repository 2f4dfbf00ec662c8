// Random SparseTensors of every dtype, and a dense oracle for ops that only move entries: the result at each
// output position is the input at the position the dense op reads it from.
import fc from 'fast-check';
import { valueArb } from './arbitraries.js';
import { indexOf, sizeOf } from './grid.js';

export type AnyDType = 'float32' | 'float64' | 'int32' | 'int64' | 'bool' | 'string';
export const ANY_DTYPES: AnyDType[] = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'];

export type Value = number | boolean | string;

export interface AnySparse {
  sparse: { indices: number[][]; values: Value[]; dense_shape: number[] };
  dtype: AnyDType;
}

export function anyValueArb(dtype: AnyDType): fc.Arbitrary<Value> {
  if (dtype === 'bool') return fc.boolean();
  if (dtype === 'string') return fc.string({ maxLength: 3 });
  return valueArb(dtype);
}

/** A SparseTensor of `shape`: a random subset of positions without repeats, in canonical order or shuffled. */
export function anySparseArb(
  shape: number[],
  dtype: AnyDType,
  opts: { unordered?: boolean } = {},
): fc.Arbitrary<AnySparse> {
  const size = sizeOf(shape);
  const positions = Array.from({ length: size }, (_, i) => i);
  const subset = opts.unordered ? fc.shuffledSubarray(positions) : fc.subarray(positions);
  return fc.tuple(subset, fc.array(anyValueArb(dtype), { minLength: size, maxLength: size })).map(([pos, vals]) => ({
    sparse: { indices: pos.map((off) => indexOf(off, shape)), values: pos.map((_, i) => vals[i]), dense_shape: shape },
    dtype,
  }));
}

/** Which entry of `sp` is stored at each dense position (its number in `sp`), -1 where none is. */
export function entryAt(sp: AnySparse): Int32Array {
  const shape = sp.sparse.dense_shape;
  const at = new Int32Array(sizeOf(shape)).fill(-1);
  const strides = shape.map((_, d) => sizeOf(shape.slice(d + 1)));
  sp.sparse.indices.forEach((ix, i) => {
    at[ix.reduce((o, x, d) => o + x * strides[d], 0)] = i;
  });
  return at;
}

/** One entry of a result: its index, its value, and a key that orders entries the way the op does. */
export interface Found {
  index: number[];
  value: Value;
  key: number;
}

/**
 * The result of an op that moves entries, from the dense op it mirrors: `source(index)` names the input entry
 * that the dense op puts at each output position (or null). Entries are sorted by `key` (the source's position in
 * its input for ops that keep the input order; the output position for ops that sort).
 */
export function gatherDense(
  outShape: number[],
  dtype: AnyDType,
  source: (index: number[], offset: number) => Found | null,
): AnySparse {
  const found: Found[] = [];
  for (let off = 0; off < sizeOf(outShape); off++) {
    const index = indexOf(off, outShape);
    const f = source(index, off);
    if (f) found.push({ ...f, index });
  }
  found.sort((a, b) => a.key - b.key);
  return {
    sparse: { indices: found.map((f) => f.index), values: found.map((f) => f.value), dense_shape: outShape },
    dtype,
  };
}
