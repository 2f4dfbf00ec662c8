import { allocValues, lookupPlan, type Combiner, type EmbeddingLookupSparseGradKernel } from '@sparse/kernel-abi';

/**
 * The gradient of embedding_lookup_sparse through its parts (the gather, clip_by_norm, the weighting, the segment
 * sum and the combiner's division), in float64, rounded once to the dtype. Two passes over the ids: the first
 * recomputes each row's weighted sum and divisor (the output, which the weights' gradient needs), the second
 * spreads each row's gradient back to its ids' rows of params and weights. O(ids · row size + params).
 */
export const embeddingLookupSparseGrad: EmbeddingLookupSparseGradKernel = (args) => {
  const { params, sp_ids: sp, sp_weights: weights, grad } = args;
  const combiner = args.combiner as Combiner;
  const maxNorm = args.max_norm as number | null;
  const { dtype } = params;
  const { rows, inner } = lookupPlan(params, sp);
  const table = params.data as Float32Array | Float64Array;
  const g = grad.data as Float32Array | Float64Array;
  const ids = sp.values as Int32Array | BigInt64Array;
  const w = weights?.values as Float32Array | Float64Array | undefined;
  const n = ids.length;
  const rank = sp.shape.length;
  const rowOf = (i: number) => sp.indices[i * rank];
  const weight = (i: number) => (w ? w[i] : 1);

  // Each id's embedding: its row of params, scaled to max_norm where its norm reaches it (the scale c / norm).
  const norms = new Map<number, number>();
  const normOf = (id: number) => {
    let v = norms.get(id);
    if (v === undefined) {
      let sq = 0;
      for (let j = 0; j < inner; j++) sq += table[id * inner + j] ** 2;
      norms.set(id, (v = Math.sqrt(sq)));
    }
    return v;
  };
  const scaleOf = (id: number) => (maxNorm !== null && normOf(id) >= maxNorm ? maxNorm / normOf(id) : 1);

  // Pass 1: each row's weighted sum of embeddings and its divisor (0: a row without ids, or div_no_nan's zero).
  const sums = new Float64Array(rows * inner);
  const totals = new Float64Array(rows);
  const counts = new Float64Array(rows);
  for (let i = 0; i < n; i++) {
    const id = Number(ids[i]);
    const r = rowOf(i);
    const k = weight(i) * scaleOf(id);
    for (let j = 0; j < inner; j++) sums[r * inner + j] += table[id * inner + j] * k;
    counts[r]++;
    totals[r] += combiner === 'sqrtn' ? weight(i) ** 2 : weight(i);
  }
  const divisor = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    const t = w ? totals[r] : counts[r];
    divisor[r] = counts[r] === 0 ? 0 : combiner === 'sum' ? 1 : combiner === 'mean' ? t : Math.sqrt(t);
  }

  // Pass 2: each id's share of its row's gradient.
  const paramsGrad = new Float64Array(table.length);
  const weightsGrad = new Float64Array(w ? n : 0);
  for (let i = 0; i < n; i++) {
    const r = rowOf(i);
    const d = divisor[r];
    if (d === 0) continue;
    const id = Number(ids[i]);
    const wi = weight(i);
    const scale = scaleOf(id);
    const gr = r * inner;
    const p = id * inner;
    // The gradient of the embedding, g · w / D, then back through the scaling: (c/n)(x - p (p·x) / n²).
    let pDotX = 0;
    for (let j = 0; j < inner; j++) pDotX += table[p + j] * g[gr + j];
    pDotX *= wi / d;
    const nn = normOf(id) ** 2;
    for (let j = 0; j < inner; j++) {
      const x = (g[gr + j] * wi) / d;
      paramsGrad[p + j] += scale === 1 ? x : scale * (x - (table[p + j] * pDotX) / nn);
    }
    if (!w) continue;
    // e_i · g and out_r · g, e_i = scale · p.
    let eg = 0;
    let og = 0;
    for (let j = 0; j < inner; j++) {
      eg += scale * table[p + j] * g[gr + j];
      og += (sums[gr + j] / d) * g[gr + j];
    }
    weightsGrad[i] = combiner === 'sum' ? eg : combiner === 'mean' ? (eg - og) / d : eg / d - (og * wi) / (d * d);
  }
  const toDtype = (a: Float64Array) => {
    const out = allocValues(dtype, a.length);
    (out as Float64Array).set(a);
    return out;
  };
  return {
    params_grad: { kind: 'dense', data: toDtype(paramsGrad), shape: params.shape.slice(), dtype },
    sp_weights_grad: { kind: 'dense', data: toDtype(weightsGrad), shape: [weightsGrad.length], dtype },
  };
};
