/// <reference types="@webgpu/types" />
import { delegation, type SparseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { recordRadixSort, sortBytes } from '../structural/radix.js';
import { moveValue, valuesOf, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { u32Indices } from '../structural/u32-indices.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Entry j of the pieces laid end to end (pieces[j]: its piece, perm[j]: its input position) takes its input index
 * row, the axis index less its piece's start, and its value's `width` words. Piece k starts at k·(q + 1) for k < r,
 * else at r·(q + 1) + (k - r)·q (all below 2^32). p = [n, rank, axis, q, r].
 */
const emit = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> pieces: array<u32>;
@group(0) @binding(2) var<storage, read> perm: array<u32>;
@group(0) @binding(3) var<storage, read> idxIn: array<u32>;
@group(0) @binding(4) var<storage, read> valIn: array<u32>;
@group(0) @binding(5) var<storage, read_write> idx: array<u32>;
@group(0) @binding(6) var<storage, read_write> vals: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[1];
  let q = p[3];
  let r = p[4];
  let k = pieces[i];
  let src = perm[i];
  var first = r * (q + 1u) + (k - r) * q;
  if (k < r) { first = k * (q + 1u); }
  for (var d = 0u; d < rank; d++) { idx[i * rank + d] = idxIn[src * rank + d]; }
  idx[i * rank + p[2]] -= first;
  ${moveValue(width, 'vals', 'i', 'valIn', 'src')}
}
`;

/** Whole-number division of non-negative safe integers, exact (as the JS kernel's). */
const idiv = (a: number, b: number): number => (a - (a % b)) / b;

/**
 * sparse_split (every dtype but string) on the GPU, every piece in one submission: the host finds each entry's piece
 * (as the JS kernel does: the first size % num_split pieces one longer) and counts each piece's entries; the GPU orders
 * the entries by piece with a stable radix sort (structural/radix.ts; no pass where they already are in order), so each
 * piece keeps its entries' input order, then one pass writes each entry's index (the axis index made relative to its
 * piece's start) and its value's words (two a float64 or int64), bit for bit, the pieces end to end; the host cuts them
 * apart. Indices move as u32: one past 2^32 - 1, or an axis of 2^32 or more, runs on the JS kernels, as does an axis or
 * num_split the runtime refuses. No entries need no GPU. One read.
 */
export const sparseSplit: KernelFactory<'sparse_split'> = (ctx, js) => async (args) => {
  const { sp_input: sp, num_split } = args;
  const { dtype, shape } = sp;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const rank = shape.length;
  const ax = args.axis < 0 ? args.axis + rank : args.axis;
  if (!Number.isInteger(ax) || ax < 0 || ax >= rank) return delegation(js(args), REASONS.unchecked);
  const size = shape[ax];
  if (!Number.isInteger(num_split) || num_split < 1 || num_split > size || num_split > 2 ** 20)
    return delegation(js(args), REASONS.unchecked);
  if (size >= 2 ** 32) return delegation(js(args), REASONS.wideIndex);
  const n = sp.values.length;
  const idx = u32Indices(sp.indices, n, rank);
  if (typeof idx === 'string') return delegation(js(args), idx);

  const r = size % num_split;
  const q = idiv(size, num_split);
  const big = r * (q + 1);
  const pieces = new Uint32Array(n);
  const counts = new Uint32Array(num_split);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const x = idx[i * rank + ax];
    if (x >= size) return delegation(js(args), REASONS.unchecked);
    const k = x < big ? idiv(x, q + 1) : r + idiv(x - big, q);
    pieces[i] = k;
    counts[k]++;
    if (i > 0 && k < pieces[i - 1]) sorted = false;
  }
  const cut = (ib: ArrayBuffer | null, vb: ArrayBuffer | null) => {
    const words = ib ? new Uint32Array(ib) : new Uint32Array(0);
    const output: SparseData[] = [];
    for (let k = 0, at = 0; k < num_split; at += counts[k], k++) {
      const outShape = [...shape];
      outShape[ax] = k < r ? q + 1 : q;
      const c = counts[k];
      output.push({
        kind: 'sparse',
        indices: Float64Array.from(words.subarray(at * rank, (at + c) * rank)),
        values: vb
          ? valuesOf(vb.slice(at * width * 4, (at + c) * width * 4), dtype as MovedDType)
          : sp.values.slice(0, 0),
        shape: outShape,
        dtype,
      });
    }
    return { output };
  };
  if (n === 0) return cut(null, null);
  if (!ctx.fits(n * rank * 4) || !ctx.fits(n * width * 4) || !ctx.fits(sortBytes(n)))
    throw new BindingLimitError(ctx.maxBindingBytes);

  const owned: GPUBuffer[] = [];
  try {
    const keyBuf = ctx.upload(pieces);
    const idxIn = ctx.upload(idx);
    const valIn = ctx.upload(valueWords(sp.values));
    owned.push(keyBuf, idxIn, valIn);
    const s = recordRadixSort(ctx, keyBuf, n, num_split - 1, sorted, owned);
    const p = ctx.upload(Uint32Array.of(n, rank, ax, q, r));
    const outIdx = ctx.buffer(n * rank * 4);
    const outVal = ctx.buffer(n * width * 4);
    owned.push(p, outIdx, outVal);
    ctx.dispatch({ code: emit(width), buffers: [p, s.keys, s.perm, idxIn, valIn, outIdx, outVal], threads: n });
    const [ib, vb] = await ctx.read([outIdx, n * rank * 4], [outVal, n * width * 4]);
    return cut(ib, vb);
  } finally {
    ctx.release(...owned);
  }
};
