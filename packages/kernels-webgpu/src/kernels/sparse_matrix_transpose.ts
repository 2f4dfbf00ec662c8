import { delegation, type Values } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { csrDims, csrIsValid, globalRows } from '../csr/global-rows.js';
import { pointersFromCounts } from '../csr/pointers.js';
import { recordCsrTranspose } from '../csr/transpose.js';
import { sortBytes } from '../structural/radix.js';
import { valuesOf, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * sparse_matrix_transpose (every dtype but string, values moved bit for bit as their words, two a float64) on the GPU:
 * each matrix's entries stably sorted on (matrix, column) (csr/transpose.ts), their rows becoming the columns, a count
 * per column read back into the row pointers. `conjugate` changes nothing for real values. One submission; none without
 * entries.
 */
export const sparseMatrixTranspose: KernelFactory<'sparse_matrix_transpose'> = (ctx, js) => async (args) => {
  const m = args.input;
  const { dtype } = m;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  if (!csrIsValid(m)) return delegation(js(args), REASONS.unchecked);
  const [batch, rows, cols] = csrDims(m);
  const nnz = m.colIndices.length;
  if (![sortBytes(nnz), nnz * width * 4, (batch * rows + 1) * 4, batch * cols * 4].every((b) => ctx.fits(b)))
    throw new BindingLimitError(ctx.maxBindingBytes);
  const shape = m.shape.length === 3 ? [batch, cols, rows] : [cols, rows];
  const rowPointers = new Int32Array(batch * (cols + 1));
  const output = (colIndices: Int32Array, values: Values) => ({
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
  if (nnz === 0) return output(new Int32Array(0), m.values.slice(0, 0));

  const owned: GPUBuffer[] = [];
  let colBytes: ArrayBuffer, valBytes: ArrayBuffer, countBytes: ArrayBuffer;
  try {
    const rowsOfM = globalRows(m, valueWords(m.values), false, width);
    const out = recordCsrTranspose(ctx, rowsOfM, batch, owned);
    [colBytes, valBytes, countBytes] = await ctx.read(
      [out.col, nnz * 4],
      [out.val, nnz * width * 4],
      [out.counts, batch * cols * 4],
    );
  } finally {
    ctx.release(...owned);
  }
  rowPointers.set(pointersFromCounts(new Uint32Array(countBytes), batch, cols).rowPointers);
  return output(new Int32Array(colBytes), valuesOf(valBytes, dtype as MovedDType));
};
