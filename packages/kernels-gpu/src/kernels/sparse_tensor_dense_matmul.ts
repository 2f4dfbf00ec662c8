import { delegate, matmulPlan } from '@sparse/kernel-abi';
import type { DenseData, KernelTable, OpKernel } from '@sparse/kernel-abi';
import type { GpuContext, Staged } from '../gpu-context.js';
import { allFinite, EXACT_INT, gpuRefusal, REASONS } from '../delegation.js';
import { asFloat32, fromGpu, int32MatmulRefusal } from '../int32-route.js';
import { subnormalMatmulRefusal } from '../subnormal-bound.js';

/** The key of the transpose kernels (of the dense operand, of a dense × sparse product). */
const TRANSPOSED = 'sparse_tensor_dense_matmul:transpose';

/** The key of the product kernel. */
const PRODUCT = 'sparse_tensor_dense_matmul';

/**
 * One thread per output element (i, j) = (r0 + thread.y, c0 + thread.x) of a tile of the m×n product S·D: it sums
 * vals[p]·D[cols[p]][j] over row i's entries p in rowStart[i] .. rowStart[i+1] (CSR built on the host), reading
 * D[k][j] at d[k·sk + j·sj], so that d is D row-major (sk = n, sj = 1) or D's transpose row-major (sk = 1, sj = the
 * inner dimension). The loop is bounded by the longest row.
 */
const SPMM = `function (rowStart, cols, vals, d, sk, sj, r0, c0) {
  const i = this.thread.y + r0;
  const j = this.thread.x + c0;
  const s = rowStart[i];
  const e = rowStart[i + 1];
  let sum = 0.0;
  for (let p = s; p < e; p++) {
    sum += vals[p] * d[cols[p] * sk + j * sj];
  }
  return sum;
}`;

/**
 * A transpose, one thread per output element: output [aCols × aRows] (thread.y the row, thread.x the column) of the
 * row-major a, read flat, so a may be a stage's texture.
 */
const TRANSPOSE = `function (a, aCols) {
  return a[this.thread.x * aCols + this.thread.y];
}`;

/**
 * sparse_tensor_dense_matmul (float32, and int32 within int32MatmulRefusal's bound) on the GPU. The host orders the entries by row with a counting sort (linear)
 * into CSR, applying adjoint_a by swapping each entry's row and column; the GPU transposes the dense operand for
 * adjoint_b, and computes dense × sparse as (B'ᵀ·A'ᵀ)ᵀ, as the wasm kernel does, transposing the product. The
 * stages are pipelined (GpuContext.stage2d): a transposed operand or product stays on the GPU as a texture, and
 * only the result is read back. A product past the texture limit in rows or columns is computed in tiles within it,
 * each read back into its place. A dense operand whose transpose would pass the limit (a 2-D texture of its columns
 * × its rows) is not transposed: the product reads it as it is, with its strides swapped, as an argument (a flat,
 * near-square texture of four values a texel, which fits for any operand the GPU takes, up to 2^24 values, at a
 * limit of 2048 or more).
 */
export function sparseTensorDenseMatmul(
  ctx: GpuContext,
  js: KernelTable['sparse_tensor_dense_matmul'],
): OpKernel<'sparse_tensor_dense_matmul'> {
  return (args) => {
    const { sparseFirst, sp, dn, swapSparse, transposeDense, m, n } = matmulPlan(args);
    const [dRows, dCols] = dn.shape;
    const nnz = sp.values.length;
    const [ri, ci] = swapSparse ? [1, 0] : [0, 1];
    const [values, denseValues] = [sp.values as Float32Array | Int32Array, dn.data as Float32Array | Int32Array];
    const refusal = gpuRefusal(sp.dtype, [values, denseValues], {
      float32: () => subnormalMatmulRefusal(values, denseValues),
      int32: () => int32MatmulRefusal(sp.indices, values, ri as 0 | 1, m, denseValues),
    });
    if (refusal) return delegate(js, args, refusal);
    if (m * n > EXACT_INT) return delegate(js, args, REASONS.tooBig);
    const dense = asFloat32(denseValues);
    // CSR by a counting sort of the rows: stable, so each row keeps its entries' order.
    const rowStart = new Float32Array(m + 1);
    for (let p = 0; p < nnz; p++) rowStart[sp.indices[2 * p + ri] + 1]++;
    let longest = 0;
    for (let r = 0; r < m; r++) {
      longest = Math.max(longest, rowStart[r + 1]);
      rowStart[r + 1] += rowStart[r];
    }
    const fill = rowStart.slice(0, m);
    const cols = new Float32Array(Math.max(1, nnz));
    const vals = new Float32Array(Math.max(1, nnz));
    for (let p = 0; p < nnz; p++) {
      const q = fill[sp.indices[2 * p + ri]]++;
      cols[q] = sp.indices[2 * p + ci];
      vals[q] = values[p];
    }
    const size = m * n;
    let data: Float32Array;
    if (size === 0) data = new Float32Array(0);
    else if (nnz === 0) data = new Float32Array(size);
    else {
      // The loop bound is a compile-time constant in GLSL: one kernel per power of two of the longest row.
      const loop = { loopMaxIterations: 2 ** Math.ceil(Math.log2(Math.max(1, longest))) };
      data = new Float32Array(size);
      let d: Staged | undefined;
      try {
        // D = the dense operand, or its transpose: on the GPU if that fits the limit (D's rows are then read
        // contiguously), else read with swapped strides.
        let strides = [n, 1];
        if (!transposeDense) d = dense;
        else if (ctx.fits2d(dCols, dRows)) d = ctx.stage2d(TRANSPOSED, TRANSPOSE, dCols, dRows, [dense, dCols]);
        else [d, strides] = [dense, [1, dCols]];
        for (const [r0, rows] of tiles(m, ctx.maxTextureSize))
          for (const [c0, width] of tiles(n, ctx.maxTextureSize)) {
            const spmmArgs = [rowStart, cols, vals, d, ...strides, r0, c0];
            if (sparseFirst) {
              const tile = ctx.run2d(PRODUCT, SPMM, rows, width, spmmArgs, loop);
              for (let r = 0; r < rows; r++) data.set(tile.subarray(r * width, (r + 1) * width), (r0 + r) * n + c0);
              continue;
            }
            // dense × sparse: the tile's transpose, at columns r0.. of rows c0.. of the n×m result
            const product = ctx.stage2d(PRODUCT, SPMM, rows, width, spmmArgs, loop);
            try {
              const tile = ctx.run2d(TRANSPOSED, TRANSPOSE, width, rows, [product, width]);
              for (let c = 0; c < width; c++) data.set(tile.subarray(c * rows, (c + 1) * rows), (c0 + c) * m + r0);
            } finally {
              ctx.release(product);
            }
          }
      } finally {
        ctx.release(d);
      }
    }
    if (!allFinite(data)) return delegate(js, args, REASONS.nonFiniteResult);
    const shape = sparseFirst ? [m, n] : [n, m];
    return { output: { kind: 'dense', data: fromGpu(data, sp.dtype), shape, dtype: sp.dtype } satisfies DenseData };
  };
}

/** Spans of at most `limit` that cover 0 .. total, as [start, length]. */
function tiles(total: number, limit: number): [number, number][] {
  const spans: [number, number][] = [];
  for (let start = 0; start < total; start += limit) spans.push([start, Math.min(limit, total - start)]);
  return spans;
}
