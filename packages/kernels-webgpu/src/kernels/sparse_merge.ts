/// <reference types="@webgpu/types" />
import { delegation, rowMajorStrides, sizeOf, type SparseData, type Values } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { FLOAT64_INDEX, indexWords, indicesOf } from '../structural/float64-index.js';
import { idWords, READ_ID } from '../structural/id-words.js';
import { recordRadixSort, sortBytes } from '../structural/radix.js';
import { u64Words } from '../structural/u64.js';
import { moveValue, valuesOf, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * What both passes bind first: p = [n, in rank, kept, m, per, out dims (word pairs)…, out strides…] (a stride of
 * 2^32, whose index can only be 0, written 0), the first SparseTensor's indices (float64 words) and the m id
 * arrays one after another (`per` words an id).
 */
const HEAD = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read> ids: array<u32>;`;

/**
 * Entry i's 32-bit row-major key in the output shape (its leading index, then its ids). A leading index that is
 * not a whole number below its dim, or an id outside [0, its vocab size), sets bad[0].
 */
const KEYS = `${HEAD}
@group(0) @binding(3) var<storage, read_write> keys: array<u32>;
@group(0) @binding(4) var<storage, read_write> bad: array<atomic<u32>>;
${FLOAT64_INDEX}
${READ_ID}
${ENTRY}
  let n = p[0];
  if (i >= n) { return; }
  let inRank = p[1];
  let kept = p[2];
  let m = p[3];
  let outRank = kept + m;
  let strides = 5u + 2u * outRank;
  var ok = true;
  var key = 0u;
  for (var d = 0u; d < kept; d++) {
    let w = 2u * (i * inRank + d);
    let x = decodeIndex(idx[w], idx[w + 1u]);
    ok = ok && x.ok && lt64(x.v, vec2u(p[5u + 2u * d], p[6u + 2u * d]));
    key += x.v.x * p[strides + d];
  }
  for (var j = 0u; j < m; j++) {
    let d = kept + j;
    let id = readId(j * n + i, p[4], vec2u(p[5u + 2u * d], p[6u + 2u * d]));
    ok = ok && id.ok;
    key += id.v.x * p[strides + d];
  }
  keys[i] = key;
  if (!ok) { atomicOr(&bad[0], 1u); }
}
`;

/**
 * Output entry k is input entry perm[k]: its leading index's words as they are, its ids encoded, its value's `width`
 * words.
 */
const emit = (width: number) => `${HEAD}
@group(0) @binding(3) var<storage, read> perm: array<u32>;
@group(0) @binding(4) var<storage, read> vals: array<u32>;
@group(0) @binding(5) var<storage, read_write> outIdx: array<u32>;
@group(0) @binding(6) var<storage, read_write> outVal: array<u32>;
${FLOAT64_INDEX}
${READ_ID}
${ENTRY}
  let n = p[0];
  if (i >= n) { return; }
  let inRank = p[1];
  let kept = p[2];
  let m = p[3];
  let outRank = kept + m;
  let src = perm[i];
  for (var d = 0u; d < kept; d++) {
    outIdx[2u * (i * outRank + d)] = idx[2u * (src * inRank + d)];
    outIdx[2u * (i * outRank + d) + 1u] = idx[2u * (src * inRank + d) + 1u];
  }
  for (var j = 0u; j < m; j++) {
    let d = kept + j;
    let e = encodeIndex(readId(j * n + src, p[4], vec2u(0u)).v);
    outIdx[2u * (i * outRank + d)] = e.x;
    outIdx[2u * (i * outRank + d) + 1u] = e.y;
  }
  ${moveValue(width, 'outVal', 'i', 'vals', 'src')}
}
`;

/**
 * sparse_merge (values of every dtype but string, moved as their words; int32 or int64 ids, read as their words:
 * exact) on the GPU: one pass
 * checks each entry's leading index and ids as the runtime does (else the JS kernel runs, unchecked) and makes its
 * 32-bit row-major key in the output shape; unless `already_sorted`, a stable radix sort of the keys with their
 * permutation (structural/radix.ts) puts the entries in canonical order with ties in input order, as js's
 * canonicalOrder; a last pass writes each output entry's index (float64 words) and value (bit for bit). Output
 * shapes of more than 2^32 elements, string values, and ids or counts the runtime refuses run on the JS
 * kernels. One submission, one read; none without entries.
 */
export const sparseMerge: KernelFactory<'sparse_merge'> = (ctx, js) => async (args) => {
  const { sp_ids, sp_values, vocab_size, already_sorted } = args;
  const { values, dtype } = sp_values;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const list = Array.isArray(sp_ids) ? sp_ids : [sp_ids];
  const vocab = Array.isArray(vocab_size) ? vocab_size : [vocab_size];
  const first = list[0];
  const m = list.length;
  const n = values.length;
  const inRank = first?.shape.length ?? 0;
  const words = list.map(idWords);
  if (
    m === 0 ||
    vocab.length !== m ||
    Array.isArray(sp_ids) !== Array.isArray(vocab_size) ||
    inRank < 1 ||
    first.indices.length !== n * inRank ||
    vocab.some((v) => !Number.isSafeInteger(v) || v < 0) ||
    list.some((st, j) => st.values.length !== n || st.dtype !== first.dtype || !words[j])
  )
    return delegation(js(args), REASONS.unchecked);
  const kept = inRank - 1;
  const outRank = kept + m;
  const outShape = [...first.shape.slice(0, kept), ...vocab];
  const size = sizeOf(outShape);
  const result = (indices: Float64Array, vals: Values) => ({
    output: { kind: 'sparse', indices, values: vals, shape: outShape, dtype } satisfies SparseData,
  });
  if (n === 0) return result(new Float64Array(0), values.slice(0, 0));
  if (size === 0) return delegation(js(args), REASONS.unchecked); // entries, yet no element holds them
  if (size > 2 ** 32) return delegation(js(args), REASONS.wideKeys);
  const per = words[0]!.per;
  if (
    !ctx.fits(n * inRank * 8) ||
    !ctx.fits(n * m * per * 4) ||
    !ctx.fits(n * outRank * 8) ||
    !ctx.fits(n * width * 4) ||
    !ctx.fits(sortBytes(n))
  )
    throw new BindingLimitError(ctx.maxBindingBytes);

  const allIds = new Uint32Array(n * m * per);
  words.forEach((w, j) => allIds.set(w!.words, j * n * per));
  const strides = rowMajorStrides(outShape).map((s) => (s < 2 ** 32 ? s : 0));
  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(n, inRank, kept, m, per, ...outShape.flatMap(u64Words), ...strides));
    const idx = ctx.upload(indexWords(first.indices));
    const ids = ctx.upload(allIds);
    const vals = ctx.upload(valueWords(values));
    const keys = ctx.buffer(n * 4);
    const bad = ctx.buffer(4);
    owned.push(p, idx, ids, vals, keys, bad);
    ctx.dispatch({ code: KEYS, buffers: [p, idx, ids, keys, bad], threads: n });
    const sorted = recordRadixSort(ctx, keys, n, size - 1, already_sorted, owned);
    const outIdx = ctx.buffer(n * outRank * 8);
    const outVal = ctx.buffer(n * width * 4);
    owned.push(outIdx, outVal);
    ctx.dispatch({ code: emit(width), buffers: [p, idx, ids, sorted.perm, vals, outIdx, outVal], threads: n });
    const [ib, vb, bb] = await ctx.read([outIdx, n * outRank * 8], [outVal, n * width * 4], [bad, 4]);
    if (new Uint32Array(bb)[0] !== 0) return delegation(js(args), REASONS.unchecked);
    return result(indicesOf(ib), valuesOf(vb, dtype as MovedDType));
  } finally {
    ctx.release(...owned);
  }
};
