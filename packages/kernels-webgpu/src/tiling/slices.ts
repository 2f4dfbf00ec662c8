import type { CsrData, DenseData, SparseData, Values } from '@sparse/kernel-abi';

/** Cutting a call's tensors into the pieces of a tiled call, and putting the pieces' results back together. */

/** An empty store of `values`' kind and `n` elements (typed arrays keep their class; strings stay a list). */
export function emptyLike(values: Values, n: number): Values {
  if (Array.isArray(values)) return new Array<string>(n).fill('');
  return new (values.constructor as new (n: number) => Exclude<Values, string[]>)(n);
}

/** Rows `at` (each `width` elements) of `values`, in order. */
function gather(values: Values, at: ArrayLike<number>, width: number): Values {
  const out = emptyLike(values, at.length * width) as unknown as unknown[];
  const src = values as unknown as unknown[];
  for (let k = 0; k < at.length; k++) for (let j = 0; j < width; j++) out[k * width + j] = src[at[k] * width + j];
  return out as unknown as Values;
}

/** The entries of `sp` whose index in dim `axis` is in [r0, r1), in order, that index less r0: the piece and where its entries were. */
export function sparseRows(
  sp: SparseData,
  r0: number,
  r1: number,
  axis = 0,
): { piece: SparseData; positions: Int32Array } {
  const rank = sp.shape.length;
  const n = sp.values.length;
  const keep: number[] = [];
  for (let e = 0; e < n; e++) {
    const x = sp.indices[e * rank + axis];
    if (x >= r0 && x < r1) keep.push(e);
  }
  const positions = Int32Array.from(keep);
  const indices = new Float64Array(positions.length * rank);
  for (let k = 0; k < positions.length; k++) {
    for (let d = 0; d < rank; d++) indices[k * rank + d] = sp.indices[positions[k] * rank + d];
    indices[k * rank + axis] -= r0;
  }
  const shape = sp.shape.slice();
  shape[axis] = r1 - r0;
  return { piece: { ...sp, indices, values: gather(sp.values, positions, 1), shape }, positions };
}

/** Entries [e0, e1) of `sp`, as they are. */
export function sparseEntries(sp: SparseData, e0: number, e1: number): SparseData {
  const rank = sp.shape.length;
  return {
    ...sp,
    indices: sp.indices.slice(e0 * rank, e1 * rank),
    values: sp.values.slice(e0, e1) as Values,
    shape: sp.shape.slice(),
  };
}

/** Elements per leading index of a dense tensor. */
const rowWidth = (d: DenseData) => d.shape.slice(1).reduce((a, b) => a * b, 1);

/** The elements before and after dim `axis` of a shape: [outer, inner]. */
const around = (shape: readonly number[], axis: number): [number, number] => [
  shape.slice(0, axis).reduce((a, b) => a * b, 1),
  shape.slice(axis + 1).reduce((a, b) => a * b, 1),
];

/** Indices [r0, r1) of a dense tensor's dim `axis` (its leading one unless said). */
export function denseRows(d: DenseData, r0: number, r1: number, axis = 0): DenseData {
  const [outer, inner] = around(d.shape, axis);
  const dim = d.shape[axis];
  const block = (r1 - r0) * inner;
  const data = emptyLike(d.data, outer * block) as unknown as unknown[];
  const src = d.data as unknown as unknown[];
  for (let o = 0; o < outer; o++) for (let j = 0; j < block; j++) data[o * block + j] = src[(o * dim + r0) * inner + j];
  const shape = d.shape.slice();
  shape[axis] = r1 - r0;
  return { ...d, data: data as unknown as Values, shape };
}

/** Columns [c0, c1) of a dense tensor's last dim. */
export function denseCols(d: DenseData, c0: number, c1: number): DenseData {
  const cols = d.shape[d.shape.length - 1];
  const rows = d.data.length / cols;
  const w = c1 - c0;
  const data = emptyLike(d.data, rows * w) as unknown as unknown[];
  const src = d.data as unknown as unknown[];
  for (let r = 0; r < rows; r++) for (let j = 0; j < w; j++) data[r * w + j] = src[r * cols + c0 + j];
  return { ...d, data: data as unknown as Values, shape: [...d.shape.slice(0, -1), w] };
}

/** The rows `at` of a dense tensor's leading dim, in order. */
export function denseGather(d: DenseData, at: ArrayLike<number>): DenseData {
  return { ...d, data: gather(d.data, at, rowWidth(d)), shape: [at.length, ...d.shape.slice(1)] };
}

/** Sparse pieces end to end, each piece's index in dim `axis` moved by its `offset`; the whole has `shape`. */
export function joinSparse(
  pieces: readonly SparseData[],
  offsets: readonly number[],
  shape: number[],
  axis = 0,
): SparseData {
  const rank = shape.length;
  const n = pieces.reduce((a, p) => a + p.values.length, 0);
  const indices = new Float64Array(n * rank);
  const values = emptyLike(pieces[0].values, n) as unknown as unknown[];
  let at = 0;
  pieces.forEach((p, k) => {
    indices.set(p.indices, at * rank);
    if (offsets[k]) for (let e = 0; e < p.values.length; e++) indices[(at + e) * rank + axis] += offsets[k];
    const src = p.values as unknown as unknown[];
    for (let e = 0; e < src.length; e++) values[at + e] = src[e];
    at += p.values.length;
  });
  return { ...pieces[0], indices, values: values as unknown as Values, shape };
}

