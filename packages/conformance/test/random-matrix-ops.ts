import fc from 'fast-check';
import { SparseTensor, tensor, type Runtime } from '@sparse/runtime';

// Random small matrices and the ops a backend's fast paths take on them (row runs, merges, products...), for tests
// that hold one backend to another on the same tensors.

/** rows × cols float32 matrices, in row-major order or not, with or without repeated indices. */
export const matrices = fc
  .record({
    rows: fc.integer({ min: 1, max: 12 }),
    cols: fc.integer({ min: 1, max: 12 }),
    cells: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: -8, max: 8 })), { maxLength: 40 }),
    order: fc.constantFrom('canonical', 'rows', 'any'),
  })
  .map(({ rows, cols, cells, order }) => {
    let entries = cells.map(([r, c, v]) => [r % rows, c % cols, v] as const);
    const key = (e: readonly number[]) => e[0] * cols + e[1];
    if (order === 'canonical') {
      const seen = new Map(entries.map((e) => [key(e), e]));
      entries = [...seen.values()].sort((a, b) => key(a) - key(b));
    } else if (order === 'rows') {
      entries = [...entries].sort((a, b) => a[0] - b[0]);
    }
    return new SparseTensor(
      entries.map((e) => [e[0], e[1]]),
      Float32Array.from(entries, (e) => e[2] / 4),
      [rows, cols],
      'float32',
    );
  });

/** An op's result as plain data, or the error it threw as `Name: message`. */
export const outcome = (call: () => unknown): unknown => {
  try {
    const out = call() as { toJSON?: () => unknown; toArray?: () => unknown };
    return out.toJSON ? out.toJSON() : out.toArray!();
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
};

/** Ops on one or two matrices, by name. */
export const matrixOps: [string, (rt: Runtime, a: SparseTensor, b: SparseTensor) => unknown][] = [
  ['reduceSum axis 1', (rt, a) => rt.sparse.reduceSum(a, { axis: 1 })],
  ['reduceMax all', (rt, a) => rt.sparse.reduceMax(a)],
  ['transpose', (rt, a) => rt.sparse.transpose(a)],
  ['concat axis 1', (rt, a, b) => rt.sparse.concat(1, [a, b], { expandNonconcatDim: true })],
  ['concat axis 0', (rt, a, b) => rt.sparse.concat(0, [b, a], { expandNonconcatDim: true })],
  ['add', (rt, a) => rt.sparse.add(a, a.withValues(new Float32Array(a.nnz).fill(1)))],
  ['reorder', (rt, a) => rt.sparse.reorder(a)],
  ['maximum', (rt, a, b) => rt.sparse.maximum(a, b)],
  [
    'denseCwiseMul',
    (rt, a) =>
      rt.sparse.denseCwiseMul(
        a,
        tensor(
          Float32Array.from({ length: a.denseShape[1] }, (_, i) => i - 2),
          'float32',
          [a.denseShape[1]],
        ),
      ),
  ],
  ['toDense', (rt, a) => rt.sparse.tensorToDense(a, { validateIndices: false })],
  [
    'tensorDenseMatmul',
    (rt, a) =>
      rt.sparse.tensorDenseMatmul(
        a,
        tensor(
          Float32Array.from({ length: a.denseShape[1] * 3 }, (_, i) => i - 4),
          'float32',
          [a.denseShape[1], 3],
        ),
      ),
  ],
];
