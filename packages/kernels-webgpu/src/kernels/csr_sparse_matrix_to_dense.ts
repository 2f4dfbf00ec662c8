/// <reference types="@webgpu/types" />
import { allocValues, delegation, type DenseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { csrDims, csrIsValid, globalRows } from '../csr/global-rows.js';
import { lastAtMost } from '../csr/row-search.js';
import { columnsIncrease } from '../csr/sorted-rows.js';
import { moveValue, valuesOf, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Each entry's value (`width` words) to its element: its global row g by a search, then g · cols + col.
 * p = [nnz, cols, batch · rows].
 */
const scatter = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> rowPtr: array<u32>;
@group(0) @binding(2) var<storage, read> col: array<u32>;
@group(0) @binding(3) var<storage, read> val: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<u32>;
${lastAtMost('rowPtr')}
${ENTRY}
  if (i >= p[0]) { return; }
  ${moveValue(width, 'out', 'lastAtMost(i, p[2]) * p[1] + col[i]', 'val', 'i')}
}
`;

/**
 * csr_sparse_matrix_to_dense (every dtype but string, bit for bit: two words a float64) on the GPU: a zeroed
 * output, then one thread an entry writes its value's words at its element. A row whose columns do not strictly
 * increase (refused by the runtime; two entries could share an element) runs on the JS kernels. One submission;
 * none without entries.
 */
export const csrSparseMatrixToDense: KernelFactory<'csr_sparse_matrix_to_dense'> = (ctx, js) => async (args) => {
  const m = args.sparse_input;
  const { dtype } = m;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  if (!csrIsValid(m) || !columnsIncrease(m)) return delegation(js(args), REASONS.unchecked);
  const [batch, rows, cols] = csrDims(m);
  const size = batch * rows * cols;
  const nnz = m.colIndices.length;
  if (![size * width * 4, (batch * rows + 1) * 4, nnz * width * 4].every((b) => ctx.fits(b)))
    throw new BindingLimitError(ctx.maxBindingBytes);
  const result = (data: DenseData['data']) => ({
    output: { kind: 'dense', data, shape: m.shape.slice(), dtype } satisfies DenseData,
  });
  // No entries: zeros, without the GPU.
  if (nnz === 0) return result(allocValues(dtype, size));

  const g = globalRows(m, valueWords(m.values), false, width);
  const owned: GPUBuffer[] = [];
  try {
    const out = ctx.buffer(size * width * 4);
    owned.push(out);
    const inputs = [Uint32Array.of(nnz, cols, batch * rows), g.rowPtr, g.col, g.words].map((x) => ctx.upload(x));
    owned.push(...inputs);
    ctx.dispatch({ code: scatter(width), buffers: [...inputs, out], threads: nnz });
    const [data] = await ctx.read([out, size * width * 4]);
    return result(valuesOf(data, dtype as MovedDType));
  } finally {
    ctx.release(...owned);
  }
};
