// The soak test's oracle: each op of the service's menu written out in plain JavaScript loops from TensorFlow's
// documented semantics, independently of @sparse/runtime, producing the JSON the service should answer (int64 as
// strings of digits, non-finite floats by name, as the service encodes them).

/** Sums in the dtype's arithmetic: float32 rounds each sum, int32 wraps, int64 is exact (BigInt). */
export function arith(dtype) {
  switch (dtype) {
    case 'float32':
      return { zero: 0, from: Math.fround, add: (a, b) => Math.fround(a + b), mul: (a, b) => Math.fround(a * b) };
    case 'float64':
      return { zero: 0, from: (x) => x, add: (a, b) => a + b, mul: (a, b) => a * b };
    case 'int32':
      return { zero: 0, from: (x) => x | 0, add: (a, b) => (a + b) | 0, mul: (a, b) => Math.imul(a, b) };
    case 'int64':
      return {
        zero: 0n,
        from: (x) => BigInt(x),
        add: (a, b) => BigInt.asIntN(64, a + b),
        mul: (a, b) => BigInt.asIntN(64, a * b),
      };
  }
  throw new Error(`no arithmetic for ${dtype}`);
}

/** A value as the service writes it in JSON. */
export const jsonValue = (v) =>
  typeof v === 'bigint' ? v.toString() : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;

const volume = (shape) => shape.reduce((a, b) => a * b, 1);

/** Flat row-major offset of an index. */
export function offsetOf(index, shape) {
  let off = 0;
  for (let d = 0; d < shape.length; d++) off = off * shape[d] + index[d];
  return off;
}

/** A flat array as nested lists of `shape` (a scalar for shape []). */
export function nest(flat, shape) {
  if (shape.length === 0) return jsonValue(flat[0]);
  const build = (d, start) => {
    const out = [];
    const stride = volume(shape.slice(d + 1));
    for (let i = 0; i < shape[d]; i++) {
      out.push(d === shape.length - 1 ? jsonValue(flat[start + i]) : build(d + 1, start + i * stride));
    }
    return out;
  };
  return build(0, 0);
}

const dense = (flat, shape, dtype) => ({ dense: nest(flat, shape), shape, dtype });

/** `sp` is { indices: [[...]], values, dense_shape, dtype } with values as numbers. */
export function toDense(sp, defaultValue) {
  const A = arith(sp.dtype);
  const flat = new Array(volume(sp.dense_shape)).fill(A.from(defaultValue ?? 0));
  sp.indices.forEach((ix, i) => (flat[offsetOf(ix, sp.dense_shape)] = A.from(sp.values[i])));
  return { output: dense(flat, sp.dense_shape, sp.dtype) };
}

export function reduceSum(sp, axis, keepdims) {
  const A = arith(sp.dtype);
  const rank = sp.dense_shape.length;
  const axes = new Set(
    (axis === null || axis === undefined ? [...Array(rank).keys()] : [axis].flat()).map((a) => (a < 0 ? a + rank : a)),
  );
  const outShape = [];
  sp.dense_shape.forEach((n, d) => {
    if (!axes.has(d)) outShape.push(n);
    else if (keepdims) outShape.push(1);
  });
  const kept = sp.dense_shape.map((n, d) => (axes.has(d) ? 1 : n));
  const flat = new Array(volume(outShape)).fill(A.zero);
  sp.indices.forEach((ix, i) => {
    const o = offsetOf(
      ix.map((x, d) => (axes.has(d) ? 0 : x)),
      kept,
    );
    flat[o] = A.add(flat[o], A.from(sp.values[i]));
  });
  return { output: dense(flat, outShape, sp.dtype) };
}

/** op(a) · op(b) for a sparse `a` and a dense `b` given as nested lists. */
export function sparseDenseMatmul(a, b, adjointA, adjointB) {
  const A = arith(a.dtype);
  const [ra, ca] = a.dense_shape;
  const m = adjointA ? ca : ra;
  const bRows = b.length;
  const bCols = b[0].length;
  const n = adjointB ? bRows : bCols;
  const bAt = (k, j) => A.from(adjointB ? b[j][k] : b[k][j]);
  const flat = new Array(m * n).fill(A.zero);
  a.indices.forEach(([r, c], i) => {
    const [row, k] = adjointA ? [c, r] : [r, c];
    const v = A.from(a.values[i]);
    for (let j = 0; j < n; j++) flat[row * n + j] = A.add(flat[row * n + j], A.mul(v, bAt(k, j)));
  });
  return { output: dense(flat, [m, n], a.dtype) };
}

