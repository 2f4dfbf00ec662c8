import { SparseTensor, Tensor } from '@sparse/runtime';
import type { Args } from './gradient-cases.js';

// Each differentiable op's gradient written out from its formula, in float64, independently of the gradient ops
// (no spec, expression or kernel is read): L = Σ upstream · output, and the gradient of L with respect to each
// differentiable argument (a SparseTensor's stored values, a Tensor's data), flat.

type Grads = Record<string, number[]>;
type Formula = (args: Args, g: number[]) => Grads;

interface Sp {
  idx: number[][];
  v: number[];
  shape: number[];
}
interface Dn {
  v: number[];
  shape: number[];
}

const sp = (x: unknown): Sp => {
  const s = x as SparseTensor;
  return { idx: s.indices, v: Array.from(s.values as ArrayLike<number | bigint>, Number), shape: [...s.shape] };
};
const dn = (x: unknown): Dn => {
  const t = x as Tensor;
  return { v: Array.from(t.dataSync() as Float64Array), shape: [...t.shape] };
};
const isSparse = (x: unknown) => x instanceof SparseTensor;
const key = (index: number[]) => index.join(',');

/** Row-major strides. */
const stridesOf = (shape: number[]) => shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));

/** The flat offset in a dense tensor of `shape`, broadcast to a sparse index of higher or equal rank. */
function broadcastOffset(index: number[], shape: number[]): number {
  const st = stridesOf(shape);
  const lead = index.length - shape.length;
  return shape.reduce((o, dim, d) => o + (dim === 1 ? 0 : index[lead + d]) * st[d], 0);
}

/** A map op: each value's gradient grad · f'(x). */
const map =
  (df: (x: number) => number): Formula =>
  (args, g) => ({ sp_input: sp(args.sp_input).v.map((x, i) => g[i] * df(x)) });

/** A cwise op: partials (∂/∂a, ∂/∂b) at each entry; the dense operand's gradient summed over its broadcast. */
const cwise =
  (partials: (a: number, b: number) => [number, number]): Formula =>
  (args, g) => {
    const s = sp(args.sp_input);
    const d = dn(args.dense);
    const da: number[] = [];
    const db = d.v.map(() => 0);
    s.idx.forEach((index, i) => {
      const p = broadcastOffset(index, d.shape);
      const [pa, pb] = partials(s.v[i], d.v[p]);
      da.push(g[i] * pa);
      db[p] += g[i] * pb;
    });
    return { sp_input: da, dense: db };
  };

/**
 * A merge of two sparse operands (canonically ordered), their union in canonical order: where both hold an entry
 * `both`, where one does `onlyA` / `onlyB` (the other operand an implicit 0), an entry kept iff `keep`.
 */
const merge =
  (
    names: [string, string],
    both: (a: number, b: number) => [number, number],
    onlyA: (a: number) => number,
    onlyB: (b: number) => number,
    keep: (a: number, b: number, args: Args) => boolean = () => true,
  ): Formula =>
  (args, g) => {
    const [x, y] = [args[names[0]], args[names[1]]];
    if (!isSparse(x) || !isSparse(y)) {
      // sparse_add with a dense operand: the stored entries gather grad, the dense operand takes it whole.
      const s = sp(isSparse(x) ? x : y);
      const st = stridesOf(s.shape);
      const gathered = s.idx.map((index) => g[index.reduce((o, c, d) => o + c * st[d], 0)]);
      return isSparse(x)
        ? { [names[0]]: gathered, [names[1]]: g.slice() }
        : { [names[0]]: g.slice(), [names[1]]: gathered };
    }
    const a = sp(x);
    const b = sp(y);
    const ga = a.v.map(() => 0);
    const gb = b.v.map(() => 0);
    const at = new Map<string, [number, number]>();
    a.idx.forEach((index, i) => at.set(key(index), [i, -1]));
    b.idx.forEach((index, j) => at.set(key(index), [at.get(key(index))?.[0] ?? -1, j]));
    const order = [...at.entries()].sort(([, p], [, q]) =>
      compareIndex(p[0] >= 0 ? a.idx[p[0]] : b.idx[p[1]], q[0] >= 0 ? a.idx[q[0]] : b.idx[q[1]]),
    );
    let m = 0;
    for (const [, [i, j]] of order) {
      if (i >= 0 && j >= 0) {
        if (!keep(a.v[i], b.v[j], args)) continue;
        const [pa, pb] = both(a.v[i], b.v[j]);
        ga[i] = g[m] * pa;
        gb[j] = g[m] * pb;
      } else if (i >= 0) ga[i] = g[m] * onlyA(a.v[i]);
      else gb[j] = g[m] * onlyB(b.v[j]);
      m++;
    }
    return { [names[0]]: ga, [names[1]]: gb };
  };

