import { DELEGATED } from './generated/kernel-types.js';

type Outputs = Record<string, unknown>;

/** Runs the JS backend's kernel instead, saying so in the outputs (reported as `delegated`, never as `passed`). */
export function delegate(jsKernel: (args: never) => Outputs, args: unknown, reason: string): Outputs {
  return { ...jsKernel(args as never), [DELEGATED]: reason };
}

export const WIDE_DIMS = 'a dim exceeds 2^31-1, so its indices do not fit i32 in WebAssembly: ran on the JS kernels';
