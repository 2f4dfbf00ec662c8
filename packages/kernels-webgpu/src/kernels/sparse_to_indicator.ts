/// <reference types="@webgpu/types" />
import { delegation, rowMajorStrides, sizeOf, type DenseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { FLOAT64_INDEX, indexWords } from '../structural/float64-index.js';
import { idWords, READ_ID } from '../structural/id-words.js';
import { u64Words } from '../structural/u64.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Entry i sets byte [index[:-1], id] of the output, four bytes a word (atomicOr: repeats and neighbours may share
 * a word). A leading index that is not a whole number below its dim, or an id outside [0, vocab), sets bad[0].
 * p = [n, rank, per, vocab (word pair), leading dims (word pairs)…, leading strides…].
 */
const INDICATE = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read> ids: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> bad: array<atomic<u32>>;
${FLOAT64_INDEX}
${READ_ID}
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[1];
  let lead = rank - 1u;
  let id = readId(i, p[2], vec2u(p[3], p[4]));
  var ok = id.ok;
  var off = id.v.x;
  for (var d = 0u; d < lead; d++) {
    let w = 2u * (i * rank + d);
    let x = decodeIndex(idx[w], idx[w + 1u]);
    ok = ok && x.ok && lt64(x.v, vec2u(p[5u + 2u * d], p[6u + 2u * d]));
    off += x.v.x * p[5u + 2u * lead + d];
  }
  if (!ok) {
    atomicOr(&bad[0], 1u);
    return;
  }
  atomicOr(&out[off / 4u], 1u << (8u * (off % 4u)));
}
`;

/**
 * sparse_to_indicator (int32 and int64 ids, read as their words: exact) on the GPU: one thread an entry sets its
 * byte of the bool output (packed four a word, atomically), after checking its leading index and id as the runtime
 * does (else the JS kernel runs, unchecked). Outputs of 2^32 elements or more, and a rank-0 input (the runtime
 * refuses one), run on the JS kernels. One submission, one read; none without entries or output elements.
 */
export const sparseToIndicator: KernelFactory<'sparse_to_indicator'> = (ctx, js) => async (args) => {
  const { sp_input, vocab_size } = args;
  const { indices, values, shape } = sp_input;
  const ids = idWords(sp_input);
  const rank = shape.length;
  const n = values.length;
  if (!ids || rank === 0 || indices.length !== n * rank || !Number.isSafeInteger(vocab_size) || vocab_size < 0)
    return delegation(js(args), REASONS.unchecked);
  const outShape = [...shape.slice(0, -1), vocab_size];
  const size = sizeOf(outShape);
  const result = (data: Uint8Array) => ({
    output: { kind: 'dense', data, shape: outShape, dtype: 'bool' } satisfies DenseData,
  });
  // No entries, or nowhere to write (js's writes past the end do nothing): all false.
  if (n === 0 || size === 0) return result(new Uint8Array(size));
  if (size >= 2 ** 32)
    return delegation(js(args), REASONS.notPortedCase('sparse_to_indicator with an output of 2^32 elements or more'));
  if (!ctx.fits(size) || !ctx.fits(n * rank * 8) || !ctx.fits(ids.words.byteLength))
    throw new BindingLimitError(ctx.maxBindingBytes);

  const lead = shape.slice(0, -1);
  const strides = rowMajorStrides(outShape).slice(0, -1);
  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(
      Uint32Array.of(n, rank, ids.per, ...u64Words(vocab_size), ...lead.flatMap(u64Words), ...strides),
    );
    const idx = ctx.upload(indexWords(indices));
    const idBuf = ctx.upload(ids.words);
    const out = ctx.buffer(size);
    const bad = ctx.buffer(4);
    owned.push(p, idx, idBuf, out, bad);
    ctx.dispatch({ code: INDICATE, buffers: [p, idx, idBuf, out, bad], threads: n });
    const [ob, bb] = await ctx.read([out, size], [bad, 4]);
    if (new Uint32Array(bb)[0] !== 0) return delegation(js(args), REASONS.unchecked);
    return result(new Uint8Array(ob));
  } finally {
    ctx.release(...owned);
  }
};