function compareIndex(p: number[], q: number[]): number {
  for (let d = 0; d < p.length; d++) if (p[d] !== q[d]) return p[d] - q[d];
  return 0;
}

/**
 * A reduction: each stored value's group (its index along the dims not reduced), the upstream gradient of its
 * group (a dense output's in row-major order; a sparse output's in canonical order of the groups that hold
 * entries), and `share(values of the group, position in it)`, its share of that gradient.
 */
const reduce =
  (sparseOutput: boolean, share: (group: number[], k: number) => number): Formula =>
  (args, g) => {
    const s = sp(args.sp_input);
    const rank = s.shape.length;
    const raw = args.axis ?? args.reduction_axes ?? null;
    const axes = new Set(
      (raw === null ? s.shape.map((_, d) => d) : Array.isArray(raw) ? raw : [raw]).map((a: number) =>
        a < 0 ? a + rank : a,
      ),
    );
    const kept = s.shape.map((_, d) => d).filter((d) => !axes.has(d));
    const groupOf = (index: number[]) => kept.map((d) => index[d]);
    const groups = new Map<string, number[]>();
    s.idx.forEach((index, i) => {
      const k = key(groupOf(index));
      groups.set(k, [...(groups.get(k) ?? []), i]);
    });
    const st = stridesOf(kept.map((d) => s.shape[d]));
    const sorted = [...groups.keys()].sort((p, q) => compareIndex(p.split(',').map(Number), q.split(',').map(Number)));
    const out = s.v.map(() => 0);
    for (const [k, members] of groups) {
      const coords = k === '' ? [] : k.split(',').map(Number);
      const gi = sparseOutput ? sorted.indexOf(k) : coords.reduce((o, c, d) => o + c * st[d], 0);
      const vals = members.map((i) => s.v[i]);
      members.forEach((i, pos) => (out[i] = g[gi] * share(vals, pos)));
    }
    return { sp_input: out };
  };

const prodOfOthers = (vals: number[], k: number) => vals.reduce((p, v, j) => (j === k ? p : p * v), 1);
/** TensorFlow's Max/Min gradient: the values equal to the group's extreme share it equally. */
const tiesOf = (extreme: (...v: number[]) => number) => (vals: number[], k: number) => {
  const y = extreme(...vals);
  return vals[k] === y ? 1 / vals.filter((v) => v === y).length : 0;
};

/** A matrix: its rows, and how many columns they have (so that an empty matrix keeps its shape). */
interface Matrix {
  rows: number[][];
  cols: number;
}

/** A dense matrix of a tensor argument (a SparseTensor densified). */
function matrix(x: unknown): Matrix {
  const [r, c] = (x as { shape: readonly number[] }).shape;
  const rows = Array.from({ length: r }, () => new Array<number>(c).fill(0));
  if (isSparse(x)) {
    const s = sp(x);
    s.idx.forEach(([i, j], k) => (rows[i][j] += s.v[k]));
  } else dn(x).v.forEach((v, k) => (rows[Math.floor(k / c)][k % c] = v));
  return { rows, cols: c };
}
const transpose = (m: Matrix): Matrix => ({
  rows: Array.from({ length: m.cols }, (_, j) => m.rows.map((row) => row[j])),
  cols: m.rows.length,
});
const matmul = (x: Matrix, y: Matrix): Matrix => ({
  rows: x.rows.map((row) => Array.from({ length: y.cols }, (_, j) => row.reduce((s, v, k) => s + v * y.rows[k][j], 0))),
  cols: y.cols,
});

