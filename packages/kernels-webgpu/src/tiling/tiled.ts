import { delegation, isDelegation, type KernelResult } from '@sparse/kernel-abi';
import type { WebGpuContext } from '../context.js';
import { REASONS } from '../delegation.js';
import type { Args, JsKernel, Kernel } from '../kernel.js';
import { BindingLimitError } from './binding-limit.js';
import { TILINGS } from './rules.js';
import { halve, join } from './tiling.js';

/**
 * An op's kernel that tiles a call too large for the device's bindings: where the kernel finds a buffer past the
 * limit (BindingLimitError), the call is cut in two by its op's tiling (rules.ts) and each half run the same way, so
 * a call ends as pieces that each fit, their results put back together on the host. A call its op cannot cut, or
 * cut far enough, runs on the JS kernels, saying so. A piece that ran on the JS kernels (an inf in its result, say)
 * makes the whole call reported as delegated, with that piece's reason.
 */
export function tiled(ctx: WebGpuContext, op: string, kernel: Kernel, js: JsKernel): Kernel {
  const rule = TILINGS[op];
  const run = async (args: Args): Promise<KernelResult<Args>> => {
    try {
      return await kernel(args);
    } catch (e) {
      if (!(e instanceof BindingLimitError)) throw e;
      // What the kernel recorded before it found the limit must not run.
      ctx.discardRecorded();
    }
    const tiling = rule?.(args, ctx.maxBindingBytes);
    const pieces = tiling && halve(tiling, args);
    if (!pieces) return delegation(js(args), REASONS.bindingLimit(ctx.maxBindingBytes));
    const results: KernelResult<Args>[] = [];
    for (const piece of pieces) results.push(await run(piece.args));
    const outputs = join(
      tiling,
      args,
      pieces,
      results.map((r) => (isDelegation(r) ? r.outputs : r)),
    );
    const delegated = results.find(isDelegation);
    return delegated ? delegation(outputs, delegated.reason) : outputs;
  };
  return run;
}
