// Deterministic bench data: every run and every peer sees the same matrices. Each data set is generated once,
// written once as raw little-endian binaries to the run's temp dir (the peers read those files), and wrapped
// once for our runtime and for TensorFlow.js outside the timed code.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SparseTensor } from '@sparse/runtime';

/** A seeded linear congruential generator on [0, 1). */
function lcg(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * An m×k matrix whose every position is stored with probability `density`, in canonical (row-major) order, with
 * values uniform in [-1, 1). Positions are drawn by geometric skips, so the cost is O(stored entries), not O(m·k):
 * the same Bernoulli pattern as testing each cell, for 10^7 entries of a 10^6×10^6 matrix as for 100×100.
 */
export function randomCoo(m, k, density, seed) {
  const rnd = lcg(seed);
  const cells = m * k;
  const cap = Math.ceil(cells * density + 6 * Math.sqrt(cells * density) + 16);
  let rows = new Int32Array(Math.min(cap, cells));
  let cols = new Int32Array(rows.length);
  let n = 0;
  const push = (pos) => {
    if (n === rows.length) {
      const grow = (a) => {
        const b = new Int32Array(Math.min(cells, a.length * 2));
        b.set(a);
        return b;
      };
      rows = grow(rows);
      cols = grow(cols);
    }
    const r = Math.floor(pos / k);
    rows[n] = r;
    cols[n] = pos - r * k;
    n++;
  };
  if (density >= 1) for (let pos = 0; pos < cells; pos++) push(pos);
  else if (density > 0) {
    const logq = Math.log1p(-density);
    for (let pos = -1; ;) {
      pos += 1 + Math.floor(Math.log(1 - rnd()) / logq);
      if (pos >= cells) break;
      push(pos);
    }
  }
  rows = rows.slice(0, n);
  cols = cols.slice(0, n);
  const vals = new Float32Array(n);
  for (let i = 0; i < n; i++) vals[i] = rnd() * 2 - 1;
  return { rows, cols, vals, shape: [m, k] };
}

/**
 * The adjacency matrix of a graph whose degrees follow a power law (Chung-Lu: each of `degree · n` edges joins two
 * nodes drawn with weight (i + 1)^-0.8, so a few hubs hold many edges), in canonical order without repeats, values
 * uniform in [-1, 1): the shape of a social or web graph, whose rows range from empty to thousands of entries.
 */
export function powerLawCoo(n, degree, seed) {
  const rnd = lcg(seed);
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += (i + 1) ** -0.8;
  const pick = () => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const edges = new Float64Array(degree * n);
  for (let e = 0; e < edges.length; e++) edges[e] = pick() * n + pick();
  edges.sort();
  const rows = [];
  const cols = [];
  for (let e = 0; e < edges.length; e++) {
    if (e > 0 && edges[e] === edges[e - 1]) continue;
    rows.push(Math.floor(edges[e] / n));
    cols.push(edges[e] % n);
  }
  const vals = new Float32Array(rows.length);
  for (let i = 0; i < vals.length; i++) vals[i] = rnd() * 2 - 1;
  return { rows: Int32Array.from(rows), cols: Int32Array.from(cols), vals, shape: [n, n] };
}

/** A dense row-major float32 matrix of uniform [-1, 1) values. */
export function randomDense(rows, cols, seed) {
  const rnd = lcg(seed);
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < out.length; i++) out[i] = rnd() * 2 - 1;
  return out;
}

/** The same entries in a fixed random order (Fisher–Yates with a seeded generator): the input of reorder. */
export function shuffled(c, seed) {
  const rnd = lcg(seed);
  const n = c.rows.length;
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  const rows = new Int32Array(n);
  const cols = new Int32Array(n);
  const vals = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    rows[i] = c.rows[perm[i]];
    cols[i] = c.cols[perm[i]];
    vals[i] = c.vals[perm[i]];
  }
  return { rows, cols, vals, shape: c.shape };
}

/** Our SparseTensor (float32) of a COO triple. */
export function toSparse(c) {
  const n = c.rows.length;
  const idx = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    idx[2 * i] = c.rows[i];
    idx[2 * i + 1] = c.cols[i];
  }
  return new SparseTensor(idx, c.vals, c.shape, 'float32');
}

/** The [N, 2] int32 index matrix, flat (TensorFlow.js's sparse ops take indices so). */
export function indexMatrix(c) {
  const n = c.rows.length;
  const idx = new Int32Array(n * 2);
  for (let i = 0; i < n; i++) {
    idx[2 * i] = c.rows[i];
    idx[2 * i + 1] = c.cols[i];
  }
  return idx;
}

/** The densified A, row-major float32: the left operand of every dense matmul. */
export function densify(c) {
  const [m, k] = c.shape;
  const out = new Float32Array(m * k);
  for (let i = 0; i < c.rows.length; i++) out[c.rows[i] * k + c.cols[i]] = c.vals[i];
  return out;
}

/** Writes a COO triple as rows{suffix}.bin (int32), cols{suffix}.bin (int32), vals{suffix}.bin (float32) in `dir`. */
export function writeCoo(dir, c, suffix = '') {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `rows${suffix}.bin`), c.rows);
  writeFileSync(join(dir, `cols${suffix}.bin`), c.cols);
  writeFileSync(join(dir, `vals${suffix}.bin`), c.vals);
}

/** Writes a typed array as `name` in `dir`. */
export function writeArray(dir, name, a) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), a);
}