/** d(op(A)·op(B)): the full gradient of each operand, then its stored entries where it is sparse. */
const matmulGradient: Formula = (args, g) => {
  const [adjA, adjB] = [args.adjoint_a === true, args.adjoint_b === true];
  const A = matrix(args.sp_a);
  const B = matrix(args.b);
  const opA = adjA ? transpose(A) : A;
  const opB = adjB ? transpose(B) : B;
  const n = opB.cols;
  const G: Matrix = { rows: opA.rows.map((_, i) => g.slice(i * n, (i + 1) * n)), cols: n };
  const dOpA = matmul(G, transpose(opB));
  const dOpB = matmul(transpose(opA), G);
  const dA = adjA ? transpose(dOpA) : dOpA;
  const dB = adjB ? transpose(dOpB) : dOpB;
  const of = (x: unknown, d: Matrix) => (isSparse(x) ? sp(x).idx.map(([i, j]) => d.rows[i][j]) : d.rows.flat());
  return { sp_a: of(args.sp_a, dA), b: of(args.b, dB) };
};

/** Softmax per innermost row, then y (g - Σ g y). */
const softmaxGradient: Formula = (args, g) => {
  const s = sp(args.sp_input);
  const rows = new Map<string, number[]>();
  s.idx.forEach((index, i) => {
    const k = key(index.slice(0, -1));
    rows.set(k, [...(rows.get(k) ?? []), i]);
  });
  const out = s.v.map(() => 0);
  for (const members of rows.values()) {
    const max = Math.max(...members.map((i) => s.v[i]));
    const e = members.map((i) => Math.exp(s.v[i] - max));
    const total = e.reduce((a, b) => a + b, 0);
    const y = e.map((v) => v / total);
    const dot = members.reduce((acc, i, k) => acc + g[i] * y[k], 0);
    members.forEach((i, k) => (out[i] = y[k] * (g[i] - dot)));
  }
  return { sp_input: out };
};

/** Whole numbers given as a Tensor or a plain list. */
const ints = (x: unknown): number[] =>
  Array.from(x instanceof Tensor ? (x.dataSync() as ArrayLike<number | bigint>) : (x as number[]), Number);

/** A segment reduction: data row indices[i] gets grad row segment_ids[i] times the segment's scale. */
const segmentGradient =
  (scale: (count: number) => number): Formula =>
  (args, g) => {
    const data = dn(args.data);
    const inner = data.shape.slice(1).reduce((a, b) => a * b, 1);
    const ids = ints(args.indices);
    const segs = ints(args.segment_ids);
    const count = new Map<number, number>();
    segs.forEach((s) => count.set(s, (count.get(s) ?? 0) + 1));
    const out = data.v.map(() => 0);
    ids.forEach((row, i) => {
      const k = scale(count.get(segs[i])!);
      for (let j = 0; j < inner; j++) out[row * inner + j] += g[segs[i] * inner + j] * k;
    });
    return { data: out };
  };

/** embedding_lookup_sparse: the lookup written out per row, and its derivative by each table value and weight. */
const embeddingGradient: Formula = (args, g) => {
  const params = dn(args.params);
  const inner = params.shape.slice(1).reduce((a, b) => a * b, 1);
  const ids = sp(args.sp_ids);
  const weights = args.sp_weights ? sp(args.sp_weights).v : undefined;
  const combiner = (args.combiner as string | undefined) ?? 'mean';
  const c = (args.max_norm ?? null) as number | null;
  const rowOfParams = (id: number) => params.v.slice(id * inner, (id + 1) * inner);
  const norm = (p: number[]) => Math.sqrt(p.reduce((s, x) => s + x * x, 0));
  const scaleOf = (p: number[]) => (c !== null && norm(p) >= c ? c / norm(p) : 1);
  const rows = new Map<number, number[]>();
  ids.idx.forEach((index, i) => rows.set(index[0], [...(rows.get(index[0]) ?? []), i]));
  const dParams = params.v.map(() => 0);
  const dWeights = weights ? weights.map(() => 0) : [];
  for (const [r, members] of rows) {
    const w = members.map((i) => (weights ? weights[i] : 1));
    const D =
      combiner === 'sum'
        ? 1
        : combiner === 'mean'
          ? w.reduce((a, b) => a + b, 0)
          : Math.sqrt(w.reduce((a, b) => a + b * b, 0));
    if (D === 0) continue;
    const gr = g.slice(r * inner, (r + 1) * inner);
    const e = members.map((i) => {
      const p = rowOfParams(ids.v[i]);
      return p.map((x) => x * scaleOf(p));
    });
    const out = gr.map((_, j) => e.reduce((s, ek, k) => s + w[k] * ek[j], 0) / D);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, j) => s + v * y[j], 0);
    members.forEach((i, k) => {
      const id = ids.v[i];
      const p = rowOfParams(id);
      const x = gr.map((v) => (v * w[k]) / D);
      const s = scaleOf(p);
      const n = norm(p);
      const px = dot(p, x);
      p.forEach((pj, j) => (dParams[id * inner + j] += s === 1 ? x[j] : s * (x[j] - (pj * px) / (n * n))));
      if (!weights) return;
      const eg = dot(e[k], gr);
      const og = dot(out, gr);
      dWeights[i] = combiner === 'sum' ? eg : combiner === 'mean' ? (eg - og) / D : eg / D - (og * w[k]) / (D * D);
    });
  }
  return { params: dParams, sp_weights: dWeights };
};

