import type { DType, Values } from '@sparse/kernel-abi';
import { allocValues } from '@sparse/kernel-abi';

/**
 * For each stored entry i of a sparse matrix, the dot product of row `row_i` of X and row `col_i` of Y (both
 * row-major with `width` columns), (row, col) read swapped when `swap`: the products of two dense matrices sampled
 * at the stored indices, as a matmul's gradient with respect to the stored values needs. float32 rounds every
 * product and sum. O(nnz · width).
 */
export function sampledProducts(
  indices: Float64Array,
  nnz: number,
  swap: boolean,
  x: Values,
  y: Values,
  width: number,
  dtype: DType,
): Values {
  const out = allocValues(dtype, nnz);
  const [rc, cc] = swap ? [1, 0] : [0, 1];
  const xs = x as Float64Array;
  const ys = y as Float64Array;
  const o = out as Float64Array;
  const f32 = dtype === 'float32';
  for (let i = 0; i < nnz; i++) {
    const p = indices[2 * i + rc] * width;
    const q = indices[2 * i + cc] * width;
    let s = 0;
    if (f32) for (let j = 0; j < width; j++) s = Math.fround(s + Math.fround(xs[p + j] * ys[q + j]));
    else for (let j = 0; j < width; j++) s += xs[p + j] * ys[q + j];
    o[i] = s;
  }
  return out;
}
