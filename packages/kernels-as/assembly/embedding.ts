// Embedding lookups (embedding_lookup_sparse, safe_embedding_lookup_sparse): one pass over the ids, each adding its
// row of params (scaled to max_norm first, times its weight) into its output row, SIMD along the row; then each
// row divided as the combiner says, or, without ids, given the default embedding. Every step in the dtype and in
// the JS kernel's order (float32 rounds each product, sum and quotient), so results equal it bit for bit.

const SUM: i32 = 0;
const MEAN: i32 = 1;

/** flags: ids below 0 are dropped, and with weights and a combiner other than sum, weights not above 0 (safe_*). */
const PRUNE: i32 = 1;
/** flags: the ids are i64 (else i32). */
const WIDE_IDS: i32 = 2;
/** flags: each embedding is scaled to an L2 norm of at most max_norm. */
const CLIP: i32 = 4;

@inline function vadd<T>(a: v128, b: v128): v128 {
  return sizeof<T>() == 4 ? f32x4.add(a, b) : f64x2.add(a, b);
}
@inline function vmul<T>(a: v128, b: v128): v128 {
  return sizeof<T>() == 4 ? f32x4.mul(a, b) : f64x2.mul(a, b);
}
@inline function vdiv<T>(a: v128, b: v128): v128 {
  return sizeof<T>() == 4 ? f32x4.div(a, b) : f64x2.div(a, b);
}
@inline function vsplat<T>(x: T): v128 {
  return sizeof<T>() == 4 ? f32x4.splat(<f32>x) : f64x2.splat(<f64>x);
}

// o[j] += s[j] (weighted: += s[j] * w, the product rounded first), two v128 a step, then one, then single values.
@inline function addRow<T>(o: usize, s: usize, inner: i32, weighted: bool, w: T): void {
  const sh = alignof<T>();
  const lanes = 16 / <i32>sizeof<T>();
  const wv = vsplat<T>(w);
  let j = 0;
  for (; j + 2 * lanes <= inner; j += 2 * lanes) {
    const off = (<usize>j) << sh;
    let a = v128.load(s + off);
    let b = v128.load(s + off, 16);
    if (weighted) {
      a = vmul<T>(a, wv);
      b = vmul<T>(b, wv);
    }
    v128.store(o + off, vadd<T>(v128.load(o + off), a));
    v128.store(o + off, vadd<T>(v128.load(o + off, 16), b), 16);
  }
  for (; j + lanes <= inner; j += lanes) {
    const off = (<usize>j) << sh;
    const a = v128.load(s + off);
    v128.store(o + off, vadd<T>(v128.load(o + off), weighted ? vmul<T>(a, wv) : a));
  }
  for (; j < inner; j++) {
    const off = (<usize>j) << sh;
    const x = load<T>(s + off);
    store<T>(o + off, load<T>(o + off) + (weighted ? x * w : x));
  }
}

@inline function divRow<T>(o: usize, d: T, inner: i32): void {
  const sh = alignof<T>();
  const lanes = 16 / <i32>sizeof<T>();
  const dv = vsplat<T>(d);
  let j = 0;
  for (; j + lanes <= inner; j += lanes) {
    const off = (<usize>j) << sh;
    v128.store(o + off, vdiv<T>(v128.load(o + off), dv));
  }
  for (; j < inner; j++) {
    const off = (<usize>j) << sh;
    store<T>(o + off, load<T>(o + off) / d);
  }
}

// The row at `src` scaled to an L2 norm of at most c, into `into`: x * c / max(||x||, c), the norm summed in order
// (TensorFlow's clip_by_norm; 0 stays 0, NaN propagates). Returns `into`.
@inline function clipInto<T>(src: usize, inner: i32, c: T, into: usize): usize {
  const sh = alignof<T>();
  let sq: T = 0;
  for (let j = 0; j < inner; j++) {
    const x = load<T>(src + ((<usize>j) << sh));
    sq += x * x;
  }
  const norm: T = sq > 0 ? <T>sqrt<T>(sq) : sq;
  const m: T = max<T>(norm, c);
  for (let j = 0; j < inner; j++) {
    const off = (<usize>j) << sh;
    store<T>(into + off, (load<T>(src + off) * c) / m);
  }
  return into;
}