/** Every differentiable op's gradient formula, by op id. */
export const ANALYTIC: Record<string, Formula> = {
  sparse_abs: map((x) => Math.sign(x)),
  sparse_neg: map(() => -1),
  sparse_sign: map(() => 0),
  sparse_sqrt: map((x) => 0.5 / Math.sqrt(x)),
  sparse_square: map((x) => 2 * x),
  sparse_expm1: map((x) => Math.exp(x)),
  sparse_log1p: map((x) => 1 / (1 + x)),
  sparse_sin: map((x) => Math.cos(x)),
  sparse_tan: map((x) => 1 / Math.cos(x) ** 2),
  sparse_tanh: map((x) => 1 - Math.tanh(x) ** 2),
  sparse_asin: map((x) => 1 / Math.sqrt(1 - x * x)),
  sparse_atan: map((x) => 1 / (1 + x * x)),
  sparse_sinh: map((x) => Math.cosh(x)),
  sparse_asinh: map((x) => 1 / Math.cosh(Math.asinh(x))),
  sparse_atanh: map((x) => 1 / (1 - x * x)),
  sparse_floor: map(() => 0),
  sparse_ceil: map(() => 0),
  sparse_rint: map(() => 0),
  sparse_round: map(() => 0),
  sparse_dense_cwise_add: cwise(() => [1, 1]),
  sparse_dense_cwise_mul: cwise((a, b) => [b, a]),
  sparse_dense_cwise_div: cwise((a, b) => [1 / b, -a / (b * b)]),
  sparse_dense_cwise_pow: cwise((a, b) => [b * a ** (b - 1), a > 0 ? a ** b * Math.log(a) : 0]),
  sparse_add: merge(
    ['a', 'b'],
    () => [1, 1],
    () => 1,
    () => 1,
    (a, b, args) => Math.abs(a + b) >= Number(args.thresh ?? args.threshold ?? 0),
  ),
  sparse_maximum: merge(
    ['sp_a', 'sp_b'],
    (a, b) => (a >= b ? [1, 0] : [0, 1]),
    (a) => (a >= 0 ? 1 : 0),
    (b) => (0 >= b ? 0 : 1),
  ),
  sparse_minimum: merge(
    ['sp_a', 'sp_b'],
    (a, b) => (a <= b ? [1, 0] : [0, 1]),
    (a) => (a <= 0 ? 1 : 0),
    (b) => (0 <= b ? 0 : 1),
  ),
  sparse_reduce_sum: reduce(false, () => 1),
  sparse_reduce_sum_sparse: reduce(true, () => 1),
  sparse_reduce_prod: reduce(false, prodOfOthers),
  sparse_reduce_prod_sparse: reduce(true, prodOfOthers),
  sparse_reduce_max: reduce(false, tiesOf(Math.max)),
  sparse_reduce_max_sparse: reduce(true, tiesOf(Math.max)),
  sparse_reduce_min: reduce(false, tiesOf(Math.min)),
  sparse_reduce_min_sparse: reduce(true, tiesOf(Math.min)),
  sparse_tensor_dense_matmul: matmulGradient,
  sparse_softmax: softmaxGradient,
  sparse_segment_sum: segmentGradient(() => 1),
  sparse_segment_mean: segmentGradient((n) => 1 / n),
  sparse_segment_sqrt_n: segmentGradient((n) => 1 / Math.sqrt(n)),
  embedding_lookup_sparse: embeddingGradient,
};
