import type { DenseData } from '@sparse/kernel-abi';
import { allocValues, sizeOf } from '@sparse/kernel-abi';

/** How a segment reduction scales each row it adds: not at all, by 1 / count, by 1 / sqrt(count). */
export type SegmentScaling = 'sum' | 'mean' | 'sqrt_n';

/**
 * The gradient of a sparse segment reduction, as TensorFlow's SparseSegment{Sum,Mean,SqrtN}Grad kernels compute
 * it: row `indices[i]` of the output gets row `segment_ids[i]` of grad, times the segment's scale (1, 1 / count or
 * 1 / sqrt(count) of the entries naming it, computed in float64 and rounded to the dtype), added in entry order;
 * rows no index names are 0. The runtime has checked the ids and indices. O(entries · row size + output).
 */
export function segmentGradient(
  grad: DenseData,
  indices: DenseData,
  segmentIds: DenseData,
  outputDim0: number,
  scaling: SegmentScaling,
): DenseData {
  const dtype = grad.dtype;
  const inner = sizeOf(grad.shape.slice(1));
  const out = allocValues(dtype, outputDim0 * inner) as Float64Array;
  const g = grad.data as Float64Array;
  const n = indices.data.length;
  const row = (a: DenseData, i: number) => Number(a.data[i]);
  const scale = new Float64Array(grad.shape[0]).fill(1);
  if (scaling !== 'sum') {
    const count = new Float64Array(grad.shape[0]);
    for (let i = 0; i < n; i++) count[row(segmentIds, i)]++;
    for (let s = 0; s < count.length; s++) {
      const c = Math.max(count[s], 1);
      scale[s] = scaling === 'mean' ? 1 / c : 1 / Math.sqrt(c);
    }
  }
  const round = dtype === 'float32' ? Math.fround : (v: number) => v;
  for (let i = 0; i < n; i++) {
    const s = row(segmentIds, i);
    const k = round(scale[s]);
    const from = s * inner;
    const to = row(indices, i) * inner;
    for (let j = 0; j < inner; j++) out[to + j] = round(out[to + j] + round(g[from + j] * k));
  }
  return { kind: 'dense', data: out, shape: [outputDim0, ...grad.shape.slice(1)], dtype };
}
