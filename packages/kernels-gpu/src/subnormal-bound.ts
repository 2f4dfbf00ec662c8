import { familyMayBeSubnormal, magnitude as M, productsMayBeSubnormal } from '@sparse/kernel-abi';
import type { GpuFamilySource } from './generated/families.js';
import { REASONS } from './delegation.js';

export { magnitudesOf } from '@sparse/kernel-abi';

/**
 * The subnormal bound: a float32 call runs on the GPU only where a bound computed on the host shows that no step of
 * it can take a subnormal value (nonzero, below 2^-126 in magnitude), which GPUs flush to zero where the JS kernels
 * keep it. The family ops' bounds are their spec expressions evaluated over the magnitudes of their operands
 * (generated: codegen/src/expr/emit-magnitude.ts → src/generated/families.ts, over kernel-abi's magnitude.ts, the
 * bound shared with the webgpu backend); the hand-written kernels' are below. Each takes one pass over the operands. The inputs are screened before (finite,
 * zero or normal: delegation.ts).
 */

/**
 * Why a float32 family call could take a subnormal value, or undefined if it cannot (kernel-abi's
 * familyMayBeSubnormal, as this backend's reason).
 */
export function subnormalFamilyRefusal(
  src: GpuFamilySource,
  operands: M.Maybe[],
  scalars: number[],
  longest = 0,
): string | undefined {
  return familyMayBeSubnormal(src, operands, scalars, longest) ? REASONS.subnormal : undefined;
}

/** sparse × dense: every output element is a float32 sum of products of a stored value and a dense value. */
export function subnormalMatmulRefusal(values: ArrayLike<number>, dense: ArrayLike<number>): string | undefined {
  return productsMayBeSubnormal(values, dense) ? REASONS.subnormal : undefined;
}

/** Where exp(x − max) is below 2^-151: the JS kernels round it to 0 in float32, and a GPU flushes it, so both give 0. */
const LN_UNDERFLOW = Math.log(2 ** -151);

/**
 * softmax, each innermost row (entries rowStart[r] .. rowStart[r+1]) as exp(x − max) · (1 / Σ exp(x − max)): the sum
 * is within [1, the row's length], so each entry's value and its exp are at least exp(x − max) / length, which must
 * stay normal with a factor-2 margin for each of the GPU's exp and reciprocal, unless exp(x − max) underflows on both
 * (a masked logit, x − max below about −104.7). x − max itself is subnormal where x and max are both below 2^-103,
 * but float32's exp of it is 1 either way.
 */
export function subnormalSoftmaxRefusal(
  values: ArrayLike<number>,
  rowStart: ArrayLike<number>,
  rows: number,
): string | undefined {
  for (let r = 0; r < rows; r++) {
    const [start, end] = [rowStart[r], rowStart[r + 1]];
    let max = values[start];
    for (let p = start + 1; p < end; p++) max = Math.max(max, values[p]);
    // exp(x − max) / (4 · length) ≥ 2^-126 where x − max ≥ lnNormal
    const lnNormal = Math.log(4 * (end - start) * M.MIN_NORMAL);
    for (let p = start; p < end; p++) {
      const d = values[p] - max;
      if (d < lnNormal && d >= LN_UNDERFLOW) return REASONS.subnormal;
    }
  }
  return undefined;
}
