import type { SparseData, SparseSplitKernel } from '@sparse/kernel-abi';
import { allocValues, copyValue } from '@sparse/kernel-abi';

/** Whole-number division of non-negative safe integers, exact (a float quotient can round up to the next integer). */
const idiv = (a: number, b: number): number => (a - (a % b)) / b;

/**
 * `sp_input` cut along `axis` into `num_split` pieces (checked by the runtime: rank >= 1, an axis in range,
 * 1 <= num_split <= shape[axis]). With q = floor(size / num_split) and r = size % num_split, the first r pieces
 * take q + 1 positions along the axis and the rest q, as TensorFlow's SparseSplit does. Each entry goes to its
 * piece with the axis index made relative to the piece's start; within a piece entries keep the input's order.
 * Linear in nnz plus num_split.
 */
export const sparseSplit: SparseSplitKernel = ({ axis, num_split, sp_input }) => {
  const { indices, values, shape, dtype } = sp_input;
  const rank = shape.length;
  const ax = axis < 0 ? axis + rank : axis;
  const size = shape[ax];
  const r = size % num_split;
  const q = idiv(size, num_split);
  const big = r * (q + 1); // where the pieces of size q start
  const pieceOf = (x: number) => (x < big ? idiv(x, q + 1) : r + idiv(x - big, q));
  const startOf = (p: number) => (p < r ? p * (q + 1) : big + (p - r) * q);

  const n = values.length;
  const piece = new Uint32Array(n);
  const counts = new Uint32Array(num_split);
  for (let i = 0; i < n; i++) {
    const p = pieceOf(indices[i * rank + ax]);
    piece[i] = p;
    counts[p]++;
  }
  const output: SparseData[] = [];
  for (let p = 0; p < num_split; p++) {
    const outShape = [...shape];
    outShape[ax] = p < r ? q + 1 : q;
    output.push({
      kind: 'sparse',
      indices: new Float64Array(counts[p] * rank),
      values: allocValues(dtype, counts[p]),
      shape: outShape,
      dtype,
    });
  }
  const filled = new Uint32Array(num_split);
  for (let i = 0; i < n; i++) {
    const p = piece[i];
    const out = output[p];
    const k = filled[p]++;
    for (let d = 0, src = i * rank, dst = k * rank; d < rank; d++) out.indices[dst + d] = indices[src + d];
    out.indices[k * rank + ax] -= startOf(p);
    copyValue(out.values, k, values, i);
  }
  return { output };
};
