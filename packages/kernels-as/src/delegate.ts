import { delegation, type Delegation } from '@sparse/kernel-abi';

type Outputs = Record<string, unknown>;

/** Runs the JS backend's kernel instead, saying so (reported as `delegated`, never as `passed`). */
export function delegate(jsKernel: (args: never) => unknown, args: unknown, reason: string): Delegation<Outputs> {
  return delegation(jsKernel(args as never) as Outputs, reason);
}
