/**
 * The one place that declares when the GPU backend hands work to the JS kernels, and why. Such a result is
 * reported as `delegated`, never as `passed`.
 *
 * The GPU computes in float32 (WebGL float textures and shaders). float32 values run there; int32 values run there
 * as float32 where a host-side bound shows every step of the call exact (integers within 2^24: int32-route.ts),
 * and are rounded back into int32. float64, int64, bool and string values are delegated, never rounded to float32;
 * so are int32 calls past the bound, and int32 ops whose meaning is not float arithmetic (integer division, pow).
 * Within float32, a call is delegated when its inputs hold inf, nan or a subnormal, or rerun on the JS kernels
 * when its result holds inf or nan (WebGL does not promise IEEE special values) or the largest float32 (what a
 * function the GPU computes with a helper of its own gives past the range it computes within the precision rule:
 * sin and tan past |x| = 2048, expm1 and sinh past 88.5, and where the result is inf or nan), and when a buffer or
 * an offset would pass 2^24 (float textures hold integers exactly up to there).
 *
 * Subnormal results: GPUs flush subnormal float32 values (nonzero, below 2^-126) to zero, in results and in every
 * step, and a flushed value comes back as an exact 0 or a wrong small number that nothing in the output tells from
 * a right one. So a float32 call runs on the GPU only where a host-side bound shows that no step of it can take a
 * subnormal value, given its screened inputs (subnormal-bound.ts): the family ops' spec expressions evaluated over
 * the magnitudes of their operands (least nonzero, greatest, and the power of two every value is a multiple of,
 * which keeps a sum that cancels sound: a nonzero sum of values of magnitude ≥ 2^-103 is ≥ 2^-126); the matmul's
 * products and their sums the same way; softmax's exp(x − max) / Σ per row (x − max ≥ −87.3 + ln(4 · the row's
 * length), or below −104.7, where exp underflows to 0 on both). Steps the GPU computes only approximately (division,
 * sqrt, exp, log, pow, and the functions it computes with helpers of its own: expm1, sin…) get a factor-2 margin. The to-dense scatters only copy their screened values. Else the call
 * runs on the JS kernels.
 *
 * Textures: every gpu.js kernel's output and array arguments are textures, whose sides the device caps
 * (MAX_TEXTURE_SIZE: 16384 on desktops, 4096 on many phones). The matmul computes a product past it in tiles, and
 * reads a dense operand whose transpose would pass it untransposed; a call that still needs a longer side (an output
 * or argument of about the limit squared values) runs on the JS kernels (gpu-context.ts checks each kernel before it
 * runs).
 *
 * Ops whose spec says `dispatch: {gpu: js}` are delegated whole: DELEGATED_OPS.
 */

import { magnitude } from '@sparse/kernel-abi';

const { MIN_NORMAL } = magnitude;

export const REASONS = {
  notFloat32: (dtype: string) =>
    `the GPU computes float32 (and int32 where float32 is exact); ${dtype} values ran on the JS kernels (never rounded to float32)`,
  int32Range:
    'int32 values that a step of this call could take past 2^24, the integers float32 holds exactly (a host-side bound on every step): ran on the JS kernels, exact in int32',
  int32NotArithmetic: (what: string) => `int32 ${what} is not float arithmetic: ran on the JS kernels, exact in int32`,
  nonFinite:
    'float32 inputs holding inf, nan or a subnormal: WebGL does not promise IEEE special values and flushes subnormals to zero, ran on the JS kernels',
  nonFiniteResult:
    'the GPU result held inf, nan or the largest float32 (where GLSL has no infinity, leaves the result undefined, or a function was given an argument past the range the GPU computes it in within its precision rule), which WebGL does not promise to compute as IEEE does: rerun on the JS kernels',
  subnormal:
    'a step of this float32 call could take a subnormal value (nonzero, below 2^-126; a host-side bound on every step), which GPUs flush to zero: ran on the JS kernels, which keep it',
  textureLimit: (limit: number) =>
    `this call needs a texture side past this GPU's limit of ${limit} (MAX_TEXTURE_SIZE): ran on the JS kernels`,
  tooBig:
    'a buffer or offset of this call passes 2^24, beyond the integers a float texture holds exactly: ran on the JS kernels',
  repeatedEntries:
    'sparse ⊕ dense where entries meet at one dense offset (a repeated index or a broadcast dense operand) and combine in turn: ran on the JS kernels',
  notPorted: 'this op has no GPU kernel (its spec runs it on the JS kernels here): ran on the JS kernels',
} as const;

/** Integers up to here are exact in float32 (and in float textures). */
export const EXACT_INT = 2 ** 24;

/** Whether every value is one the GPU computes with as IEEE float32 does: finite, and zero or normal. */
function gpuExact(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v) || (v !== 0 && Math.abs(v) < MIN_NORMAL)) return false;
  }
  return true;
}

/** Whether every value is finite and below the largest float32 (else a GPU result is rerun on the JS kernels). */
export function allFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!(Math.abs(values[i]) < FLOAT32_MAX)) return false;
  return true;
}

/**
 * The largest float32. The generated kernels write it for inf and the limits (GLSL ES has no infinity) and for
 * results GLSL leaves undefined, and a GPU may clamp an infinity to it: a result that reaches it is not trusted.
 */
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * How a kernel bounds its own call: for float32, why a step could take a subnormal value (subnormal-bound.ts; a
 * kernel that only copies values has no such step); for int32, if the kernel computes int32 as float32, why a step
 * could be inexact (int32-route.ts). Each returns the reason, or undefined if the GPU can take the call.
 */
export interface CallBounds {
  float32: () => string | undefined;
  int32?: () => string | undefined;
}

/**
 * Why the GPU cannot take these operands, or undefined if it can: a dtype other than float32 (or int32, for a
 * kernel that says when its int32 values are exact), a buffer past exact integer offsets, then for float32 a value
 * WebGL may not keep and the kernel's subnormal bound, and for int32 the kernel's own bound (the declared rules
 * above, in their order).
 */
export function gpuRefusal(dtype: string, buffers: ArrayLike<number>[], bounds: CallBounds): string | undefined {
  if (dtype !== 'float32' && !(dtype === 'int32' && bounds.int32)) return REASONS.notFloat32(dtype);
  if (buffers.some((b) => b.length > EXACT_INT)) return REASONS.tooBig;
  if (dtype === 'int32') return bounds.int32!();
  if (!buffers.every((b) => gpuExact(b))) return REASONS.nonFinite;
  return bounds.float32();
}
