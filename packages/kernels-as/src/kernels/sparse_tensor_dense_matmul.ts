import type { DenseData } from '../generated/kernel-types.js';
import { matmulPlan } from '@sparse/kernels-js/internals';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS } from '../delegation.js';

type Args = Record<string, unknown>;

/**
 * sparse_tensor_dense_matmul in wasm (SIMD). Sparse × dense: out[m×n] = A'·B', the sparse entries scattered row by
 * row over contiguous rows of B' (transposed in wasm once when adjoint_b). Dense × sparse: outᵀ = B'ᵀ·A'ᵀ by the
 * same kernel, then transposed back.
 */
export function sparseTensorDenseMatmul(ctx: WasmContext, js: (a: never) => Args) {
  return (args: Args): Args => {
    const { sparseFirst, sp, dn, swapSparse, transposeDense, m, n } = matmulPlan(args);
    if (!fitsI32(sp.shape) || !fitsI32(dn.shape)) return delegate(js, args, REASONS.wideDims);
    const [dRows, dCols] = dn.shape;
    const dtype = sp.dtype;
    const size = bytesPerElement(dtype);
    const nnz = sp.values.length;
    const { heap } = ctx;
    heap.reset();
    const indices = ctx.putIndices(sp.indices);
    const vals = heap.putValues(dtype, sp.values);
    let d = heap.putValues(dtype, dn.data);
    if (transposeDense) {
      const t = heap.alloc(dn.data.length * size);
      ctx.call(`transpose_${size}`, [d, dRows, dCols, t]);
      d = t;
    }
    const out = heap.zeros(dtype, m * n);
    ctx.call(`spmm_${dtype}`, [indices, swapSparse, vals, nnz, d, n, out]);
    let result = out;
    if (!sparseFirst) {
      result = heap.alloc(m * n * size);
      ctx.call(`transpose_${size}`, [out, m, n, result]);
    }
    const shape = sparseFirst ? [m, n] : [n, m];
    return { output: { kind: 'dense', data: heap.readValues(dtype, result, m * n), shape, dtype } satisfies DenseData };
  };
}