/** Dense pieces stacked along dim `axis` (the leading one unless said). */
export function joinDenseRows(pieces: readonly DenseData[], axis = 0): DenseData {
  const [outer, inner] = around(pieces[0].shape, axis);
  const dim = pieces.reduce((a, p) => a + p.shape[axis], 0);
  const data = emptyLike(pieces[0].data, outer * dim * inner) as unknown as unknown[];
  let r0 = 0;
  for (const p of pieces) {
    const block = p.shape[axis] * inner;
    const src = p.data as unknown as unknown[];
    for (let o = 0; o < outer; o++)
      for (let j = 0; j < block; j++) data[(o * dim + r0) * inner + j] = src[o * block + j];
    r0 += p.shape[axis];
  }
  const shape = pieces[0].shape.slice();
  shape[axis] = dim;
  return { ...pieces[0], data: data as unknown as Values, shape };
}

/** Dense pieces side by side along the last dim. */
export function joinDenseCols(pieces: readonly DenseData[]): DenseData {
  const last = (p: DenseData) => p.shape[p.shape.length - 1];
  const cols = pieces.reduce((a, p) => a + last(p), 0);
  const rows = pieces[0].data.length / Math.max(last(pieces[0]), 1);
  const data = emptyLike(pieces[0].data, rows * cols) as unknown as unknown[];
  let c0 = 0;
  for (const p of pieces) {
    const w = last(p);
    const src = p.data as unknown as unknown[];
    for (let r = 0; r < rows; r++) for (let j = 0; j < w; j++) data[r * cols + c0 + j] = src[r * w + j];
    c0 += w;
  }
  return { ...pieces[0], data: data as unknown as Values, shape: [...pieces[0].shape.slice(0, -1), cols] };
}

/** Dense pieces whose leading rows belong at `positions[k]` of a tensor of `rows` leading rows (the rest zero). */
export function scatterDenseRows(
  pieces: readonly DenseData[],
  positions: readonly ArrayLike<number>[],
  rows: number,
): DenseData {
  const w = rowWidth(pieces[0]);
  const data = emptyLike(pieces[0].data, rows * w) as unknown as unknown[];
  pieces.forEach((p, k) => {
    const src = p.data as unknown as unknown[];
    const at = positions[k];
    for (let r = 0; r < at.length; r++) for (let j = 0; j < w; j++) data[at[r] * w + j] = src[r * w + j];
  });
  return { ...pieces[0], data: data as unknown as Values, shape: [rows, ...pieces[0].shape.slice(1)] };
}

/**
 * Leading rows [r0, r1) of a CSR matrix (rank 2: its rows) or batch (rank 3: its matrices), as a CSR of their own.
 */
export function csrRows(m: CsrData, r0: number, r1: number): CsrData {
  const rank3 = m.shape.length === 3;
  const rows = m.shape[m.shape.length - 2];
  let batchPointers: Int32Array;
  let rowPointers: Int32Array;
  let e0: number;
  let e1: number;
  if (rank3) {
    [e0, e1] = [m.batchPointers[r0], m.batchPointers[r1]];
    batchPointers = m.batchPointers.slice(r0, r1 + 1).map((p) => p - e0);
    rowPointers = m.rowPointers.slice(r0 * (rows + 1), r1 * (rows + 1));
  } else {
    [e0, e1] = [m.rowPointers[r0], m.rowPointers[r1]];
    rowPointers = m.rowPointers.slice(r0, r1 + 1).map((p) => p - e0);
    batchPointers = Int32Array.of(0, e1 - e0);
  }
  const shape = m.shape.slice();
  shape[0] = r1 - r0;
  return {
    ...m,
    batchPointers,
    rowPointers,
    colIndices: m.colIndices.slice(e0, e1),
    values: m.values.slice(e0, e1) as Values,
    shape,
  };
}

/** CSR pieces stacked along the leading dim (rows, or batches). */
export function joinCsrRows(pieces: readonly CsrData[]): CsrData {
  const rank3 = pieces[0].shape.length === 3;
  const nnz = pieces.reduce((a, p) => a + p.colIndices.length, 0);
  const lead = pieces.reduce((a, p) => a + p.shape[0], 0);
  const colIndices = new Int32Array(nnz);
  const values = emptyLike(pieces[0].values, nnz) as unknown as unknown[];
  const pointers: number[] = [0];
  const rowPointers: number[] = rank3 ? [] : [0];
  let at = 0;
  for (const p of pieces) {
    colIndices.set(p.colIndices, at);
    const src = p.values as unknown as unknown[];
    for (let e = 0; e < src.length; e++) values[at + e] = src[e];
    if (rank3) {
      for (let b = 1; b < p.batchPointers.length; b++) pointers.push(at + p.batchPointers[b]);
      rowPointers.push(...p.rowPointers);
    } else for (let r = 1; r < p.rowPointers.length; r++) rowPointers.push(at + p.rowPointers[r]);
    at += p.colIndices.length;
  }
  return {
    ...pieces[0],
    batchPointers: rank3 ? Int32Array.from(pointers) : Int32Array.of(0, nnz),
    rowPointers: Int32Array.from(rowPointers),
    colIndices,
    values: values as unknown as Values,
    shape: [lead, ...pieces[0].shape.slice(1)],
  };
}
