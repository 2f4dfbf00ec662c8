/// <reference types="@webgpu/types" />
import {
  lookupPlan,
  magnitude as M,
  magnitudesOf,
  type Combiner,
  type DenseData,
  type SparseData,
} from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext } from '../context.js';
import { allNormal, REASONS } from '../delegation.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

const HEAD = `@group(0) @binding(0) var<storage, read> p: array<u32>;\n`;

/** Each kept entry's e·g: its row of params (ent[2q]) · its row of grad (ent[2q + 1]). p = [count, inner]. */
const EG = `${HEAD}@group(0) @binding(1) var<storage, read> ent: array<u32>;
@group(0) @binding(2) var<storage, read> t: array<f32>;
@group(0) @binding(3) var<storage, read> g: array<f32>;
@group(0) @binding(4) var<storage, read_write> eg: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let inner = p[1];
  let a = ent[2u * i] * inner;
  let b = ent[2u * i + 1u] * inner;
  var s = 0.0;
  for (var j = 0u; j < inner; j++) { s = s + t[a + j] * g[b + j]; }
  eg[i] = s;
}
`;

/** Each row's out·g = (Σ w·(e·g)) / D over its kept entries rowPtr[r] .. rowPtr[r + 1]. p = [rows]. */
const OG = `${HEAD}@group(0) @binding(1) var<storage, read> rowPtr: array<u32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read> eg: array<f32>;
@group(0) @binding(4) var<storage, read> d: array<f32>;
@group(0) @binding(5) var<storage, read_write> og: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  var s = 0.0;
  for (var q = rowPtr[i]; q < rowPtr[i + 1u]; q++) { s = s + w[q] * eg[q]; }
  og[i] = s / d[i];
}
`;

/**
 * Each kept entry's weight gradient, as the combiner says (binding only what its formula reads: the layout is the
 * shader's). p = [count]; ent as EG's; out indexed by the entry's position among all entries.
 */
const WG_READS: Record<Combiner, { formula: string; reads: WgRead[] }> = {
  sum: { formula: 'e', reads: ['ent', 'eg', 'pos'] },
  mean: { formula: '(e - og[r]) / d[r]', reads: ['ent', 'eg', 'd', 'og', 'pos'] },
  sqrtn: { formula: 'e / d[r] - (og[r] * w[i]) / (d[r] * d[r])', reads: ['ent', 'w', 'eg', 'd', 'og', 'pos'] },
};
type WgRead = 'ent' | 'w' | 'eg' | 'd' | 'og' | 'pos';
const WG_TYPE: Record<WgRead, string> = { ent: 'u32', w: 'f32', eg: 'f32', d: 'f32', og: 'f32', pos: 'u32' };

function wgSource(combiner: Combiner): string {
  const { formula, reads } = WG_READS[combiner];
  const decls = reads.map(
    (name, k) => `@group(0) @binding(${k + 1}) var<storage, read> ${name}: array<${WG_TYPE[name]}>;`,
  );
  return `${HEAD}${decls.join('\n')}
@group(0) @binding(${reads.length + 1}) var<storage, read_write> out: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let r = ent[2u * i + 1u];
  let e = eg[i];
  out[pos[i]] = ${formula};
}
`;
}

/**
 * params' gradient, one invocation per element (id, j): the sum over the entries naming id (grouped by id on the
 * host: idPtr, each with its row of grad and its factor w / D) of grad[row, j] · factor. p = [vocab · inner, inner].
 */
const PG = `${HEAD}@group(0) @binding(1) var<storage, read> idPtr: array<u32>;
@group(0) @binding(2) var<storage, read> row: array<u32>;
@group(0) @binding(3) var<storage, read> k: array<f32>;
@group(0) @binding(4) var<storage, read> g: array<f32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let inner = p[1];
  let id = i / inner;
  let j = i % inner;
  var s = 0.0;
  for (var q = idPtr[id]; q < idPtr[id + 1u]; q++) { s = s + g[row[q] * inner + j] * k[q]; }
  out[i] = s;
}
`;

