import { delegation, type Delegation } from '@sparse/kernel-abi';

/** Runs the JS backend's kernel instead, saying so (reported as `delegated`, never as `passed`). */
export function delegate<A, O>(jsKernel: (args: A) => O, args: A, reason: string): Delegation<O> {
  return delegation(jsKernel(args), reason);
}
