import type { DenseData, DType, Scalar, Values } from '@sparse/kernel-abi';
import { rowMajorStrides, sizeOf } from '@sparse/kernel-abi';
import type { GpuContext } from './gpu-context.js';
import { allFinite, EXACT_INT, gpuRefusal, REASONS } from './delegation.js';
import { asFloat32, fromGpu, rangeOf } from './int32-route.js';
import { exact } from './generated/int-range.js';

/**
 * One thread per output element: the entry that lands there (entryAt holds its number + 1, 0 for none) gives its
 * value, else the default. A fragment shader cannot scatter, so the scatter is a gather.
 */
const GATHER = `function (entryAt, vals, dflt) {
  const k = entryAt[this.thread.x];
  if (k > 0) return vals[k - 1];
  return dflt;
}`;

export interface GpuScatter {
  /** Row-major [n × shape.length] index matrix, every index within `shape` (checked by the runtime). */
  indices: ArrayLike<number>;
  n: number;
  /** The values: one per index, or (with `broadcast`) a single value for every index. */
  values: Values;
  /** Their dtype: float32, or int32 within 2^24, run on the GPU (gpuRefusal says why not otherwise). */
  dtype: DType;
  broadcast: boolean;
  shape: number[];
  defaultValue: Scalar;
}

/**
 * The dense tensor holding `defaultValue` except at the given indices, as the JS backend's scatterToDense builds
 * it: the host writes each entry's number at its linear offset in order, so for a repeated index the last entry
 * wins (as in the JS kernel), and the GPU gathers. Linear: O(n · rank) on the host, one thread per element. Both
 * ops share the one kernel. Returns the dense data, or the reason the GPU cannot take the call (the caller
 * delegates).
 */
export function gpuScatterToDense(ctx: GpuContext, s: GpuScatter): DenseData | string {
  // The default as the GPU's float32 uniform holds it (a float64 default may round to inf or a subnormal); int32
  // values and default move through float32 unchanged when all are integers within 2^24.
  const dflt = s.dtype === 'int32' ? Number(s.defaultValue) : Math.fround(Number(s.defaultValue));
  const values = s.values as Float32Array | Int32Array;
  const refusal = gpuRefusal(s.dtype, [values, [dflt]], {
    // Only copies of the screened values and default: no step computes a value that could be subnormal.
    float32: () => undefined,
    int32: () => (exact(rangeOf(values)) && exact(rangeOf([dflt])) ? undefined : REASONS.int32Range),
  });
  if (refusal) return refusal;
  const size = sizeOf(s.shape);
  // Offsets below `size` and entry numbers up to n + 1 must be exact in a float texture.
  if (size > EXACT_INT || s.n + 1 > EXACT_INT) return REASONS.tooBig;
  const strides = rowMajorStrides(s.shape);
  const rank = strides.length;
  const entryAt = new Float32Array(size);
  for (let i = 0; i < s.n; i++) {
    let off = 0;
    for (let d = 0; d < rank; d++) off += s.indices[i * rank + d] * strides[d];
    entryAt[off] = s.broadcast ? 1 : i + 1;
  }
  const vals = values.length ? asFloat32(values) : new Float32Array(1);
  const data = size === 0 ? new Float32Array(0) : ctx.run('to_dense:gather', GATHER, size, [entryAt, vals, dflt]);
  if (!allFinite(data)) return REASONS.nonFiniteResult;
  return { kind: 'dense', data: fromGpu(data, s.dtype), shape: s.shape.slice(), dtype: s.dtype };
}
