import { DELEGATED } from '@sparse/kernel-abi';

type Outputs = Record<string, unknown>;

/** Runs the JS backend's kernel instead, saying so in the outputs (reported as `delegated`, never as `passed`). */
export function delegate(jsKernel: (args: never) => Outputs, args: unknown, reason: string): Outputs {
  return { ...jsKernel(args as never), [DELEGATED]: reason };
}
