/// <reference types="@webgpu/types" />
import { delegation, type CsrData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { csrDims } from '../csr/global-rows.js';
import { indexWords } from '../csr/index-words.js';
import { pointersFromCounts } from '../csr/pointers.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Each entry's column, and a count for its global row (batch · rows + row). p = [nnz, rows, rank].
 */
const ROWS = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> col: array<u32>;
@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[2];
  let at = i * rank;
  var g = idx[at + rank - 2u];
  if (rank == 3u) { g += idx[at] * p[1]; }
  col[i] = idx[at + rank - 1u];
  atomicAdd(&counts[g], 1u);
}
`;

/**
 * sparse_tensor_to_csr_sparse_matrix (values of any dtype) on the GPU: one thread an
 * entry takes its column and counts its row; the row and batch pointers are the counts' running totals, the values
 * the input's, copied on the host as the JS kernel does. The host reads the indices into words, checking each
 * against its dim (the runtime's check: a direct call past it runs on the JS kernels). One submission; none
 * without entries.
 */
export const sparseTensorToCsrSparseMatrix: KernelFactory<'sparse_tensor_to_csr_sparse_matrix'> =
  (ctx, js) => async (args) => {
    const sp = args.sp_input;
    const { dtype } = sp;
    const rank = sp.shape.length;
    const nnz = sp.values.length;
    if (rank !== 2 && rank !== 3) return delegation(js(args), REASONS.unchecked);
    const [batch, rows] = csrDims(sp);
    if (![nnz * rank * 4, batch * rows * 4].every((b) => ctx.fits(b))) throw new BindingLimitError(ctx.maxBindingBytes);
    const idx = indexWords(sp.indices, nnz, sp.shape);
    if (!idx) return delegation(js(args), REASONS.unchecked);
    const result = (counts: Uint32Array, colIndices: Int32Array) => ({
      output: {
        kind: 'csr',
        ...pointersFromCounts(counts, batch, rows),
        colIndices,
        values: sp.values.slice() as typeof sp.values,
        shape: sp.shape.slice(),
        dtype,
      } satisfies CsrData,
    });
    // No entries: every pointer 0, without the GPU.
    if (nnz === 0) return result(new Uint32Array(batch * rows), new Int32Array(0));

    const owned: GPUBuffer[] = [];
    try {
      const col = ctx.buffer(nnz * 4);
      const counts = ctx.buffer(batch * rows * 4);
      const inputs = [ctx.upload(Uint32Array.of(nnz, rows, rank)), ctx.upload(idx)];
      owned.push(col, counts, ...inputs);
      ctx.dispatch({ code: ROWS, buffers: [...inputs, col, counts], threads: nnz });
      const [c, k] = await ctx.read([col, nnz * 4], [counts, batch * rows * 4]);
      return result(new Uint32Array(k), new Int32Array(c));
    } finally {
      ctx.release(...owned);
    }
  };
