import type { Scalar } from '@sparse/kernel-abi';
import type { FamilyOp } from '../generated/family-ops.js';

/** The scalar arguments as float32 kernel parameters. */
export function scalarArgs(meta: FamilyOp, args: Record<string, unknown>): number[] {
  return meta.roles.scalars.map((s) => Number(args[s] as Scalar));
}
