/// <reference types="@webgpu/types" />
import { delegation, type CsrData, type Values } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { csrDims } from '../csr/global-rows.js';
import { indexWords } from '../csr/index-words.js';
import { pointersFromCounts } from '../csr/pointers.js';
import { moveValue, valuesOf, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Each listed position's value (`width` words) and column, and a count for its global row (batch · rows + row).
 * p = [n, rows, cols, rank].
 */
const gather = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read> dense: array<u32>;
@group(0) @binding(3) var<storage, read_write> col: array<u32>;
@group(0) @binding(4) var<storage, read_write> val: array<u32>;
@group(0) @binding(5) var<storage, read_write> counts: array<atomic<u32>>;
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[3];
  let at = i * rank;
  var g = idx[at + rank - 2u];
  if (rank == 3u) { g += idx[at] * p[1]; }
  let c = idx[at + rank - 1u];
  col[i] = c;
  ${moveValue(width, 'val', 'i', 'dense', 'g * p[2] + c')}
  atomicAdd(&counts[g], 1u);
}
`;

/**
 * dense_to_csr_sparse_matrix (every dtype but string, bit for bit: two words a float64) on the GPU: one
 * thread a listed position gathers its value and column and counts its row; the row and batch pointers are the
 * counts' running totals. The host reads the int64 positions into words, checking each against its dim (the
 * runtime's check: a direct call past it runs on the JS kernels). One submission; none without positions.
 */
export const denseToCsrSparseMatrix: KernelFactory<'dense_to_csr_sparse_matrix'> = (ctx, js) => async (args) => {
  const { dense_input: dense, indices } = args;
  const { dtype } = dense;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const rank = dense.shape.length;
  if ((rank !== 2 && rank !== 3) || indices.shape.length !== 2 || indices.shape[1] !== rank)
    return delegation(js(args), REASONS.unchecked);
  const [batch, rows, cols] = csrDims(dense);
  const n = indices.shape[0];
  if (![batch * rows * cols * width * 4, n * rank * 4, n * width * 4, batch * rows * 4].every((b) => ctx.fits(b)))
    throw new BindingLimitError(ctx.maxBindingBytes);
  const idx = indexWords(indices.data as ArrayLike<number | bigint>, n, dense.shape);
  if (!idx || dense.data.length !== batch * rows * cols) return delegation(js(args), REASONS.unchecked);
  const result = (counts: Uint32Array, colIndices: Int32Array, values: Values) => ({
    output: {
      kind: 'csr',
      ...pointersFromCounts(counts, batch, rows),
      colIndices,
      values,
      shape: dense.shape.slice(),
      dtype,
    } satisfies CsrData,
  });
  // No positions: every pointer 0, without the GPU.
  if (n === 0) return result(new Uint32Array(batch * rows), new Int32Array(0), dense.data.slice(0, 0));

  const owned: GPUBuffer[] = [];
  try {
    const col = ctx.buffer(n * 4);
    const val = ctx.buffer(n * width * 4);
    const counts = ctx.buffer(batch * rows * 4);
    const inputs = [Uint32Array.of(n, rows, cols, rank), idx, valueWords(dense.data)].map((x) => ctx.upload(x));
    owned.push(col, val, counts, ...inputs);
    ctx.dispatch({ code: gather(width), buffers: [...inputs, col, val, counts], threads: n });
    const [c, v, k] = await ctx.read([col, n * 4], [val, n * width * 4], [counts, batch * rows * 4]);
    return result(new Uint32Array(k), new Int32Array(c), valuesOf(v, dtype as MovedDType));
  } finally {
    ctx.release(...owned);
  }
};
