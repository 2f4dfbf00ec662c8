/// <reference types="@webgpu/types" />
import { delegation, type SparseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { csrDims, csrIsValid, globalRows } from '../csr/global-rows.js';
import { lastAtMost } from '../csr/row-search.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Each entry's index: its global row g by a search, then (g / rows, g % rows, col) for rank 3, (g, col) for rank 2
 * (batch 1: g is the row). p = [nnz, rows, rank, batch · rows].
 */
const INDICES = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> rowPtr: array<u32>;
@group(0) @binding(2) var<storage, read> col: array<u32>;
@group(0) @binding(3) var<storage, read_write> idx: array<u32>;
${lastAtMost('rowPtr')}
${ENTRY}
  if (i >= p[0]) { return; }
  let g = lastAtMost(i, p[3]);
  let rank = p[2];
  let at = i * rank;
  if (rank == 3u) {
    idx[at] = g / p[1];
    idx[at + 1u] = g % p[1];
  } else {
    idx[at] = g;
  }
  idx[at + rank - 1u] = col[i];
}
`;

/**
 * csr_sparse_matrix_to_sparse_tensor (values of any dtype) on the GPU: one thread an
 * entry writes its index (batch, row, column) in stored order, as the JS kernel's walk does; the values are the
 * input's, copied on the host as the JS kernel copies them. One submission; none without entries.
 */
export const csrSparseMatrixToSparseTensor: KernelFactory<'csr_sparse_matrix_to_sparse_tensor'> =
  (ctx, js) => async (args) => {
    const m = args.sparse_matrix;
    const { dtype } = m;
    if (!csrIsValid(m)) return delegation(js(args), REASONS.unchecked);
    const [batch, rows] = csrDims(m);
    const rank = m.shape.length;
    const nnz = m.colIndices.length;
    if (![nnz * rank * 4, (batch * rows + 1) * 4].every((b) => ctx.fits(b)))
      throw new BindingLimitError(ctx.maxBindingBytes);
    const result = (indices: Float64Array) => ({
      output: {
        kind: 'sparse',
        indices,
        values: m.values.slice() as typeof m.values,
        shape: m.shape.slice(),
        dtype,
      } satisfies SparseData,
    });
    // No entries: nothing to index, without the GPU.
    if (nnz === 0) return result(new Float64Array(0));

    const g = globalRows(m, new Uint32Array(0), false);
    const owned: GPUBuffer[] = [];
    try {
      const idx = ctx.buffer(nnz * rank * 4);
      owned.push(idx);
      const inputs = [Uint32Array.of(nnz, rows, rank, batch * rows), g.rowPtr, g.col].map((x) => ctx.upload(x));
      owned.push(...inputs);
      ctx.dispatch({ code: INDICES, buffers: [...inputs, idx], threads: nnz });
      const [data] = await ctx.read([idx, nnz * rank * 4]);
      return result(Float64Array.from(new Uint32Array(data)));
    } finally {
      ctx.release(...owned);
    }
  };
