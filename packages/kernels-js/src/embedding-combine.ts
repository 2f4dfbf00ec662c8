import { allocValues, type Combiner, type DenseData, type EmbeddingPlan, type SparseData } from '@sparse/kernel-abi';

export interface CombineArgs {
  params: DenseData;
  sp: SparseData;
  weights: SparseData | null;
  combiner: Combiner;
  maxNorm: number | null;
  /** safe_*: ids below 0 are dropped, and, with weights and a combiner other than sum, weights not above 0. */
  prune: boolean;
  /** safe_*: the id whose embedding a row without ids gets (null: zeros). */
  defaultId: number | null;
}

/**
 * The reference embedding lookup: one pass over the ids, each adding its row of `params` (scaled to `maxNorm` first,
 * times its weight) into its output row, then each row divided as the combiner says. In the dtype: float32 rounds
 * every product, sum and quotient to float32 (Math.fround, and the Float32Array stores), as TensorFlow computes.
 * A weighted row whose divisor is 0 is zeros (TensorFlow's div_no_nan). O(ids · row size + output size).
 */
export function combineEmbeddings(a: CombineArgs, plan: EmbeddingPlan): DenseData {
  const { params, sp, weights, combiner, prune } = a;
  const { dtype } = params;
  const { rows, inner, strides } = plan;
  const out = allocValues(dtype, rows * inner) as Float32Array | Float64Array;
  const result: DenseData = { kind: 'dense', data: out, shape: plan.shape, dtype };
  if (inner === 0 || rows === 0) return result;
  const round = dtype === 'float32' ? Math.fround : (x: number) => x;
  const table = params.data as Float32Array | Float64Array;
  const ids = sp.values as Int32Array | BigInt64Array;
  const w = weights?.values as Float32Array | Float64Array | undefined;
  const Store = dtype === 'float32' ? Float32Array : Float64Array;
  const counts = new Int32Array(rows);
  const divisors = w && combiner !== 'sum' ? new Store(rows) : undefined;
  const clipped = a.maxNorm === null ? undefined : new Store(inner);
  // The embedding of an id, as [array, offset]: its row of params, or that row scaled to max_norm.
  const embedding = (id: number): [Float32Array | Float64Array, number] =>
    clipped ? [clipRow(table, id * inner, inner, round(a.maxNorm!), round, clipped), 0] : [table, id * inner];
  const rowOf = (i: number) => {
    const rank = sp.shape.length;
    let r = 0;
    for (let k = 0; k < strides.length; k++) r += sp.indices[i * rank + k] * strides[k];
    return r;
  };
  const n = ids.length;
  for (let i = 0; i < n; i++) {
    const id = Number(ids[i]);
    if (prune && (id < 0 || (w && combiner !== 'sum' && !(w[i] > 0)))) continue;
    const r = rowOf(i);
    counts[r]++;
    const [src, s] = embedding(id);
    const o = r * inner;
    if (w) {
      const wi = w[i];
      for (let j = 0; j < inner; j++) out[o + j] += round(src[s + j] * wi);
      if (divisors) divisors[r] += combiner === 'mean' ? wi : round(wi * wi);
    } else {
      for (let j = 0; j < inner; j++) out[o + j] += src[s + j];
    }
  }
  for (let r = 0; r < rows; r++) {
    const o = r * inner;
    if (counts[r] === 0) {
      if (a.defaultId !== null) {
        const [src, s] = embedding(a.defaultId);
        out.set(src.subarray(s, s + inner), o);
      }
      continue;
    }
    if (combiner === 'sum') continue;
    const total = divisors ? divisors[r] : counts[r];
    const d = combiner === 'mean' ? total : round(Math.sqrt(total));
    if (d === 0) out.fill(0, o, o + inner);
    else for (let j = 0; j < inner; j++) out[o + j] /= d;
  }
  return result;
}

/**
 * Row `table[at .. at + inner]` scaled to an L2 norm of at most `c`, into `into`: x * c / max(||x||, c), the norm
 * summed in the dtype in order (TensorFlow's clip_by_norm: 0 stays 0, NaN propagates).
 */
function clipRow(
  table: Float32Array | Float64Array,
  at: number,
  inner: number,
  c: number,
  round: (x: number) => number,
  into: Float32Array | Float64Array,
): Float32Array | Float64Array {
  let sq = 0;
  for (let j = 0; j < inner; j++) sq = round(sq + round(table[at + j] * table[at + j]));
  const norm = sq > 0 ? round(Math.sqrt(sq)) : sq;
  const m = Math.max(norm, c);
  for (let j = 0; j < inner; j++) into[j] = round(table[at + j] * c) / m;
  return into;
}
