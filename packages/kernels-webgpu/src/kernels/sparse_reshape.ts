/// <reference types="@webgpu/types" />
import { delegation, exactSizeOf, resolveReshapeTarget, type SparseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { FLOAT64_INDEX, indexWords, indicesOf } from '../structural/float64-index.js';
import { u64Words } from '../structural/u64.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Each entry's index (float64 words) to its row-major position in the input shape (Horner, 64-bit), then that
 * position written in the output shape, last dim first. An index that is not a whole number below its dim sets
 * bad[0]. p = [n, in rank, out rank, in dims (word pairs)…, out dims (word pairs)…].
 */
const RESHAPE = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> bad: array<atomic<u32>>;
${FLOAT64_INDEX}
${ENTRY}
  if (i >= p[0]) { return; }
  let inRank = p[1];
  let outRank = p[2];
  var pos = vec2u(0u);
  var ok = true;
  for (var d = 0u; d < inRank; d++) {
    let w = 2u * (i * inRank + d);
    let x = decodeIndex(idx[w], idx[w + 1u]);
    let dim = vec2u(p[3u + 2u * d], p[4u + 2u * d]);
    ok = ok && x.ok && lt64(x.v, dim);
    pos = add64(mul64(pos, dim), x.v);
  }
  if (!ok) {
    atomicOr(&bad[0], 1u);
    return;
  }
  let base = 3u + 2u * inRank;
  for (var k = 1u; k < outRank; k++) {
    let d = outRank - k;
    let qr = divmod64(pos, vec2u(p[base + 2u * d], p[base + 2u * d + 1u]));
    let e = encodeIndex(qr[1]);
    out[2u * (i * outRank + d)] = e.x;
    out[2u * (i * outRank + d) + 1u] = e.y;
    pos = qr[0];
  }
  if (outRank > 0u) {
    let e = encodeIndex(pos);
    out[2u * i * outRank] = e.x;
    out[2u * i * outRank + 1u] = e.y;
  }
}
`;

/** The most elements a dense shape may have here: positions are 64-bit. */
const MAX_SIZE = 2n ** 64n;

/**
 * sparse_reshape (values of any dtype) on the GPU: the host checks the target as the runtime does (at most
 * one -1, no other negative, element counts that agree; else the JS kernel runs, unchecked) and fills in its -1
 * with resolveReshapeTarget, as js; the GPU rewrites each index, reading and writing its float64 bits, through its
 * exact 64-bit position (structural/u64.ts), and checks it is a whole number below its dim (else the JS kernel
 * runs). The values are copied on the host, unchanged, as js. Dense shapes of more than 2^64 elements (past
 * 64-bit positions) and a dim past 2^53 - 1 run on the JS kernels. One submission, one read;
 * none without entries or for a rank-0 output (no index to write).
 */
export const sparseReshape: KernelFactory<'sparse_reshape'> = (ctx, js) => async (args) => {
  const { sp_input, shape: target } = args;
  const { indices, values, shape, dtype } = sp_input;
  if (!validTarget(shape, target)) return delegation(js(args), REASONS.unchecked);
  const outShape = resolveReshapeTarget(shape, target);
  if (outShape.some((d) => !Number.isSafeInteger(d)))
    return delegation(js(args), REASONS.notPortedCase('sparse_reshape to a dim past 2^53 - 1'));
  if (exactSizeOf(shape) > MAX_SIZE)
    return delegation(js(args), REASONS.notPortedCase('sparse_reshape of a dense shape of more than 2^64 elements'));
  const n = values.length;
  const inRank = shape.length;
  const outRank = outShape.length;
  if (indices.length !== n * inRank) return delegation(js(args), REASONS.unchecked);
  const result = (out: Float64Array) => ({
    output: { kind: 'sparse', indices: out, values: values.slice(), shape: outShape, dtype } satisfies SparseData,
  });
  if (n === 0 || outRank === 0) return result(new Float64Array(0));
  if (!ctx.fits(n * inRank * 8) || !ctx.fits(n * outRank * 8)) throw new BindingLimitError(ctx.maxBindingBytes);

  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(n, inRank, outRank, ...[...shape, ...outShape].flatMap(u64Words)));
    const idx = ctx.upload(indexWords(indices));
    const out = ctx.buffer(n * outRank * 8);
    const bad = ctx.buffer(4);
    owned.push(p, idx, out, bad);
    ctx.dispatch({ code: RESHAPE, buffers: [p, idx, out, bad], threads: n });
    const [ob, bb] = await ctx.read([out, n * outRank * 8], [bad, 4]);
    if (new Uint32Array(bb)[0] !== 0) return delegation(js(args), REASONS.unchecked);
    return result(indicesOf(ob));
  } finally {
    ctx.release(...owned);
  }
};

/** The runtime's sparse_reshape_target check: at most one -1, whole dims otherwise, element counts that agree. */
function validTarget(from: readonly number[], target: readonly number[]): boolean {
  if (from.some((d) => !Number.isSafeInteger(d) || d < 0)) return false;
  let unknown = -1;
  let known = 1n;
  for (let i = 0; i < target.length; i++) {
    const d = target[i];
    if (d === -1 && unknown < 0) unknown = i;
    else if (!Number.isSafeInteger(d) || d < 0) return false;
    else known *= BigInt(d);
  }
  const total = exactSizeOf(from);
  if (unknown < 0) return known === total;
  return known !== 0n && total % known === 0n;
}
