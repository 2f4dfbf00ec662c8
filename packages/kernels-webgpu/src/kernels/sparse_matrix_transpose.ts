import { delegation } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { csrDims, csrIsValid, globalRows } from '../csr/global-rows.js';
import { pointersFromCounts } from '../csr/pointers.js';
import { recordCsrTranspose } from '../csr/transpose.js';
import { sortBytes } from '../structural/radix.js';
import { wordsOf } from '../structural/sort-entries.js';

/**
 * sparse_matrix_transpose (float32 and int32, bit for bit; float64 runs on the JS kernels) on the GPU: each
 * matrix's entries stably sorted on (matrix, column) (csr/transpose.ts), their rows becoming the columns, a count
 * per column read back into the row pointers. `conjugate` changes nothing for real values. One submission; none
 * without entries.
 */
export const sparseMatrixTranspose: KernelFactory<'sparse_matrix_transpose'> = (ctx, js) => async (args) => {
  const m = args.input;
  const { dtype } = m;
  if (dtype !== 'float32' && dtype !== 'int32') return delegation(js(args), REASONS.notComputed(dtype));
  if (!csrIsValid(m)) return delegation(js(args), REASONS.unchecked);
  const [batch, rows, cols] = csrDims(m);
  const nnz = m.colIndices.length;
  if (![sortBytes(nnz), (batch * rows + 1) * 4, batch * cols * 4].every((b) => ctx.fits(b)))
    return delegation(js(args), REASONS.bindingLimit(ctx.maxBindingBytes));
  const Store = dtype === 'float32' ? Float32Array : Int32Array;
  const shape = m.shape.length === 3 ? [batch, cols, rows] : [cols, rows];
  const rowPointers = new Int32Array(batch * (cols + 1));
  const output = (colIndices: Int32Array, values: Float32Array | Int32Array) => ({
    output: {
      kind: 'csr' as const,
      batchPointers: m.batchPointers.slice(),
      rowPointers,
      colIndices,
      values,
      shape,
      dtype,
    },
  });
  // No entries: every row pointer 0, without the GPU.
  if (nnz === 0) return output(new Int32Array(0), new Store(0));

  const owned: GPUBuffer[] = [];
  let colBytes: ArrayBuffer, valBytes: ArrayBuffer, countBytes: ArrayBuffer;
  try {
    const rowsOfM = globalRows(m, wordsOf(m.values as Float32Array | Int32Array), false);
    const out = recordCsrTranspose(ctx, rowsOfM, batch, owned);
    [colBytes, valBytes, countBytes] = await ctx.read(
      [out.col, nnz * 4],
      [out.val, nnz * 4],
      [out.counts, batch * cols * 4],
    );
  } finally {
    ctx.release(...owned);
  }
  rowPointers.set(pointersFromCounts(new Uint32Array(countBytes), batch, cols).rowPointers);
  return output(new Int32Array(colBytes), new Store(valBytes));
};
