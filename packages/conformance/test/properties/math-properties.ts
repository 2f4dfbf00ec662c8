import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { FLOATS, NUMERIC, shapeArb, sparseArb, valueArb } from './arbitraries.js';
import { oracleProperty, type Property } from './property.js';
import { denseForm, inDType, offsetOf, sizeOf, toGrid, type NumericDType, type SparseForm } from './grid.js';
import { dimArb, exactValueArb, looseSparseArb, matrixArb } from './math-arbitraries.js';

// The math ops against dense oracles: softmax row by row of the densified input, matmul as the naive triple
// loop over densified operands.

const one = (op: string, args: Record<string, unknown>, output: unknown): Case => ({
  op,
  name: 'property',
  args,
  expect: { output },
});

/** softmax: densify; along each innermost row, softmax over the stored positions only; read back in input order. */
function softmax(): Property {
  const values = (dtype: NumericDType) =>
    fc.oneof({ weight: 4, arbitrary: valueArb(dtype) }, { weight: 1, arbitrary: fc.constantFrom(1000, -1000, 999.5) });
  const cases = fc.constantFrom(...FLOATS).chain((dtype) =>
    shapeArb(2, 3, 4).chain((shape) =>
      sparseArb(shape, dtype, { values: values(dtype) }).map((sp) => {
        const g = toGrid(sp);
        const c = shape[shape.length - 1];
        const out = new Array<number>(g.data.length).fill(0);
        for (let row = 0; row * c < g.data.length; row++) {
          const cols = Array.from({ length: c }, (_, j) => row * c + j).filter((off) => g.stored[off]);
          if (cols.length === 0) continue;
          const max = Math.max(...cols.map((off) => g.data[off]));
          const sum = cols.reduce((s, off) => s + Math.exp(g.data[off] - max), 0);
          for (const off of cols) out[off] = Math.exp(g.data[off] - max) / sum;
        }
        const result = sp.sparse.indices.map((ix) => inDType(out[offsetOf(ix, shape)], dtype));
        return one('sparse_softmax', { sp_input: sp }, { ...sp, sparse: { ...sp.sparse, values: result } });
      }),
    ),
  );
  return oracleProperty('sparse_softmax', cases);
}

/** The dense row-major form of a sparse operand, repeated indices added up. */
function densifyAdding(sp: SparseForm): number[] {
  const shape = sp.sparse.dense_shape;
  const out = new Array<number>(sizeOf(shape)).fill(0);
  sp.sparse.indices.forEach((ix, i) => (out[offsetOf(ix, shape)] += sp.sparse.values[i]));
  return out;
}

/** matmul: op(A) · op(B) by the triple loop, with either operand sparse (any order, repeats adding up). */
function matmul(): Property {
  const cases = fc
    .record({
      dtype: fc.constantFrom(...NUMERIC),
      m: dimArb,
      k: dimArb,
      n: dimArb,
      adjA: fc.boolean(),
      adjB: fc.boolean(),
      sparseLeft: fc.boolean(),
    })
    .chain(({ dtype, m, k, n, adjA, adjB, sparseLeft }) => {
      const aShape: [number, number] = adjA ? [k, m] : [m, k];
      const bShape: [number, number] = adjB ? [n, k] : [k, n];
      const values = dtype === 'float64' ? valueArb(dtype) : exactValueArb(dtype);
      const operand = (shape: [number, number], sparse: boolean) =>
        sparse
          ? looseSparseArb(shape, dtype, values).map((sp) => ({ arg: sp as unknown, data: densifyAdding(sp) }))
          : matrixArb(shape, values).map((data) => ({ arg: denseForm(data, shape, dtype) as unknown, data }));
      return fc.tuple(operand(aShape, sparseLeft), operand(bShape, !sparseLeft)).map(([a, b]) => {
        const A = (i: number, t: number) => (adjA ? a.data[t * aShape[1] + i] : a.data[i * aShape[1] + t]);
        const B = (t: number, j: number) => (adjB ? b.data[j * bShape[1] + t] : b.data[t * bShape[1] + j]);
        const out: number[] = [];
        for (let i = 0; i < m; i++) {
          for (let j = 0; j < n; j++) {
            let s = 0;
            for (let t = 0; t < k; t++) s += A(i, t) * B(t, j);
            out.push(inDType(s + 0, dtype));
          }
        }
        return one(
          'sparse_tensor_dense_matmul',
          { sp_a: a.arg, b: b.arg, adjoint_a: adjA, adjoint_b: adjB },
          denseForm(out, [m, n], dtype),
        );
      });
    });
  return oracleProperty('sparse_tensor_dense_matmul', cases);
}

/** Properties of the math ops against a dense oracle. */
export const MATH_PROPERTIES: Property[] = [softmax(), matmul()];
