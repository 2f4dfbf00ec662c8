import { allocValues, type SparseMatrixMatMulKernel, type Values } from '@sparse/kernel-abi';
import { accumulateRows, transposeMatrix } from '../matmul-rows.js';
import { csrEntryPairs, matMulDims } from '../csr.js';

type Store = Float32Array | Float64Array;

/**
 * op(a) · op(b) for a CSR `a` and a dense `b`, matrix by matrix of a batch (the runtime checks ranks, batch sizes and
 * inner dims). Every stored entry (r, c, v) of a adds v · op(b)[c, :] to out[r, :] (out[c, :] from op(b)[r, :] when
 * a is transposed: no transpose of a is made); op(b) is b, or b transposed once so the inner loop stays contiguous;
 * `transpose_output` transposes each product at the end. The arithmetic is that of the sparse × dense matmul
 * (matmul-rows.ts). O(nnz · n + k · n + m · n) per matrix.
 */
export const sparseMatrixMatMul: SparseMatrixMatMulKernel = (args) => {
  const { a, b } = args;
  const { ta, tb, batch, b0, b1, m, n } = matMulDims(args);
  const dtype = a.dtype;
  let out = allocValues(dtype, batch * m * n) as Store;
  for (let bi = 0; bi < batch; bi++) {
    const bMat = (b.data as Store).subarray(bi * b0 * b1, (bi + 1) * b0 * b1);
    const opB = tb ? transposeMatrix(bMat, b0, b1, dtype) : bMat;
    // The batch's entries as (row, column) pairs of a, for the row update.
    const { indices, base, nnz } = csrEntryPairs(a, bi);
    const values = (a.values as Store).subarray(base, base + nnz);
    accumulateRows(out.subarray(bi * m * n, (bi + 1) * m * n), indices, values, ta ? 1 : 0, opB, n, dtype);
  }
  let shape = [m, n];
  if (args.transpose_output) {
    const t = allocValues(dtype, batch * m * n, false) as Store;
    for (let bi = 0; bi < batch; bi++)
      t.set(transposeMatrix(out.subarray(bi * m * n, (bi + 1) * m * n), m, n, dtype) as Store, bi * m * n);
    out = t;
    shape = [n, m];
  }
  return {
    output: { kind: 'dense', data: out as Values, shape: a.shape.length === 3 ? [batch, ...shape] : shape, dtype },
  };
};
