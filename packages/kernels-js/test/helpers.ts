import type { SparseData, Values } from '@sparse/kernel-abi';

type Plain = number | bigint | boolean | string;

/** The index tuples of SparseData. */
export function rows(st: SparseData): number[][] {
  const rank = st.shape.length;
  return Array.from({ length: st.values.length }, (_, i) => Array.from(st.indices.subarray(i * rank, (i + 1) * rank)));
}

/** A store as a plain list (Uint8Array bools stay 0/1). */
export function list(v: Values): Plain[] {
  return Array.from(v as ArrayLike<Plain>);
}
