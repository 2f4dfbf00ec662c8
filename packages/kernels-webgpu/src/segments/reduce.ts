import {
  delegation,
  type DenseData,
  type KernelResult,
  magnitude as M,
  magnitudesOf,
  segmentRows,
  sizeOf,
} from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext } from '../context.js';
import { allNormal, REASONS } from '../delegation.js';
import { runPass, valuesIn, type Binding } from '../families/run.js';
import { allBelow, groupBy, intsOf, nonDecreasing, sumOf, type SegmentMode } from './plan.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** The arguments the three sparse segment reductions share (as their kernel types spell them). */
export interface SegmentArgs {
  data: DenseData;
  indices: DenseData;
  segment_ids: DenseData;
  num_segments: number | null;
}
type Outputs = { output: DenseData };

/**
 * One invocation per output element (segment s, column j): the sum of data[row · inner + j] over the rows of
 * segment s (start[s] .. start[s + 1] of `row`, grouped on the host), in entry order from 0, as the JS kernel adds
 * them (f32 rounds every sum, i32 wraps); then, if `scaled`, the segment's scale f: times f where f ≥ 0 (the
 * reciprocal the host rounded to float32, or 1), divided by -f where f < 0 (a count from 10 on: TensorFlow divides).
 * p = [segments · inner, inner].
 */
function reduceSource(type: 'f32' | 'i32', scaled: boolean): string {
  return `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> start: array<u32>;
@group(0) @binding(2) var<storage, read> row: array<u32>;
@group(0) @binding(3) var<storage, read> data: array<${type}>;
@group(0) @binding(4) var<storage, read_write> out: array<${type}>;
${scaled ? '@group(0) @binding(5) var<storage, read> scale: array<f32>;' : ''}
${ENTRY}
  if (i >= p[0]) { return; }
  let inner = p[1];
  let s = i / inner;
  let j = i % inner;
  let end = start[s + 1u];
  var acc = ${type}(0);
  for (var q = start[s]; q < end; q++) {
    acc = acc + data[row[q] * inner + j];
  }
${
  scaled
    ? `  let f = scale[s];
  if (f < 0.0) { acc = acc / -f; } else { acc = acc * f; }
`
    : ''
}  out[i] = acc;
}
`;
}

/**
 * The scale of each segment as the JS kernel applies it (segment-reduce.ts, after TensorFlow's CPU kernel): none
 * for 0 or 1 rows (1), the float32 reciprocal of the divisor below 10 rows, the divisor (negated: divide) from 10.
 */
function scales(mode: 'mean' | 'sqrt_n', start: Uint32Array, segments: number): Float32Array {
  const f = new Float32Array(segments);
  for (let s = 0; s < segments; s++) {
    const count = start[s + 1] - start[s];
    if (count <= 1) f[s] = 1;
    else {
      const m = Math.fround(mode === 'mean' ? count : Math.sqrt(count));
      f[s] = count < 10 ? Math.fround(1 / m) : -m;
    }
  }
  return f;
}

/**
 * sparse_segment_{sum,mean,sqrt_n} on the GPU (float32, and int32 for the sum, whose int32 addition wraps as
 * WGSL's does): the host groups the entries by segment id (a counting sort, linear; sorted ids, which the runtime
 * has checked, stay in place) and computes each segment's scale; one pass, one read. Other dtypes, float32 data
 * holding inf, nan or a subnormal, sums whose bound reaches the subnormal range, and buffers past the binding limit
 * run on the JS kernel, saying why; a float32 result holding inf, nan or a subnormal is rerun there.
 */
export async function reduceSegments(
  ctx: WebGpuContext,
  js: (args: SegmentArgs) => Outputs,
  args: SegmentArgs,
  mode: SegmentMode,
): Promise<KernelResult<Outputs>> {
  const { data } = args;
  const dtype = data.dtype;
  if (!(dtype === 'float32' || (dtype === 'int32' && mode === 'sum')))
    return delegation(js(args), REASONS.notComputed(dtype));
  const ids = intsOf(args.segment_ids);
  const idx = intsOf(args.indices);
  const n = idx.length;
  const segments = segmentRows(ids, args.num_segments);
  const inner = sizeOf(data.shape.slice(1));
  const shape = [segments, ...data.shape.slice(1)];
  const size = segments * inner;
  const Store = dtype === 'float32' ? Float32Array : Int32Array;
  if (
    ids.length !== n ||
    !Number.isInteger(segments) ||
    !allBelow(ids, segments) ||
    !allBelow(idx, data.shape[0]) ||
    (mode !== 'sum' && !nonDecreasing(ids))
  )
    return delegation(js(args), REASONS.unchecked);
  if (size === 0) return { output: { kind: 'dense', data: new Store(0), shape, dtype } };
  if (!ctx.fits(size * 4) || !ctx.fits((segments + 1) * 4)) throw new BindingLimitError(ctx.maxBindingBytes);
  if (n === 0) return { output: { kind: 'dense', data: new Store(size), shape, dtype } };

  const values = data.data as Float32Array | Int32Array;
  const { start, item, longest } = groupBy(ids, segments, idx);
  if (dtype === 'float32') {
    if (!allNormal(values as Float32Array)) return delegation(js(args), REASONS.nonFinite);
    let bound = sumOf(magnitudesOf(values), longest);
    if (mode !== 'sum' && longest > 1) bound = M.div(bound, M.span(1, mode === 'mean' ? longest : Math.sqrt(longest)));
    if (!bound) return delegation(js(args), REASONS.subnormal);
  }
  const scaled = mode !== 'sum';
  const bindings: Binding[] = [Uint32Array.of(size, inner), start, item, values, { bytes: size * 4 }];
  if (scaled) bindings.push(scales(mode, start, segments));
  const code = reduceSource(dtype === 'float32' ? 'f32' : 'i32', scaled);
  const read = await runPass(ctx, code, size, bindings, [4]);
  const out = valuesIn(dtype as 'float32' | 'int32', read[0]);
  if (dtype === 'float32' && !allNormal(out as Float32Array)) return delegation(js(args), REASONS.nonFiniteResult);
  return { output: { kind: 'dense', data: out, shape, dtype } };
}
