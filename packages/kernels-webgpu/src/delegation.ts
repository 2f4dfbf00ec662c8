/**
 * The one place that declares when the webgpu backend hands work to the JS kernels, and why. Such a result is
 * reported as `delegated`, never as `passed`.
 *
 * WGSL computes f32 and i32 natively: float32 values run on the GPU, and int32 values too where the op's int32
 * meaning is WGSL's (addition, subtraction and multiplication wrap in both; TensorFlow's integer division and
 * remainder round toward negative infinity and fail on a zero divisor, so ops that divide int32 run on the JS
 * kernels). An op that only moves values (sorts, compactions, scatters, conversions) moves float64, int64 and bool
 * as their own words, bit for bit; an op that computes on them delegates float64, int64 and bool, and every op
 * delegates string values (never rounded, never hashed). Within float32, WGSL may flush
 * subnormal values to zero and does not promise IEEE infinities and NaN: a call whose inputs hold inf, nan or a
 * subnormal is delegated, and one whose result holds inf, nan or a subnormal is rerun on the JS kernels; and since a
 * flushed step can also come back as an exact 0 or a wrong small number, a float32 call runs on the GPU only where
 * a bound computed on the host shows that no step of it can take a subnormal value (kernel-abi's subnormal-bound.ts:
 * the family ops' expressions over their operands' magnitudes, the matmul's products and sums), so no result
 * differs from js beyond float32 rounding. A call with a buffer past the binding limit is tiled into calls that fit
 * (tiling/tiled.ts); one its op cannot cut runs on the JS kernels.
 * Ops with no WebGPU kernel yet run on the JS kernels whole (the generated kernel table's JS_DISPATCHED).
 */

export const REASONS = {
  notComputed: (dtype: string) =>
    `the webgpu backend computes on float32 and int32 values; ${dtype} values ran on the JS kernels (never rounded to float32)`,
  int32NotWgsl: (what: string) =>
    `int32 ${what} is not WGSL's integer arithmetic: ran on the JS kernels, exact in int32`,
  nonFinite:
    'float32 inputs holding inf, nan or a subnormal: WGSL does not promise IEEE special values and may flush subnormals to zero, ran on the JS kernels',
  subnormal:
    'a step of this float32 call could take a subnormal value (nonzero, below 2^-126; a host-side bound on every step), which GPUs may flush to zero: ran on the JS kernels, which keep it',
  nonFiniteResult:
    'the GPU result held inf, nan or a subnormal, which WGSL does not promise to compute as IEEE does: rerun on the JS kernels',
  bindingLimit: (limit: number) =>
    `a buffer of this call passes this device's maxStorageBufferBindingSize (${limit} bytes): ran on the JS kernels`,
  deviceBudget: (held: number) =>
    `the GPU holds ${held} bytes of results not yet read or disposed and of prepared tensors, and this call's result would pass the runtime's maxBytes: ran on the JS kernels, its result in host memory (dispose() the results you no longer need, or let the loop yield so that the dropped ones are collected)`,
  outOfMemory: (message: string) => `the GPU ran out of memory (${message}): ran on the JS kernels`,
  notPorted: 'this op has no WebGPU kernel yet: ran on the JS kernels',
  atOnce:
    'called at once (rt.run, the typed API): this op has no webgpu kernel that leaves its result on the GPU, so it ran on the JS kernels (rt.sparseAsync runs it on the GPU)',
  notPortedCase: (what: string) => `${what} has no WebGPU kernel yet: ran on the JS kernels`,
  float32NotWgsl: (what: string) => `float32 ${what} is not what WGSL computes: ran on the JS kernels`,
  ties: "a group's maximum (or minimum) is held by more than one value: TensorFlow splits its gradient among them by a division WGSL does not round correctly, ran on the JS kernels",
  repeatedEntries:
    'stored entries share a dense element (a repeated index): the JS kernel combines them in turn, ran on the JS kernels',
  wideKeys:
    "the dense shape has more than 2^32 elements: the webgpu sort's 32-bit row-major keys cannot hold its offsets, ran on the JS kernels",
  wideIndex: 'an index past 2^32 - 1, which the webgpu kernel moves as a u32: ran on the JS kernels',
  unchecked:
    'arguments the runtime checks before any kernel are not as it requires (indices out of range or order, counts or lengths that disagree, a perm that is no permutation, a rank-0 input): a direct kernel call, ran on the JS kernels',
} as const;

/** The least normal float32: WGSL may flush anything smaller to zero. */
export const MIN_NORMAL = 2 ** -126;

/** Whether every value is finite and either 0 or normal: what WGSL computes as IEEE does. */
export function allNormal(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== 0 && !(Math.abs(v) >= MIN_NORMAL && Math.abs(v) < Infinity)) return false;
  }
  return true;
}
