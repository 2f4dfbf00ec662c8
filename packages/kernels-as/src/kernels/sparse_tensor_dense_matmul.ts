import { delegate, matmulPlan } from '@sparse/kernel-abi';
import type { DenseData, KernelTable, OpKernel } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS } from '../delegation.js';
import { isNumeric } from '../kernel.js';

/**
 * sparse_tensor_dense_matmul in wasm (SIMD). Sparse × dense: out[m×n] = A'·B', A' put in CSR form in wasm (a
 * linear counting sort, free for entries already in row order), then each row summed over contiguous rows of B'
 * (transposed in wasm once when adjoint_b), one slab of B's rows at a time when B outgrows the cache. Dense ×
 * sparse: outᵀ = B'ᵀ·A'ᵀ by the same kernel, then transposed back.
 */
export function sparseTensorDenseMatmul(
  ctx: WasmContext,
  js: KernelTable['sparse_tensor_dense_matmul'],
): OpKernel<'sparse_tensor_dense_matmul'> {
  return (args) => {
    const { sparseFirst, sp, dn, swapSparse, transposeDense, m, n } = matmulPlan(args);
    if (!fitsI32(sp.shape) || !fitsI32(dn.shape)) return delegate(js, args, REASONS.wideDims);
    const [dRows, dCols] = dn.shape;
    const dtype = sp.dtype;
    if (!isNumeric(dtype)) return delegate(js, args, REASONS.notNumeric);
    const size = bytesPerElement(dtype);
    const nnz = sp.values.length;
    const { heap } = ctx;
    ctx.begin();
    const indices = ctx.indicesOf(sp);
    // Slab by slab of B's rows when B outgrows the cache (rows of ascending columns, as in canonical order, then
    // touch one slab at a time); else each row in one run, the runs then being plain CSR row pointers. The runs
    // come first, while the indices the check just wrote are still in cache.
    const k = transposeDense ? dCols : dRows;
    const tiles = slabs(k * n * size, nnz, m);
    const tileBytes = Math.ceil(k / tiles) * n * size;
    const stride = tiles > 1 ? m * 4 : 4;
    const ptrs = heap.alloc(tiles > 1 ? (tiles + 1) * m * 4 : (m + 1) * 4);
    const colOff = heap.alloc(nnz * 4);
    const ordered =
      ctx.call('spmm_runs', [indices, swapSparse, nnz, m, n * size, tileBytes, tiles, ptrs, stride, colOff]) !== 0;
    let vals = ctx.valuesOf(sp);
    if (!ordered) {
      // Entries out of row order: a counting sort into CSR, then the rows cut into runs.
      const rowPtr = tiles > 1 ? heap.alloc((m + 1) * 4) : ptrs;
      const sorted = heap.alloc(nnz * size);
      const fill = heap.alloc(m * 4);
      // A usize comes back as a signed i32: read it unsigned.
      vals =
        ctx.call(`spmm_csr_${dtype}`, [indices, swapSparse, nnz, m, vals, n * size, rowPtr, colOff, sorted, fill]) >>>
        0;
      if (tiles > 1) ctx.call('spmm_tiles', [rowPtr, colOff, m, tileBytes, tiles, ptrs]);
    }
    let d = ctx.dataOf(dn);
    if (transposeDense) {
      const t = heap.alloc(dn.data.length * size);
      ctx.call(`transpose_${size}`, [d, dRows, dCols, t]);
      d = t;
    }
    const out = heap.alloc(m * n * size);
    // Rows cut between the threads by their entries (and the row's own cost: its output), each writing its rows.
    const starts = heap.i32(ptrs, m);
    const cuts = ctx.cuts(m, nnz * n, (i) => (i === m ? nnz : starts[i]) + i);
    ctx.callParts(
      `spmm_${dtype}`,
      cuts.slice(1).map((r1, k) => {
        const r0 = cuts[k];
        return { args: [ptrs + r0 * 4, stride, tiles, colOff, vals, r1 - r0, d, n, out + r0 * n * size] };
      }),
    );
    let result = out;
    if (!sparseFirst) {
      result = heap.alloc(m * n * size);
      ctx.call(`transpose_${size}`, [out, m, n, result]);
    }
    const shape = sparseFirst ? [m, n] : [n, m];
    return { output: { kind: 'dense', data: heap.readValues(dtype, result, m * n), shape, dtype } satisfies DenseData };
  };
}

/** B's rows per slab: as many as fill SLAB_BYTES (about half this machine's 2 MB L2). */
const SLAB_BYTES = 2 ** 20;

/**
 * How many slabs of B's rows the product goes in: one per SLAB_BYTES of B, but each slab re-reads and re-writes the
 * output, so no more than a quarter of the entries per row (the output traffic stays under a quarter of B's).
 */
export function slabs(bBytes: number, nnz: number, m: number): number {
  return Math.max(1, Math.min(Math.ceil(bBytes / SLAB_BYTES), Math.floor(nnz / (4 * Math.max(1, m)))));
}