@inline function combine<T>(
  params: usize,
  inner: i32,
  idx: usize,
  rank: i32,
  strides: usize,
  rowDims: i32,
  ids: usize,
  n: i32,
  weights: usize,
  combiner: i32,
  flags: i32,
  maxNorm: f64,
  defaultId: i32,
  out: usize,
  rows: i32,
  counts: usize,
  divisors: usize,
  scratch: usize,
): void {
  const sh = alignof<T>();
  const rowBytes = (<usize>inner) << sh;
  const wide = (flags & WIDE_IDS) != 0;
  const clip = (flags & CLIP) != 0;
  const weighted = weights != 0;
  const pruneIds = (flags & PRUNE) != 0;
  const pruneWeights = pruneIds && weighted && combiner != SUM;
  const c = <T>maxNorm;
  const rowStep = (<usize>rank) << 2;
  for (let i = 0; i < n; i++) {
    const id: i64 = wide ? load<i64>(ids + ((<usize>i) << 3)) : <i64>load<i32>(ids + ((<usize>i) << 2));
    const w: T = weighted ? load<T>(weights + ((<usize>i) << sh)) : 1;
    if (pruneIds && (id < 0 || (pruneWeights && !(w > 0)))) continue;
    const at = idx + <usize>i * rowStep;
    let r: i32 = 0;
    for (let k = 0; k < rowDims; k++) r += load<i32>(at + ((<usize>k) << 2)) * load<i32>(strides + ((<usize>k) << 2));
    const cp = counts + ((<usize>r) << 2);
    store<i32>(cp, load<i32>(cp) + 1);
    let src = params + <usize>id * rowBytes;
    if (clip) src = clipInto<T>(src, inner, c, scratch);
    addRow<T>(out + <usize>r * rowBytes, src, inner, weighted, w);
    if (divisors != 0) {
      const dp = divisors + ((<usize>r) << sh);
      store<T>(dp, load<T>(dp) + (combiner == MEAN ? w : w * w));
    }
  }
  for (let r = 0; r < rows; r++) {
    const o = out + <usize>r * rowBytes;
    const count = load<i32>(counts + ((<usize>r) << 2));
    if (count == 0) {
      if (defaultId >= 0) {
        let src = params + <usize>defaultId * rowBytes;
        if (clip) src = clipInto<T>(src, inner, c, scratch);
        memory.copy(o, src, rowBytes);
      }
      continue;
    }
    if (combiner == SUM) continue;
    const total: T = divisors != 0 ? load<T>(divisors + ((<usize>r) << sh)) : <T>count;
    const d: T = combiner == MEAN ? total : <T>sqrt<T>(total);
    if (d == 0) memory.fill(o, 0, rowBytes);
    else divRow<T>(o, d, inner);
  }
}

export function embedding_combine_float32(
  params: usize,
  inner: i32,
  idx: usize,
  rank: i32,
  strides: usize,
  rowDims: i32,
  ids: usize,
  n: i32,
  weights: usize,
  combiner: i32,
  flags: i32,
  maxNorm: f64,
  defaultId: i32,
  out: usize,
  rows: i32,
  counts: usize,
  divisors: usize,
  scratch: usize,
): void {
  combine<f32>(
    params,
    inner,
    idx,
    rank,
    strides,
    rowDims,
    ids,
    n,
    weights,
    combiner,
    flags,
    maxNorm,
    defaultId,
    out,
    rows,
    counts,
    divisors,
    scratch,
  );
}
export function embedding_combine_float64(
  params: usize,
  inner: i32,
  idx: usize,
  rank: i32,
  strides: usize,
  rowDims: i32,
  ids: usize,
  n: i32,
  weights: usize,
  combiner: i32,
  flags: i32,
  maxNorm: f64,
  defaultId: i32,
  out: usize,
  rows: i32,
  counts: usize,
  divisors: usize,
  scratch: usize,
): void {
  combine<f64>(
    params,
    inner,
    idx,
    rank,
    strides,
    rowDims,
    ids,
    n,
    weights,
    combiner,
    flags,
    maxNorm,
    defaultId,
    out,
    rows,
    counts,
    divisors,
    scratch,
  );
}