const compareIndex = (x, y) => {
  for (let d = 0; d < x.length; d++) if (x[d] !== y[d]) return x[d] - y[d];
  return 0;
};

/** Both sparse (canonical): the union; a sum of two stored values is kept when |sum| >= thresh (0), so never NaN. */
export function addSparse(a, b) {
  const A = arith(a.dtype);
  const indices = [];
  const values = [];
  let i = 0;
  let j = 0;
  while (i < a.indices.length || j < b.indices.length) {
    const c = i === a.indices.length ? 1 : j === b.indices.length ? -1 : compareIndex(a.indices[i], b.indices[j]);
    if (c < 0) {
      indices.push(a.indices[i]);
      values.push(A.from(a.values[i++]));
    } else if (c > 0) {
      indices.push(b.indices[j]);
      values.push(A.from(b.values[j++]));
    } else {
      const sum = A.add(A.from(a.values[i]), A.from(b.values[j++]));
      if (!Number.isNaN(sum)) {
        indices.push(a.indices[i]);
        values.push(sum);
      }
      i++;
    }
  }
  return { output: { indices, values: values.map(jsonValue), dense_shape: a.dense_shape, dtype: a.dtype } };
}

/** Sparse `a` plus dense `b` (flat, row-major): a dense result. */
export function addDense(a, bFlat) {
  const A = arith(a.dtype);
  const flat = bFlat.map(A.from);
  a.indices.forEach((ix, i) => {
    const o = offsetOf(ix, a.dense_shape);
    flat[o] = A.add(flat[o], A.from(a.values[i]));
  });
  return { output: dense(flat, a.dense_shape, a.dtype) };
}

export function reorder(sp) {
  const A = arith(sp.dtype);
  const order = sp.indices.map((_, i) => i).sort((x, y) => compareIndex(sp.indices[x], sp.indices[y]) || x - y);
  return {
    output: {
      indices: order.map((i) => sp.indices[i]),
      values: order.map((i) => jsonValue(A.from(sp.values[i]))),
      dense_shape: sp.dense_shape,
      dtype: sp.dtype,
    },
  };
}

/** `data` nested [rows, cols]. */
export function segmentSum(data, dtype, indices, segmentIds, numSegments) {
  const A = arith(dtype);
  const cols = data[0].length;
  const rows = numSegments ?? (segmentIds.length ? segmentIds[segmentIds.length - 1] + 1 : 0);
  const flat = new Array(rows * cols).fill(A.zero);
  indices.forEach((r, i) => {
    const s = segmentIds[i];
    for (let c = 0; c < cols; c++) flat[s * cols + c] = A.add(flat[s * cols + c], A.from(data[r][c]));
  });
  return { output: dense(flat, [rows, cols], dtype) };
}

/** tf.sparse.bincount without weights: counts in the values' dtype. */
export function bincount(sp, axis, minlength, maxlength, binary) {
  const A = arith(sp.dtype);
  const perRow = axis === -1 && sp.dense_shape.length === 2;
  const max = sp.values.reduce((m, v) => Math.max(m, v), 0);
  const size = maxlength ?? Math.max(max + 1, minlength ?? 0, 1);
  const counts = new Map();
  sp.values.forEach((v, i) => {
    if (v >= size) return;
    const key = perRow ? [sp.indices[i][0], v] : [v];
    const k = key.join(',');
    const prev = counts.get(k);
    counts.set(k, { key, n: binary ? 1 : (prev?.n ?? 0) + 1 });
  });
  const entries = [...counts.values()].sort((x, y) => compareIndex(x.key, y.key));
  return {
    output: {
      indices: entries.map((e) => e.key),
      values: entries.map((e) => jsonValue(A.from(e.n))),
      dense_shape: perRow ? [sp.dense_shape[0], size] : [size],
      dtype: sp.dtype,
    },
  };
}