export interface GradArgs {
  params: DenseData;
  sp_ids: SparseData;
  sp_weights: SparseData | null;
  combiner: string;
  max_norm: unknown;
  grad: DenseData;
}

export type GradResult = { params_grad: DenseData; sp_weights_grad: DenseData } | { reason: string };

/**
 * embedding_lookup_sparse_grad on the GPU, float32 without max_norm. The host plan is linear: each row's divisor
 * (in float64, as the JS kernel's, rounded once), the entries of rows with a nonzero divisor, and for params'
 * gradient those entries grouped by id (a counting sort over the table's rows), each with its factor w / D, so
 * one invocation owns one element of params' gradient and no atomics are needed. The weights' gradient takes three
 * passes: each entry's e·g, each row's out·g (which is Σ w·(e·g) / D), then each entry's formula. Computed in
 * float32 (the JS kernel sums in float64 and rounds once: results agree to float32 rounding).
 */
export async function gradOnGpu(ctx: WebGpuContext, args: GradArgs): Promise<GradResult> {
  const { params, sp_ids: sp, sp_weights: weights, grad } = args;
  const combiner = args.combiner as Combiner;
  if (params.dtype !== 'float32') return { reason: REASONS.notComputed(params.dtype) };
  if (weights && weights.dtype !== 'float32' && weights.dtype !== 'float64')
    return { reason: REASONS.notComputed(weights.dtype) };
  // max_norm's gradient runs through the norm of each row: not computed here.
  if (args.max_norm !== null && args.max_norm !== undefined)
    return { reason: REASONS.notPortedCase('the gradient of a lookup with max_norm') };
  const { rows, inner } = lookupPlan(params, sp);
  const vocab = params.shape[0];
  const dtype = params.dtype;
  const ids = sp.values as Int32Array | BigInt64Array;
  const w = weights?.values as Float32Array | Float64Array | undefined;
  const n = ids.length;
  const rank = sp.shape.length;
  const table = params.data as Float32Array;
  const g = grad.data as Float32Array;
  const paramsBytes = table.length * 4;
  const wCount = w ? n : 0;
  const done = (pg: Float32Array, wg: Float32Array): GradResult => ({
    params_grad: { kind: 'dense', data: pg, shape: params.shape.slice(), dtype },
    sp_weights_grad: { kind: 'dense', data: wg, shape: [wCount], dtype },
  });

  // Each row's divisor, as the JS kernel computes it (float64), then as float32.
  const counts = new Float64Array(rows);
  const totals = new Float64Array(rows);
  for (let i = 0; i < n; i++) {
    const r = sp.indices[i * rank];
    const wi = w ? w[i] : 1;
    counts[r]++;
    totals[r] += combiner === 'sqrtn' ? wi * wi : wi;
  }
  const divisor = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    const t = w ? totals[r] : counts[r];
    divisor[r] = counts[r] === 0 ? 0 : combiner === 'sum' ? 1 : combiner === 'mean' ? t : Math.sqrt(t);
  }
  // The entries that pass a gradient: kept (in entry order), grouped by row and by id (counting sorts).
  const kept: number[] = [];
  for (let i = 0; i < n; i++) if (divisor[sp.indices[i * rank]] !== 0) kept.push(i);
  const m = kept.length;
  if (table.length === 0 && wCount === 0) return done(new Float32Array(0), new Float32Array(0));
  if (m === 0) return done(new Float32Array(table.length), new Float32Array(wCount));

  const idPtr = new Uint32Array(vocab + 1);
  for (const i of kept) idPtr[Number(ids[i]) + 1]++;
  for (let v = 0; v < vocab; v++) idPtr[v + 1] += idPtr[v];
  const at = idPtr.slice(0, vocab);
  const byIdRow = new Uint32Array(m);
  const factor = new Float32Array(m);
  for (const i of kept) {
    const r = sp.indices[i * rank];
    const q = at[Number(ids[i])]++;
    byIdRow[q] = r;
    factor[q] = (w ? w[i] : 1) / divisor[r];
  }
  const d32 = Float32Array.from(divisor);
  const wq = w ? Float32Array.from(kept, (i) => w[i]) : new Float32Array(0);

  // Screens: inputs finite and normal; no step can be subnormal (kernel-abi's bound over the magnitudes).
  if (!allNormal(table) || !allNormal(g) || !allNormal(factor) || !allNormal(wq) || !allNormal(d32))
    return { reason: REASONS.nonFinite };
  const G = magnitudesOf(g);
  const pgStep = M.mul(G, magnitudesOf(factor));
  let ok = !!M.add(pgStep, pgStep);
  if (w) {
    const P = magnitudesOf(table);
    const W = magnitudesOf(wq);
    const D = magnitudesOf(d32);
    const pg = M.mul(P, G);
    const EG = M.add(pg, pg);
    const wEG = M.mul(W, EG);
    const OG = M.div(M.add(wEG, wEG), D);
    const WG =
      combiner === 'sum'
        ? EG
        : combiner === 'mean'
          ? M.div(M.sub(EG, OG), D)
          : M.sub(M.div(EG, D), M.div(M.mul(OG, W), M.mul(D, D)));
    ok &&= !!WG;
  }
  if (!ok) return { reason: REASONS.subnormal };
  const bytes = [paramsBytes, g.length * 4, m * 8, (vocab + 1) * 4, (rows + 1) * 4];
  if (!bytes.every((b) => ctx.fits(b))) throw new BindingLimitError(ctx.maxBindingBytes);

  const held: GPUBuffer[] = [];
  const up = (data: Uint32Array | Float32Array) => {
    const b = ctx.upload(data);
    held.push(b);
    return b;
  };
  const zeroed = (bytes: number) => {
    const b = ctx.buffer(bytes);
    held.push(b);
    return b;
  };
  try {
    const gBuf = up(g);
    const pgOut = zeroed(paramsBytes);
    ctx.dispatch({
      code: PG,
      buffers: [up(Uint32Array.of(table.length, inner)), up(idPtr), up(byIdRow), up(factor), gBuf, pgOut],
      threads: table.length,
    });
    const reads: [GPUBuffer, number][] = [[pgOut, paramsBytes]];
    if (w) {
      // Kept entries by row (stable), as (id, row) pairs, with their weights and their position among all entries.
      const rowPtr = new Uint32Array(rows + 1);
      for (const i of kept) rowPtr[sp.indices[i * rank] + 1]++;
      for (let r = 0; r < rows; r++) rowPtr[r + 1] += rowPtr[r];
      const next = rowPtr.slice(0, rows);
      const ent = new Uint32Array(2 * m);
      const wr = new Float32Array(m);
      const pos = new Uint32Array(m);
      for (const i of kept) {
        const r = sp.indices[i * rank];
        const q = next[r]++;
        ent[2 * q] = Number(ids[i]);
        ent[2 * q + 1] = r;
        wr[q] = w[i];
        pos[q] = i;
      }
      const entBuf = up(ent);
      const wBuf = up(wr);
      const dBuf = up(d32);
      const count = up(Uint32Array.of(m, inner));
      const eg = zeroed(m * 4);
      const og = zeroed(rows * 4);
      const wgOut = zeroed(wCount * 4);
      ctx.dispatch({ code: EG, buffers: [count, entBuf, up(table), gBuf, eg], threads: m });
      ctx.dispatch({ code: OG, buffers: [up(Uint32Array.of(rows)), up(rowPtr), wBuf, eg, dBuf, og], threads: rows });
      const bound: Record<WgRead, GPUBuffer> = { ent: entBuf, w: wBuf, eg, d: dBuf, og, pos: up(pos) };
      const wgBuffers = [count, ...WG_READS[combiner].reads.map((name) => bound[name]), wgOut];
      ctx.dispatch({ code: wgSource(combiner), buffers: wgBuffers, threads: m });
      reads.push([wgOut, wCount * 4]);
    }
    const [pgBytes, wgBytes] = await ctx.read(...reads);
    const pg = new Float32Array(pgBytes);
    const wg = wgBytes ? new Float32Array(wgBytes) : new Float32Array(0);
    if (!allNormal(pg) || !allNormal(wg)) return { reason: REASONS.nonFiniteResult };
    return done(pg, wg);
  } finally {
    ctx.release(...held);
  }
}
