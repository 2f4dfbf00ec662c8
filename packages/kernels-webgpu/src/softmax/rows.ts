import { magnitude as M, magnitudesOf, rowEnd, type SparseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import { sumOf } from '../segments/plan.js';

/** The innermost rows of a sparse tensor in canonical order: row r's entries are start[r] .. start[r + 1]. */
export interface InnermostRows {
  start: Uint32Array;
  count: number;
  longest: number;
}

/**
 * The innermost rows (entries agreeing on every dim but the last), found as the JS kernels find them: the indices
 * are in canonical order (checked by the runtime), so a row is a run of consecutive entries. O(nnz · rank).
 */
export function innermostRows(sp: SparseData): InnermostRows {
  const n = sp.values.length;
  const rank = sp.shape.length;
  const start = new Uint32Array(n + 1);
  let count = 0;
  let longest = 0;
  for (let s = 0, end: number; s < n; s = end, count++) {
    end = rowEnd(sp.indices, s, n, rank);
    start[count] = s;
    longest = Math.max(longest, end - s);
  }
  start[count] = n;
  return { start: start.subarray(0, count + 1), count, longest };
}

/** Where exp(x − max) is below 2^-151: float32 rounds it to 0 on the JS kernels, and a GPU flushes it, so both give 0. */
const LN_UNDERFLOW = Math.log(2 ** -151);

/**
 * Whether a float32 softmax could take a subnormal value (the gpu.js backend's bound, subnormalSoftmaxRefusal):
 * each row is exp(x − max) · (1 / Σ exp(x − max)), the sum within [1, the row's length], so each entry's exp and
 * value are at least exp(x − max) / length, which must stay normal with a factor-2 margin for each of the GPU's exp
 * and reciprocal, unless exp(x − max) underflows on both (a masked logit, x − max below about −104.7). x − max
 * itself is subnormal only where x and max are both below 2^-103, and float32's exp of it is 1 either way. O(nnz).
 */
export function softmaxMayBeSubnormal(values: ArrayLike<number>, rows: InnermostRows): boolean {
  const { start, count } = rows;
  for (let r = 0; r < count; r++) {
    const [s, e] = [start[r], start[r + 1]];
    let max = values[s];
    for (let p = s + 1; p < e; p++) max = Math.max(max, values[p]);
    // exp(x − max) / (4 · length) ≥ 2^-126 where x − max ≥ lnNormal
    const lnNormal = Math.log(4 * (e - s) * M.MIN_NORMAL);
    for (let p = s; p < e; p++) {
      const d = values[p] - max;
      if (d < lnNormal && d >= LN_UNDERFLOW) return true;
    }
  }
  return false;
}

/**
 * Whether the float32 softmax gradient (grad − Σ grad · y) · y could take a subnormal value: the products, their
 * row sums (up to the longest row), the difference and the last product, over the magnitudes of grad and y. O(nnz).
 */
export function softmaxGradMayBeSubnormal(y: ArrayLike<number>, grad: ArrayLike<number>, longest: number): boolean {
  const [my, mg] = [magnitudesOf(y), magnitudesOf(grad)];
  const sum = sumOf(M.mul(mg, my), longest);
  return !M.mul(M.sub(mg, sum), my);
}

/**
 * One invocation per innermost row, as the JS kernel computes it: the row's max, then exp(x − max) of each entry
 * (written out) summed in entry order, then each times the reciprocal of the sum. p = [rows].
 */
export const SOFTMAX = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> start: array<u32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let s = start[i];
  let e = start[i + 1u];
  var m = x[s];
  for (var q = s + 1u; q < e; q++) { m = max(m, x[q]); }
  var sum = 0.0;
  for (var q = s; q < e; q++) {
    let v = exp(x[q] - m);
    out[q] = v;
    sum = sum + v;
  }
  let inv = 1.0 / sum;
  for (var q = s; q < e; q++) { out[q] = out[q] * inv; }
}
`;

/**
 * One invocation per innermost row: the row sum of grad · y in entry order, then (grad − sum) · y of each entry,
 * as the JS kernel computes it. p = [rows].
 */
export const SOFTMAX_GRAD = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> start: array<u32>;
@group(0) @binding(2) var<storage, read> y: array<f32>;
@group(0) @binding(3) var<storage, read> g: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let s = start[i];
  let e = start[i + 1u];
  var sum = 0.0;
  for (var q = s; q < e; q++) { sum = sum + g[q] * y[q]; }
  for (var q = s; q < e; q++) { out[q] = (g[q] - sum) * y[q]; }
}
`;
