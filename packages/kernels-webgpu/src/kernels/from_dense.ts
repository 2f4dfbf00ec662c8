/// <reference types="@webgpu/types" />
import { delegation, type SparseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { recordScan } from '../structural/scan.js';
import { wordsOf } from '../structural/sort-entries.js';

/** Whether word w is not the dtype's zero: float32 (p[1] = 1) drops 0 and -0 (all bits but the sign clear) and keeps nan. */
const NONZERO = `fn nonzero(w: u32) -> bool {
  if (p[1] == 1u) { return (w & 0x7fffffffu) != 0u; }
  return w != 0u;
}`;

/** flags[i] = 1 where element i is kept. p = [size, float]. */
const FLAG = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> flags: array<u32>;
${NONZERO}
${ENTRY}
  if (i >= p[0]) { return; }
  flags[i] = select(0u, 1u, nonzero(data[i]));
}
`;

/**
 * Each kept element to its place k (the flags' exclusive scan): its word to vals[k], its dense index (flat position
 * i in the row-major shape, last dim first) to idx[k · rank …]. p = [size, float, rank, dim 0, …].
 */
const COMPACT = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> data: array<u32>;
@group(0) @binding(2) var<storage, read> pos: array<u32>;
@group(0) @binding(3) var<storage, read_write> idx: array<u32>;
@group(0) @binding(4) var<storage, read_write> vals: array<u32>;
${NONZERO}
${ENTRY}
  if (i >= p[0]) { return; }
  let w = data[i];
  if (!nonzero(w)) { return; }
  let k = pos[i];
  vals[k] = w;
  let rank = p[2];
  var rem = i;
  for (var d = rank; d > 0u; d--) {
    let dim = p[2u + d];
    idx[k * rank + d - 1u] = rem % dim;
    rem = rem / dim;
  }
}
`;

/**
 * from_dense (float32 and int32) on the GPU, as a stream compaction: a flag per element (not the dtype's zero:
 * float32 by its bits, so -0 is dropped and nan kept, as the JS kernel's isZeroAt), the flags' exclusive scan
 * (structural/scan.ts), then each kept element writes its value and its index at its place. Values move as
 * 32-bit words, bit for bit. The host counts the kept elements the same way (O(size)) to size the outputs; nothing
 * kept, or a scalar, needs no GPU. One submission, one read.
 */
export const fromDense: KernelFactory<'from_dense'> = (ctx, js) => async (args) => {
  const { data, shape, dtype } = args.tensor;
  if (dtype !== 'float32' && dtype !== 'int32') return delegation(js(args), REASONS.notComputed(dtype));
  const Store = dtype === 'float32' ? Float32Array : Int32Array;
  const rank = shape.length;
  const size = data.length;
  const words = wordsOf(data as Float32Array | Int32Array);
  const mask = dtype === 'float32' ? 0x7fffffff : 0xffffffff;
  let nnz = 0;
  for (let f = 0; f < size; f++) if ((words[f] & mask) !== 0) nnz++;
  const result = (indices: Float64Array, values: Float32Array | Int32Array) => ({
    output: { kind: 'sparse', indices, values, shape: [...shape], dtype } satisfies SparseData,
  });
  if (nnz === 0) return result(new Float64Array(0), new Store(0));
  if (rank === 0) return result(new Float64Array(0), Store.from(data as Float32Array | Int32Array));
  if (!ctx.fits(size * 4) || !ctx.fits(nnz * rank * 4))
    return delegation(js(args), REASONS.bindingLimit(ctx.maxBindingBytes));

  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(size, dtype === 'float32' ? 1 : 0, rank, ...shape));
    const src = ctx.upload(words);
    const pos = ctx.buffer(size * 4);
    const idx = ctx.buffer(nnz * rank * 4);
    const vals = ctx.buffer(nnz * 4);
    owned.push(p, src, pos, idx, vals);
    ctx.dispatch({ code: FLAG, buffers: [p, src, pos], threads: size });
    recordScan(ctx, pos, size, owned);
    ctx.dispatch({ code: COMPACT, buffers: [p, src, pos, idx, vals], threads: size });
    const [ib, vb] = await ctx.read([idx, nnz * rank * 4], [vals, nnz * 4]);
    return result(Float64Array.from(new Uint32Array(ib)), new Store(vb));
  } finally {
    ctx.release(...owned);
  }
};
