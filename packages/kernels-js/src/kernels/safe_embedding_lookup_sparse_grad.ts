import {
  allocValues,
  safeLookupPlan,
  type DenseData,
  type SafeEmbeddingLookupSparseGradKernel,
  type SparseData,
  type Values,
} from '@sparse/kernel-abi';
import { embeddingLookupSparseGrad } from './embedding_lookup_sparse_grad.js';

type Floats = Float32Array | Float64Array;

/**
 * The gradient of safe_embedding_lookup_sparse as TensorFlow composes it: the ids it keeps, put in row order (a
 * stable counting sort over the output rows), and each row left without ids given `default_id` with weight 1,
 * make the arguments of embedding_lookup_sparse, whose gradient this is; a row without ids and without
 * `default_id` is left out (TensorFlow's `where` passes it no gradient). A dropped weight's gradient is 0.
 * O(ids · row size + rows + params).
 */
export const safeEmbeddingLookupSparseGrad: SafeEmbeddingLookupSparseGradKernel = (args) => {
  const { embedding_weights: params, sparse_ids: sp, sparse_weights: weights, combiner, default_id } = args;
  const { dtype } = params;
  const { rows, inner, strides } = safeLookupPlan(params, sp);
  const ids = sp.values as Int32Array | BigInt64Array;
  const w = weights?.values as Floats | undefined;
  const n = ids.length;
  const paramsShape = params.shape.slice();
  const zeros = () => ({
    embedding_weights_grad: { kind: 'dense', data: allocValues(dtype, params.data.length), shape: paramsShape, dtype },
    sparse_weights_grad: { kind: 'dense', data: allocValues(dtype, w ? n : 0), shape: [w ? n : 0], dtype },
  });
  // Rows of no width: every gradient is 0 (and the rows may be more than could be counted).
  if (inner === 0) return zeros() as ReturnType<SafeEmbeddingLookupSparseGradKernel>;

  const rank = sp.shape.length;
  const rowOf = new Float64Array(n);
  const starts = new Int32Array(rows + 1);
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    rowOf[i] = -1;
    if (id < 0 || (w && combiner !== 'sum' && !(w[i] > 0))) continue;
    let r = 0;
    for (let k = 0; k < strides.length; k++) r += sp.indices[i * rank + k] * strides[k];
    rowOf[i] = r;
    starts[r + 1]++;
  }
  let filled = 0;
  for (let r = 0; r < rows; r++) {
    if (starts[r + 1] === 0 && default_id !== null) filled++;
    starts[r + 1] += starts[r];
  }
  const kept = starts[rows];
  const m = kept + filled;
  // The kept ids in row order; then the lookup's arguments, a filled row's default id in its row's place.
  const order = new Int32Array(kept);
  const next = starts.slice(0, rows);
  for (let i = 0; i < n; i++) if (rowOf[i] >= 0) order[next[rowOf[i]]++] = i;
  const newIds = (ids instanceof BigInt64Array ? new BigInt64Array(m) : new Int32Array(m)) as Int32Array;
  const newRows = new Float64Array(m);
  const newWeights = w ? (allocValues(dtype, m) as Floats) : undefined;
  const at = new Int32Array(n).fill(-1);
  let e = 0;
  for (let r = 0; r < rows; r++) {
    if (starts[r] === starts[r + 1]) {
      if (default_id === null) continue;
      newIds[e] = (ids instanceof BigInt64Array ? BigInt(default_id) : default_id) as number;
      newRows[e] = r;
      if (newWeights) newWeights[e] = 1;
      e++;
      continue;
    }
    for (let s = starts[r]; s < starts[r + 1]; s++, e++) {
      const i = order[s];
      newIds[e] = ids[i] as number;
      newRows[e] = r;
      if (newWeights) newWeights[e] = w![i];
      at[i] = e;
    }
  }
  // Rank 2, [row, 0]: the lookup reads only each entry's row.
  const indices = new Float64Array(m * 2);
  for (let j = 0; j < m; j++) indices[2 * j] = newRows[j];
  const shape = [rows, 1];
  const lookupIds: SparseData = { kind: 'sparse', indices, values: newIds as Values, shape, dtype: sp.dtype };
  const lookupWeights: SparseData | null = newWeights
    ? { kind: 'sparse', indices, values: newWeights, shape, dtype }
    : null;
  const grad: DenseData = { ...args.grad, shape: [rows, ...params.shape.slice(1)] };
  const g = embeddingLookupSparseGrad({
    params,
    sp_ids: lookupIds,
    sp_weights: lookupWeights,
    combiner,
    max_norm: args.max_norm,
    grad,
  });
  const weightsGrad = allocValues(dtype, w ? n : 0) as Floats;
  if (w) {
    const lookupGrad = g.sp_weights_grad.data as Floats;
    for (let i = 0; i < n; i++) if (at[i] >= 0) weightsGrad[i] = lookupGrad[at[i]];
  }
  return {
    embedding_weights_grad: g.params_grad,
    sparse_weights_grad: { kind: 'dense', data: weightsGrad, shape: [weightsGrad.length], dtype },
  };
};
