import type { DenseData, DType, SparseData, Values } from '@sparse/kernel-abi';
import { allocValues } from '@sparse/kernel-abi';

type Plain = number | bigint | boolean | string;

/** A value store of the dtype holding `items` (bool as 0/1, int64 as bigint). */
export function store(dtype: DType, items: readonly Plain[]): Values {
  const out = allocValues(dtype, items.length) as unknown as Plain[];
  items.forEach((x, i) => {
    out[i] = dtype === 'bool' ? (x ? 1 : 0) : dtype === 'int64' ? BigInt(x as number | bigint) : x;
  });
  return out as unknown as Values;
}

/** SparseData from index tuples. */
export function sparse(
  indices: readonly (readonly number[])[],
  values: readonly Plain[],
  shape: number[],
  dtype: DType,
): SparseData {
  return { kind: 'sparse', indices: Float64Array.from(indices.flat()), values: store(dtype, values), shape, dtype };
}

export function dense(data: readonly Plain[], shape: number[], dtype: DType): DenseData {
  return { kind: 'dense', data: store(dtype, data), shape, dtype };
}

/** The index tuples of SparseData. */
export function rows(st: SparseData): number[][] {
  const rank = st.shape.length;
  return Array.from({ length: st.values.length }, (_, i) => Array.from(st.indices.subarray(i * rank, (i + 1) * rank)));
}

/** A store as a plain list (Uint8Array bools stay 0/1). */
export function list(v: Values): Plain[] {
  return Array.from(v as ArrayLike<Plain>);
}

/** A deterministic pseudo-random generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
