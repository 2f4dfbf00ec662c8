import type { DenseData } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import type { KernelFactory } from '../kernel.js';
import { csrOperand } from '../csr-operand.js';

/**
 * sparse_matrix_mat_mul in wasm: each matrix of the batch through the SIMD SpMM of sparse_tensor_dense_matmul
 * (matmul.ts: each output row summed over the rows of op(b) its entries select), whose CSR rows a CsrMatrix already
 * is. A transposed a is transposed first (a counting sort), a transposed b and a transposed output by the dense
 * transpose, matrix by matrix.
 */
export const sparseMatrixMatMul: KernelFactory<'sparse_matrix_mat_mul'> = (ctx) => (args) => {
  const dtype = args.a.dtype as 'float32' | 'float64';
  const size = bytesPerElement(dtype);
  const { heap } = ctx;
  ctx.begin();
  const a = csrOperand(ctx, args.a, args.transpose_a || args.adjoint_a);
  const { batch, rows: m } = a;
  const [b0, b1] = args.b.shape.slice(-2);
  const tb = args.transpose_b || args.adjoint_b;
  const n = tb ? b0 : b1;
  const transpose = size === 4 ? 'transpose_4' : 'transpose_8';
  // Each entry's offset into the rows of op(b), in bytes.
  const colOff = heap.alloc(a.nnz * 4);
  ctx.call('csr_col_offsets', [a.ci, a.nnz, n * size, colOff]);
  let b = heap.putValues(dtype, args.b.data);
  const bBytes = b0 * b1 * size;
  if (tb) {
    const t = heap.alloc(batch * bBytes);
    for (let bi = 0; bi < batch; bi++) ctx.call(transpose, [b + bi * bBytes, b0, b1, t + bi * bBytes]);
    b = t;
  }
  const outBytes = m * n * size;
  let out = heap.alloc(batch * outBytes);
  for (let bi = 0; bi < batch; bi++) {
    const base = args.a.batchPointers[bi];
    ctx.call(`spmm_${dtype}`, [
      a.rp + bi * (m + 1) * 4,
      4,
      1,
      colOff + base * 4,
      a.vals + base * size,
      m,
      b + bi * bBytes,
      n,
      out + bi * outBytes,
    ]);
  }
  let shape = [m, n];
  if (args.transpose_output) {
    const t = heap.alloc(batch * outBytes);
    for (let bi = 0; bi < batch; bi++) ctx.call(transpose, [out + bi * outBytes, m, n, t + bi * outBytes]);
    out = t;
    shape = [n, m];
  }
  const output: DenseData = {
    kind: 'dense',
    data: heap.readValues(dtype, out, batch * m * n),
    shape: args.a.shape.length === 3 ? [batch, ...shape] : shape,
    dtype,
  };
  return { output };
};
