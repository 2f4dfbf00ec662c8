import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { FLOATS } from './arbitraries.js';
import { inDType, nest, type NumericDType } from './grid.js';
import { exactValueArb } from './math-arbitraries.js';
import { oracleProperty, type Property } from './property.js';

// The CSR ops against dense oracles: random matrices and batches of them (empty rows, empty matrices, zero dims),
// each held as a dense grid with a mask of the stored positions; the oracle computes on the grid and writes the
// expected CSR parts itself (sorted columns, batch by batch), so a wrong pointer, column or order fails the case.

/** A matrix or batch as the oracle sees it: [batch, rows, cols], values and stored flags row-major. */
interface Grid3 {
  batch: number;
  rows: number;
  cols: number;
  /** Rank 2 (batch 1) or 3. */
  rank: 2 | 3;
  data: number[];
  stored: boolean[];
  dtype: NumericDType;
}

const dimArb = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 1, arbitrary: fc.constant(0) },
);

/** A random matrix (or batch of 1..3) of these dims, each position stored with probability about a half. */
function gridArb(rank: 2 | 3, rows: number, cols: number, dtype: NumericDType, batch = 1): fc.Arbitrary<Grid3> {
  const n = batch * rows * cols;
  return fc
    .tuple(
      fc.array(exactValueArb(dtype), { minLength: n, maxLength: n }),
      fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    )
    .map(([values, stored]) => ({
      batch,
      rows,
      cols,
      rank,
      // Positions not stored hold 0, as the dense form of the matrix has them.
      data: values.map((v, i) => (stored[i] ? v : 0)),
      stored,
      dtype,
    }));
}

/** Any matrix or batch: rank 2 or 3, dims 0..4, either float dtype. */
const anyGridArb: fc.Arbitrary<Grid3> = fc
  .record({
    rank: fc.constantFrom(2 as const, 3 as const),
    batch: fc.integer({ min: 1, max: 3 }),
    rows: dimArb,
    cols: dimArb,
    dtype: fc.constantFrom(...FLOATS),
  })
  .chain(({ rank, batch, rows, cols, dtype }) => gridArb(rank, rows, cols, dtype, rank === 3 ? batch : 1));

const shapeOf = (g: Grid3) => (g.rank === 3 ? [g.batch, g.rows, g.cols] : [g.rows, g.cols]);

/** The CSR case form of a grid: its stored positions batch by batch, row by row, columns ascending. */
function csrForm(g: Grid3) {
  const rowPointers: number[] = [];
  const batchPointers = [0];
  const colIndices: number[] = [];
  const values: number[] = [];
  for (let b = 0; b < g.batch; b++) {
    rowPointers.push(0);
    for (let i = 0; i < g.rows; i++) {
      for (let j = 0; j < g.cols; j++) {
        const off = (b * g.rows + i) * g.cols + j;
        if (!g.stored[off]) continue;
        colIndices.push(j);
        values.push(g.data[off]);
      }
      rowPointers.push(colIndices.length - batchPointers[b]);
    }
    batchPointers.push(colIndices.length);
  }
  return {
    csr: {
      batch_pointers: batchPointers,
      row_pointers: rowPointers,
      col_indices: colIndices,
      values,
      dense_shape: shapeOf(g),
    },
    dtype: g.dtype,
  };
}

/** The SparseTensor case form of a grid's stored positions, in canonical order. */
function sparseForm(g: Grid3) {
  const indices: number[][] = [];
  const values: number[] = [];
  for (let off = 0; off < g.stored.length; off++) {
    if (!g.stored[off]) continue;
    const j = off % g.cols;
    const i = Math.floor(off / g.cols) % g.rows;
    const b = Math.floor(off / (g.cols * g.rows));
    indices.push(g.rank === 3 ? [b, i, j] : [i, j]);
    values.push(g.data[off]);
  }
  return { sparse: { indices, values, dense_shape: shapeOf(g) }, dtype: g.dtype };
}

const denseForm = (g: Grid3) => ({ dense: nest(g.data, shapeOf(g)), shape: shapeOf(g), dtype: g.dtype });

const one = (op: string, args: Record<string, unknown>, output: unknown): Case => ({
  op,
  name: 'property',
  args,
  expect: { output },
});

/** Each matrix of a grid transposed, stored flags with it. */
function transposed(g: Grid3): Grid3 {
  const data: number[] = [];
  const stored: boolean[] = [];
  for (let b = 0; b < g.batch; b++)
    for (let j = 0; j < g.cols; j++)
      for (let i = 0; i < g.rows; i++) {
        const off = (b * g.rows + i) * g.cols + j;
        data.push(g.data[off]);
        stored.push(g.stored[off]);
      }
  return { ...g, rows: g.cols, cols: g.rows, data, stored };
}

/**
 * The product of two grids matrix by matrix: each position's sum over the stored pairs, and stored wherever some
 * pair of stored entries lands (a sum that cancels to 0 is still stored, as TensorFlow's kernel keeps it).
 */
