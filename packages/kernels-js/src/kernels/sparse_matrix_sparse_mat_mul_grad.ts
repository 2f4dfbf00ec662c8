import { allocValues, KernelError, type CsrData, type SparseMatrixSparseMatMulGradKernel } from '@sparse/kernel-abi';
import { csrDims, transposeCsr } from '../csr.js';

type Store = Float32Array | Float64Array;

/**
 * The gradient of C = op(a) · op(b), two CSR matrices (or batches), with respect to the stored values of each, from
 * `grad`, one value per stored entry of C. C holds every position some product reaches, in sorted columns, so its
 * pattern is found again row by row as the forward kernel finds it (a mark per column, the row's columns sorted),
 * each row's gradient spread into a dense row, and each product A[i, k] · B[k, j] visited once: A[i, k] gets
 * G[i, j] · B[k, j] and B[k, j] gets A[i, k] · G[i, j], summed over j and i in order (TensorFlow's products
 * G · op(b)ᵀ and op(a)ᵀ · G at the stored entries; float32 rounds every product and sum). A transposed operand is
 * transposed first, keeping where each entry came from. O(products + row lengths · log + batch · (rows + cols)).
 */
export const sparseMatrixSparseMatMulGrad: SparseMatrixSparseMatMulGradKernel = (args) => {
  const [a, fromA] = operand(args.a, args.transpose_a || args.adjoint_a);
  const [b, fromB] = operand(args.b, args.transpose_b || args.adjoint_b);
  const [batch, m] = csrDims(a);
  const [, k0, n] = csrDims(b);
  const dtype = a.dtype;
  const round = dtype === 'float32' ? Math.fround : (x: number) => x;
  const g = args.grad.data as Store;
  const av = a.values as Store;
  const bv = b.values as Store;
  const aGrad = allocValues(dtype, av.length) as Store;
  const bGrad = allocValues(dtype, bv.length) as Store;
  const mark = new Float64Array(n).fill(-1);
  const row = new Float64Array(n);
  const cols = new Int32Array(n);
  let pos = 0;
  let stamp = 0;
  for (let bi = 0; bi < batch; bi++) {
    const aBase = a.batchPointers[bi];
    const bBase = b.batchPointers[bi];
    const bRows = bi * (k0 + 1);
    for (let i = 0; i < m; i++, stamp++) {
      const p = bi * (m + 1) + i;
      const [aStart, aEnd] = [aBase + a.rowPointers[p], aBase + a.rowPointers[p + 1]];
      let count = 0;
      for (let e = aStart; e < aEnd; e++) {
        const k = bRows + a.colIndices[e];
        for (let f = bBase + b.rowPointers[k]; f < bBase + b.rowPointers[k + 1]; f++) {
          const j = b.colIndices[f];
          if (mark[j] !== stamp) {
            mark[j] = stamp;
            cols[count++] = j;
          }
        }
      }
      if (pos + count > g.length) throw new KernelError('GRAD_SIZE', ` of sparse_matrix_sparse_mat_mul`);
      const sorted = cols.subarray(0, count).sort();
      for (let t = 0; t < count; t++) row[sorted[t]] = g[pos + t];
      pos += count;
      for (let e = aStart; e < aEnd; e++) {
        const k = bRows + a.colIndices[e];
        const v = av[e];
        let s = 0;
        for (let f = bBase + b.rowPointers[k]; f < bBase + b.rowPointers[k + 1]; f++) {
          const gj = row[b.colIndices[f]];
          s = round(s + round(gj * bv[f]));
          bGrad[f] += round(v * gj);
        }
        aGrad[e] = s;
      }
    }
  }
  if (pos !== g.length) throw new KernelError('GRAD_SIZE', ` of sparse_matrix_sparse_mat_mul`);
  return {
    a_grad: { kind: 'dense', data: back(aGrad, fromA), shape: [av.length], dtype },
    b_grad: { kind: 'dense', data: back(bGrad, fromB), shape: [bv.length], dtype },
  };
};

/** op(x) as a CSR matrix, and for a transpose, where each of its entries was in x. */
function operand(x: CsrData, transpose: boolean): [CsrData, Float64Array | null] {
  if (!transpose) return [x, null];
  const nnz = x.values.length;
  const iota = new Float64Array(nnz);
  for (let e = 0; e < nnz; e++) iota[e] = e;
  const t = transposeCsr({ ...x, values: iota, dtype: 'float64' });
  const from = t.values as Float64Array;
  const values = allocValues(x.dtype, nnz, false) as Store;
  for (let e = 0; e < nnz; e++) values[e] = (x.values as Store)[from[e]];
  return [{ ...t, values, dtype: x.dtype }, from];
}

/** A gradient of op(x)'s entries put back in x's order. */
function back(grad: Store, from: Float64Array | null): Store {
  if (!from) return grad;
  const out = grad.slice();
  for (let e = 0; e < from.length; e++) out[from[e]] = grad[e];
  return out;
}
