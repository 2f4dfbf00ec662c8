import type { DenseData, SparseData } from '../generated/kernel-types.js';
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
    const x = args.sp_a as SparseData | DenseData;
    const y = args.b as SparseData | DenseData;
    const adjA = args.adjoint_a as boolean;
    const adjB = args.adjoint_b as boolean;
    const sparseFirst = x.kind === 'sparse';
    const sp = (sparseFirst ? x : y) as SparseData;
    const dn = (sparseFirst ? y : x) as DenseData;
    if (!fitsI32(sp.shape) || !fitsI32(dn.shape)) return delegate(js, args, REASONS.wideDims);
    // The product computed is S·D: S sparse (entries as (row, col) after its flags), D dense [k×n] row-major.
    // Sparse first: S = A' and D = B'. Dense first: S = B'ᵀ and D = A'ᵀ, and the result is transposed back.
    const swapSparse = sparseFirst ? adjA : !adjB;
    const transposeDense = sparseFirst ? adjB : !adjA;
    const m = sp.shape[swapSparse ? 1 : 0];
    const [dRows, dCols] = dn.shape;
    const n = transposeDense ? dRows : dCols;
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