function product(a: Grid3, b: Grid3): Grid3 {
  const data: number[] = [];
  const stored: boolean[] = [];
  for (let n = 0; n < a.batch; n++)
    for (let i = 0; i < a.rows; i++)
      for (let j = 0; j < b.cols; j++) {
        let sum = 0;
        let reached = false;
        for (let t = 0; t < a.cols; t++) {
          const x = (n * a.rows + i) * a.cols + t;
          const y = (n * b.rows + t) * b.cols + j;
          if (!a.stored[x] || !b.stored[y]) continue;
          sum += a.data[x] * b.data[y];
          reached = true;
        }
        data.push(inDType(sum, a.dtype) + 0);
        stored.push(reached);
      }
  return { ...a, cols: b.cols, data, stored };
}

/** Flags for one operand: transposed or not, and if so by transpose_* or adjoint_* (never both). */
const flagArb = fc.constantFrom('none' as const, 'transpose' as const, 'adjoint' as const);
const flagArgs = (side: 'a' | 'b', f: 'none' | 'transpose' | 'adjoint') =>
  f === 'none' ? {} : { [`${f}_${side}`]: true };

/** Operands of op(a) · op(b): inner dims that agree after the flags, one rank and batch, one dtype. */
const productArb = fc
  .record({
    rank: fc.constantFrom(2 as const, 3 as const),
    batch: fc.integer({ min: 1, max: 2 }),
    m: dimArb,
    k: dimArb,
    n: dimArb,
    fa: flagArb,
    fb: flagArb,
    dtype: fc.constantFrom(...FLOATS),
  })
  .chain((p) => {
    const batch = p.rank === 3 ? p.batch : 1;
    const [ar, ac] = p.fa === 'none' ? [p.m, p.k] : [p.k, p.m];
    const [br, bc] = p.fb === 'none' ? [p.k, p.n] : [p.n, p.k];
    return fc.tuple(gridArb(p.rank, ar, ac, p.dtype, batch), gridArb(p.rank, br, bc, p.dtype, batch)).map(([a, b]) => {
      const opA = p.fa === 'none' ? a : transposed(a);
      const opB = p.fb === 'none' ? b : transposed(b);
      return { ...p, a, b, out: product(opA, opB), flags: { ...flagArgs('a', p.fa), ...flagArgs('b', p.fb) } };
    });
  });

function toCsr(): Property {
  const cases = anyGridArb.map((g) =>
    one('sparse_tensor_to_csr_sparse_matrix', { sp_input: sparseForm(g) }, csrForm(g)),
  );
  return oracleProperty('sparse_tensor_to_csr_sparse_matrix', cases);
}

function toSparse(): Property {
  const cases = anyGridArb.map((g) =>
    one('csr_sparse_matrix_to_sparse_tensor', { sparse_matrix: csrForm(g) }, sparseForm(g)),
  );
  return oracleProperty('csr_sparse_matrix_to_sparse_tensor', cases);
}

function toDense(): Property {
  const cases = anyGridArb.map((g) => one('csr_sparse_matrix_to_dense', { sparse_input: csrForm(g) }, denseForm(g)));
  return oracleProperty('csr_sparse_matrix_to_dense', cases);
}

/** dense_to_csr: the grid's values everywhere, the stored flags as the positions listed (zeros among them kept). */
function fromDense(): Property {
  const cases = anyGridArb.chain((g) =>
    fc.array(exactValueArb(g.dtype), { minLength: g.data.length, maxLength: g.data.length }).map((noise) => {
      // Positions not listed hold other values, which the result must not pick up.
      const full = { ...g, data: g.data.map((v, i) => (g.stored[i] ? v : noise[i])) };
      const indices = sparseForm(g).sparse.indices;
      const rank = shapeOf(g).length;
      return one(
        'dense_to_csr_sparse_matrix',
        {
          dense_input: denseForm(full),
          indices: { dense: indices, shape: [indices.length, rank], dtype: 'int64' },
        },
        csrForm(g),
      );
    }),
  );
  return oracleProperty('dense_to_csr_sparse_matrix', cases);
}

function transpose(): Property {
  const cases = fc
    .tuple(anyGridArb, fc.boolean())
    .map(([g, conjugate]) => one('sparse_matrix_transpose', { input: csrForm(g), conjugate }, csrForm(transposed(g))));
  return oracleProperty('sparse_matrix_transpose', cases);
}

function matMul(): Property {
  const cases = fc.tuple(productArb, fc.boolean()).map(([p, transposeOutput]) => {
    const out = transposeOutput ? transposed(p.out) : p.out;
    // The dense product has every position, stored or not.
    const dense = { ...out, stored: out.data.map(() => true) };
    return one(
      'sparse_matrix_mat_mul',
      { a: csrForm(p.a), b: denseForm(p.b), ...p.flags, transpose_output: transposeOutput },
      denseForm(dense),
    );
  });
  return oracleProperty('sparse_matrix_mat_mul', cases);
}

function sparseMatMul(): Property {
  const cases = productArb.map((p) =>
    one('sparse_matrix_sparse_mat_mul', { a: csrForm(p.a), b: csrForm(p.b), ...p.flags }, csrForm(p.out)),
  );
  return oracleProperty('sparse_matrix_sparse_mat_mul', cases);
}

export const CSR_PROPERTIES: Property[] = [
  toCsr(),
  toSparse(),
  toDense(),
  fromDense(),
  transpose(),
  matMul(),
  sparseMatMul(),
];
