/**
 * The one place that declares when the GPU backend hands work to the JS kernels, and why. Such a result is
 * reported as `delegated`, never as `passed`.
 *
 * The GPU computes float32 only (WebGL float textures and shaders): float64, int32, int64, bool and string values
 * are delegated, never rounded to float32. Within float32, a call is delegated when its inputs hold inf, nan or a
 * subnormal, or rerun on the JS kernels when its result holds inf or nan (WebGL does not promise IEEE special
 * values, and GPUs flush subnormals to zero), and when a buffer or an offset would pass 2^24 (float textures hold
 * integers exactly up to there). Ops with no GPU kernel (neither a generated family op nor in index.ts's
 * HAND_WRITTEN) are delegated whole: DELEGATED_OPS, built from delegatedReason below.
 */

export const REASONS = {
  notFloat32: (dtype: string) => `the GPU computes float32 only; ${dtype} values ran on the JS kernels (never rounded to float32)`,
  nonFinite: 'float32 inputs holding inf, nan or a subnormal: WebGL does not promise IEEE special values and flushes subnormals to zero, ran on the JS kernels',
  nonFiniteResult: 'the GPU result held inf or nan, which WebGL does not promise to compute as IEEE does: rerun on the JS kernels',
  tooBig: 'a buffer or offset of this call passes 2^24, beyond the integers a float texture holds exactly: ran on the JS kernels',
  repeatedEntries: 'sparse ⊕ dense where entries meet at one dense offset (a repeated index or a broadcast dense operand) and combine in turn: ran on the JS kernels',
  notPorted: 'not ported to the GPU yet: ran on the JS kernels',
  familyNotPorted: (family: string) => `a ${family} family op: its GPU driver is not ported yet, ran on the JS kernels`,
} as const;

/** The reason an op with no GPU kernel runs on the JS kernels whole. */
export function delegatedReason(family: string | undefined): string {
  return family ? REASONS.familyNotPorted(family) : REASONS.notPorted;
}

/** Integers up to here are exact in float32 (and in float textures). */
export const EXACT_INT = 2 ** 24;

const MIN_NORMAL = 2 ** -126;

/** Whether every value is one the GPU computes with as IEEE float32 does: finite, and zero or normal. */
export function gpuExact(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v) || (v !== 0 && Math.abs(v) < MIN_NORMAL)) return false;
  }
  return true;
}

/** Whether every value is finite (a GPU result with inf or nan is rerun on the JS kernels). */
export function allFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}

/**
 * Why the GPU cannot take these float32 operands, or undefined if it can: a dtype other than float32, a buffer
 * past exact integer offsets, or a value WebGL may not keep (the declared rules above, in their order).
 */
export function gpuRefusal(dtype: string, buffers: ArrayLike<number>[]): string | undefined {
  if (dtype !== 'float32') return REASONS.notFloat32(dtype);
  if (buffers.some((b) => b.length > EXACT_INT)) return REASONS.tooBig;
  if (!buffers.every((b) => gpuExact(b))) return REASONS.nonFinite;
  return undefined;
}
