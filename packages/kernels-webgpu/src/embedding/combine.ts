/// <reference types="@webgpu/types" />
import {
  magnitude as M,
  magnitudesOf,
  type Combiner,
  type DenseData,
  type EmbeddingPlan,
  type SparseData,
} from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext } from '../context.js';
import { allNormal, REASONS } from '../delegation.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** What one embedding lookup reads: the JS kernel's CombineArgs (kernels-js/src/embedding-combine.ts). */
export interface Lookup {
  params: DenseData;
  sp: SparseData;
  weights: SparseData | null;
  combiner: Combiner;
  maxNorm: number | null;
  /** safe_*: ids below 0 are dropped, and, with weights and a combiner other than sum, weights not above 0. */
  prune: boolean;
  /** safe_*: the id whose embedding a row left without ids gets (null: zeros). */
  defaultId: number | null;
}

/**
 * Each distinct id's clip divisor max(||params[id]||, c), the norm summed in order in f32 as clipRow does.
 * p = [count, inner, bits of c].
 */
const NORMS = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> ids: array<u32>;
@group(0) @binding(2) var<storage, read> t: array<f32>;
@group(0) @binding(3) var<storage, read_write> scale: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let inner = p[1];
  let at = ids[i] * inner;
  var sq = 0.0;
  for (var j = 0u; j < inner; j++) {
    let x = t[at + j];
    sq = sq + x * x;
  }
  var norm = sq;
  if (sq > 0.0) { norm = sqrt(sq); }
  scale[i] = max(norm, bitcast<f32>(p[2]));
}
`;

/**
 * One invocation per output element (r, j): the sum, in entry order, of row r's embeddings at column j times their
 * weights (1 without weights, exact), then divided as row r's mode says (info[rows + 1 + r]: 0 none, 1 by the
 * divisor whose bits are at info[2·rows + 1 + r], 2 zeros: div_no_nan of a zero divisor). Row r's entries are
 * info[r] .. info[r + 1] (the host's counting sort by row); ent[q] is the entry's row of params or, clipped, its
 * distinct id's slot, whose row is ids[slot] and whose clip divisor is scale[slot]: the embedding is t · c / scale.
 * p = [rows · inner, inner, rows, bits of c].
 */
function combineSource(clip: boolean): string {
  const extra = clip
    ? `@group(0) @binding(5) var<storage, read> ids: array<u32>;
@group(0) @binding(6) var<storage, read> scale: array<f32>;
@group(0) @binding(7) var<storage, read_write> out: array<f32>;`
    : '@group(0) @binding(5) var<storage, read_write> out: array<f32>;';
  const embedding = clip
    ? 'let u = ent[q]; let e = (t[ids[u] * inner + j] * c) / scale[u];'
    : 'let e = t[ent[q] * inner + j];';
  return `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> info: array<u32>;
