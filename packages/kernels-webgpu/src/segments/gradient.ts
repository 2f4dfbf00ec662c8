import { delegation, productsMayBeSubnormal, sizeOf, type DenseData, type KernelResult } from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext } from '../context.js';
import { allNormal, REASONS } from '../delegation.js';
import { runPass } from '../families/run.js';
import { allBelow, groupBy, intsOf, type SegmentMode } from './plan.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** The arguments the three sparse segment gradients share (as their kernel types spell them). */
export interface SegmentGradArgs {
  grad: DenseData;
  indices: DenseData;
  segment_ids: DenseData;
  output_dim0: number;
}
type Outputs = { output: DenseData };

/**
 * One invocation per output element (row r of data, column j), owning it: the sum of grad[s · inner + j] · k[s]
 * over the entries whose index is r (start[r] .. start[r + 1] of `seg`, their segment ids, grouped on the host by a
 * stable counting sort), in entry order from 0, as the JS kernel adds them; f32 rounds every product and sum.
 * No atomics: no two invocations write one element. p = [output_dim0 · inner, inner].
 */
const GRADIENT = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> start: array<u32>;
@group(0) @binding(2) var<storage, read> seg: array<u32>;
@group(0) @binding(3) var<storage, read> g: array<f32>;
@group(0) @binding(4) var<storage, read> k: array<f32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let inner = p[1];
  let r = i / inner;
  let j = i % inner;
  let end = start[r + 1u];
  var acc = 0.0;
  for (var q = start[r]; q < end; q++) {
    let s = seg[q];
    acc = acc + g[s * inner + j] * k[s];
  }
  out[i] = acc;
}
`;

/**
 * Each segment's factor as the JS kernel computes it (segment-gradient.ts, after TensorFlow): 1, 1 / count or
 * 1 / sqrt(count) of the entries naming it (at least 1), in float64, rounded to float32.
 */
function factors(mode: SegmentMode, ids: ArrayLike<number>, segments: number): Float32Array {
  const k = new Float32Array(segments).fill(1);
  if (mode === 'sum') return k;
  const count = new Float64Array(segments);
  for (let i = 0; i < ids.length; i++) count[ids[i]]++;
  for (let s = 0; s < segments; s++) {
    const c = Math.max(count[s], 1);
    k[s] = mode === 'mean' ? 1 / c : 1 / Math.sqrt(c);
  }
  return k;
}

/**
 * sparse_segment_{sum,mean,sqrt_n}_grad on the GPU (float32; float64 runs on the JS kernel): the scatter
 * output[indices[i]] += grad[segment_ids[i]] · k, turned into a gather by grouping the entries by destination row on
 * the host (linear), one pass and one read. float32 grad holding inf, nan or a subnormal, products or sums whose
 * bound reaches the subnormal range, and buffers past the binding limit run on the JS kernel, saying why; a result
 * holding inf, nan or a subnormal is rerun there.
 */
export async function segmentGradient(
  ctx: WebGpuContext,
  js: (args: SegmentGradArgs) => Outputs,
  args: SegmentGradArgs,
  mode: SegmentMode,
): Promise<KernelResult<Outputs>> {
  const { grad, output_dim0: rows } = args;
  const dtype = grad.dtype;
  if (dtype !== 'float32') return delegation(js(args), REASONS.notComputed(dtype));
  const ids = intsOf(args.segment_ids);
  const idx = intsOf(args.indices);
  const n = idx.length;
  const segments = grad.shape[0];
  const inner = sizeOf(grad.shape.slice(1));
  const shape = [rows, ...grad.shape.slice(1)];
  const size = rows * inner;
  if (ids.length !== n || !Number.isInteger(rows) || !allBelow(ids, segments) || !allBelow(idx, rows))
    return delegation(js(args), REASONS.unchecked);
  if (size === 0) return { output: { kind: 'dense', data: new Float32Array(0), shape, dtype } };
  if (!ctx.fits(size * 4) || !ctx.fits((rows + 1) * 4)) throw new BindingLimitError(ctx.maxBindingBytes);
  if (n === 0) return { output: { kind: 'dense', data: new Float32Array(size), shape, dtype } };

  const g = grad.data as Float32Array;
  if (!allNormal(g)) return delegation(js(args), REASONS.nonFinite);
  const k = factors(mode, ids, segments);
  // Every step is a product grad · k or a sum of them.
  if (productsMayBeSubnormal(g, k)) return delegation(js(args), REASONS.subnormal);
  const { start, item } = groupBy(idx, rows, ids);
  const read = await runPass(
    ctx,
    GRADIENT,
    size,
    [Uint32Array.of(size, inner), start, item, g, k, { bytes: size * 4 }],
    [5],
  );
  const out = new Float32Array(read[0]);
  if (!allNormal(out)) return delegation(js(args), REASONS.nonFiniteResult);
  return { output: { kind: 'dense', data: out, shape, dtype } };
}
