import type { SparseReshapeGradKernel } from '@sparse/kernel-abi';

/** The output holds the values of `sp_input` in their order (tf.sparse.reshape passes the values through `identity`), so their gradient is grad itself. */
export const sparseReshapeGrad: SparseReshapeGradKernel = ({ sp_input, grad }) => {
  const n = sp_input.values.length;
  return { sp_input_grad: { kind: 'dense', data: (grad.data as Float64Array).slice(), shape: [n], dtype: grad.dtype } };
};