@group(0) @binding(2) var<storage, read> ent: array<u32>;
@group(0) @binding(3) var<storage, read> w: array<f32>;
@group(0) @binding(4) var<storage, read> t: array<f32>;
${extra}
${ENTRY}
  if (i >= p[0]) { return; }
  let inner = p[1];
  let rows = p[2];
  let c = bitcast<f32>(p[3]);
  let r = i / inner;
  let j = i % inner;
  let end = info[r + 1u];
  var s = 0.0;
  for (var q = info[r]; q < end; q++) {
    ${embedding}
    s = s + e * w[q];
  }
  let mode = info[rows + 1u + r];
  if (mode == 1u) { s = s / bitcast<f32>(info[2u * rows + 1u + r]); }
  if (mode == 2u) { s = 0.0; }
  out[i] = s;
}
`;
}

/** The output of a lookup, or why it runs on the JS kernels. */
export type LookupResult = { output: DenseData } | { reason: string };

/**
 * An embedding lookup (both ops: `plan` says which output row each entry goes to) on the GPU, float32. The host
 * makes the plan linear in the ids: the ids kept, grouped by output row with a counting sort (stable: each row adds
 * its embeddings in entry order, as the JS kernel does), each row's divisor summed exactly as the JS kernel sums it
 * (in a Float32Array, entry by entry), and, with max_norm, the distinct ids, whose clip divisors a first pass
 * computes. The second pass sums one output element per invocation. float64 params are delegated; float64 weights
 * with float32 params are cast, as TensorFlow does. One submission, one read.
 */
export async function lookupOnGpu(ctx: WebGpuContext, a: Lookup, plan: EmbeddingPlan): Promise<LookupResult> {
  const { params, sp, weights, combiner, prune } = a;
  if (params.dtype !== 'float32') return { reason: REASONS.notComputed(params.dtype) };
  if (weights && weights.dtype !== 'float32' && weights.dtype !== 'float64')
    return { reason: REASONS.notComputed(weights.dtype) };
  const { rows, inner, strides, shape } = plan;
  const dtype = params.dtype;
  if (rows * inner === 0) return { output: { kind: 'dense', data: new Float32Array(rows * inner), shape, dtype } };
  const table = params.data as Float32Array;
  const ids = sp.values as Int32Array | BigInt64Array;
  const w = weights?.values as Float32Array | Float64Array | undefined;
  const n = ids.length;
  const rank = sp.shape.length;

  // The entries kept and their rows; each row's count and divisor, summed as the JS kernel sums them.
  const rowOfEntry = new Int32Array(n).fill(-1);
  const counts = new Uint32Array(rows);
  const divisors = w && combiner !== 'sum' ? new Float32Array(rows) : undefined;
  for (let i = 0; i < n; i++) {
    const id = Number(ids[i]);
    if (prune && (id < 0 || (w && combiner !== 'sum' && !(w[i] > 0)))) continue;
    let r = 0;
    for (let k = 0; k < strides.length; k++) r += sp.indices[i * rank + k] * strides[k];
    rowOfEntry[i] = r;
    counts[r]++;
    if (divisors) divisors[r] += combiner === 'mean' ? w![i] : Math.fround(w![i] * w![i]);
  }
  // Each row's mode (0: as summed, 1: divided, 2: zeros) and divisor; a row without ids gets the default's
  // embedding as its one entry (weight 1, not divided) where there is one.
  const withDefault = a.defaultId !== null;
  const info = new Uint32Array(3 * rows + 1);
  const divBits = new Float32Array(info.buffer, (2 * rows + 1) * 4, rows);
  let entries = 0;
  let divided = 0;
  for (let r = 0; r < rows; r++) {
    info[r] = entries;
    const c = counts[r];
    entries += c === 0 && withDefault ? 1 : c;
    if (c === 0 || combiner === 'sum') continue;
    const total = divisors ? divisors[r] : c;
    const d = combiner === 'mean' ? total : Math.fround(Math.sqrt(total));
    if (d === 0) info[rows + 1 + r] = 2;
    else {
      info[rows + 1 + r] = 1;
      divBits[r] = d;
      divided++;
    }
  }
  info[rows] = entries;
  const fill = info.slice(0, rows);
  const ent = new Uint32Array(entries);
  const wq = new Float32Array(entries).fill(1);
  for (let i = 0; i < n; i++) {
    const r = rowOfEntry[i];
    if (r < 0) continue;
    const q = fill[r]++;
    ent[q] = Number(ids[i]);
    if (w) wq[q] = w[i];
  }
  if (withDefault) for (let r = 0; r < rows; r++) if (counts[r] === 0) ent[fill[r]] = a.defaultId!;

  // With max_norm, the distinct ids (each one's norm computed once) and each entry's slot among them.
  const clip = a.maxNorm !== null;
  const c = Math.fround(a.maxNorm ?? 0);
  let distinct: Uint32Array | undefined;
  if (clip) {
    const slots = new Map<number, number>();
    for (let q = 0; q < entries; q++) {
      let u = slots.get(ent[q]);
      if (u === undefined) slots.set(ent[q], (u = slots.size));
      ent[q] = u;
    }
    distinct = Uint32Array.from(slots.keys());
  }

  // Screens: inputs finite and normal, and no step of the sum can be subnormal (kernel-abi's bound).
  if (!allNormal(table) || !allNormal(wq) || (clip && !Number.isFinite(c))) return { reason: REASONS.nonFinite };
  const T = magnitudesOf(table);
  let E: M.Maybe = T;
  if (clip) {
    const C = M.lit(c);
    const sq = M.add(M.mul(T, T), M.mul(T, T));
    E = M.div(M.mul(T, C), M.max(M.sqrt(sq), C));
  }
  const prod = M.mul(E, magnitudesOf(wq));
  const sum = M.add(prod, prod);
  const quotient = divided ? M.div(sum, magnitudesOf(divBits)) : sum;
  if (!E || !sum || !quotient) return { reason: REASONS.subnormal };

  const total = rows * inner;
  const bytes = [total * 4, table.byteLength, info.byteLength, entries * 4];
  if (!bytes.every((b) => ctx.fits(b))) throw new BindingLimitError(ctx.maxBindingBytes);

  const cBits = new Uint32Array(Float32Array.of(c).buffer)[0];
  const t = ctx.upload(table);
  const uploaded: GPUBuffer[] = [t];
  const out = ctx.buffer(total * 4);
  try {
    const common = [
      ctx.upload(Uint32Array.of(total, inner, rows, cBits)),
      ctx.upload(info),
      ctx.upload(ent),
      ctx.upload(wq),
      t,
    ];
    uploaded.push(...common);
    const extra: GPUBuffer[] = [];
    if (distinct) {
      const d = ctx.upload(distinct);
      const scale = ctx.buffer(distinct.length * 4);
      const np = ctx.upload(Uint32Array.of(distinct.length, inner, cBits));
      uploaded.push(d, scale, np);
      ctx.dispatch({ code: NORMS, buffers: [np, d, t, scale], threads: distinct.length });
      extra.push(d, scale);
    }
    ctx.dispatch({ code: combineSource(clip), buffers: [...common, ...extra, out], threads: total });
    const [bytesOut] = await ctx.read([out, total * 4]);
    const data = new Float32Array(bytesOut);
    if (!allNormal(data)) return { reason: REASONS.nonFiniteResult };
    return { output: { kind: 'dense', data, shape, dtype } };
  } finally {
    ctx.release(out, ...uploaded);
  }
}
