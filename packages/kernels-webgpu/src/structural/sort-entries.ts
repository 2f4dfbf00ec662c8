/// <reference types="@webgpu/types" />
import { rowMajorStrides, sizeOf, type SparseData } from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext } from '../context.js';
import { REASONS } from '../delegation.js';
import { recordRadixSort, sortBytes } from './radix.js';
import { moveValue, valuesOf, valueWidth, valueWords, type MovedDType } from './value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** Why a structural call runs on the JS kernels, beyond delegation.ts's reasons (the structural kernels' own). */

/** The bit pattern of a float32 or int32 store, as the GPU moves it. */
export function wordsOf(values: Float32Array | Int32Array): Uint32Array {
  return new Uint32Array(values.buffer, values.byteOffset, values.length);
}

/**
 * Each sorted entry's index, from its key (its row-major offset in the output shape: key / stride, then the rest;
 * a stride written 0 is one of 2^32 or more, whose index can only be 0), and its value, the `width` words at its
 * input position. p = [n, rank, stride 0, …].
 */
const emit = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read> perm: array<u32>;
@group(0) @binding(3) var<storage, read> vals: array<u32>;
@group(0) @binding(4) var<storage, read_write> idx: array<u32>;
@group(0) @binding(5) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[1];
  var rem = keys[i];
  for (var d = 0u; d < rank; d++) {
    let s = p[2u + d];
    if (s == 0u) {
      idx[i * rank + d] = 0u;
    } else {
      idx[i * rank + d] = rem / s;
      rem = rem % s;
    }
  }
  ${moveValue(width, 'out', 'i', 'vals', 'perm[i]')}
}
`;

/**
 * The entries of `sp` in canonical row-major order of `shape` (the output's dense shape), index dim d of the output
 * being column `cols[d]` of sp's index matrix (sparse_reorder: the identity; sparse_transpose: perm): a stable sort, so
 * entries that share an index keep their input order, as the JS kernel's canonicalOrder. The host computes each entry's
 * 32-bit row-major key (O(nnz · rank), checking each index against its dim); the GPU sorts keys with their permutation
 * (radix.ts; no pass where the keys already are in order), then one pass writes each entry's index (from its key) and
 * its value (its words, bit for bit: value-words.ts). One submission, one read. A string is the reason the call runs on
 * the JS kernels instead.
 */
export async function sortEntries(
  ctx: WebGpuContext,
  sp: SparseData,
  cols: readonly number[],
  shape: number[],
): Promise<{ output: SparseData } | string> {
  const { dtype } = sp;
  const width = valueWidth(dtype);
  if (!width) return REASONS.notComputed(dtype);
  const n = sp.values.length;
  const rank = shape.length;
  if (n === 0)
    return { output: { kind: 'sparse', indices: new Float64Array(0), values: sp.values.slice(0, 0), shape, dtype } };
  const size = sizeOf(shape);
  if (size > 2 ** 32) return REASONS.wideKeys;
  if (!ctx.fits(n * rank * 4) || !ctx.fits(n * width * 4) || !ctx.fits(sortBytes(n)))
    throw new BindingLimitError(ctx.maxBindingBytes);

  const strides = rowMajorStrides(shape);
  const keys = new Uint32Array(n);
  const idx = sp.indices;
  let sorted = true;
  let maxKey = 0;
  for (let e = 0, prev = 0; e < n; e++) {
    let key = 0;
    for (let d = 0; d < rank; d++) {
      const x = idx[e * rank + cols[d]];
      if (!(x >= 0 && x < shape[d]) || x !== Math.floor(x)) return REASONS.unchecked;
      key += x * strides[d];
    }
    keys[e] = key;
    if (key < prev) sorted = false;
    if (key > maxKey) maxKey = key;
    prev = key;
  }

  const owned: GPUBuffer[] = [];
  try {
    const keyBuf = ctx.upload(keys);
    const valBuf = ctx.upload(valueWords(sp.values));
    owned.push(keyBuf, valBuf);
    const s = recordRadixSort(ctx, keyBuf, n, maxKey, sorted, owned);
    const p = ctx.upload(Uint32Array.of(n, rank, ...strides.map((st) => (st < 2 ** 32 ? st : 0))));
    const outIdx = ctx.buffer(n * rank * 4);
    const outVal = ctx.buffer(n * width * 4);
    owned.push(p, outIdx, outVal);
    ctx.dispatch({ code: emit(width), buffers: [p, s.keys, s.perm, valBuf, outIdx, outVal], threads: n });
    const [ib, vb] = await ctx.read([outIdx, n * rank * 4], [outVal, n * width * 4]);
    const values = valuesOf(vb, dtype as MovedDType);
    return { output: { kind: 'sparse', indices: Float64Array.from(new Uint32Array(ib)), values, shape, dtype } };
  } finally {
    ctx.release(...owned);
  }
}
