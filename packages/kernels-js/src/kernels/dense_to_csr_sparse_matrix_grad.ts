import { allocValues, KernelError, type DenseToCsrSparseMatrixGradKernel, type Values } from '@sparse/kernel-abi';

type Store = Float32Array | Float64Array;

/**
 * grad scattered to the positions of `indices` (checked in bounds and without repeats by the runtime), 0 elsewhere:
 * the gradient CsrMatrix made dense. O(N + the size of dense_input).
 */
export const denseToCsrSparseMatrixGrad: DenseToCsrSparseMatrixGradKernel = ({ dense_input, indices, grad }) => {
  const [n, rank] = indices.shape;
  if (grad.data.length !== n) throw new KernelError('GRAD_SIZE', ` (${n}), got ${grad.data.length}`);
  const shape = dense_input.shape;
  const at = indices.data as BigInt64Array;
  const g = grad.data as Store;
  const out = allocValues(dense_input.dtype, dense_input.data.length) as Store;
  for (let i = 0; i < n; i++) {
    let offset = 0;
    for (let d = 0; d < rank; d++) offset = offset * shape[d] + Number(at[i * rank + d]);
    out[offset] = g[i];
  }
  return { dense_input_grad: { kind: 'dense', data: out as Values, shape: shape.slice(), dtype: dense_input.dtype } };
};
