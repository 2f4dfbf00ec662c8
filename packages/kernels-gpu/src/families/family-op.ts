import type { DType, Scalar } from '../generated/kernel-types.js';

/** What the host needs of an expression-family op to lay out and call its GPU kernel (generated: family-ops.ts). */
export interface FamilyOp {
  family: 'cwise' | 'merge' | 'reduce' | 'map';
  roles: { sparse?: string; dense?: string; a?: string; b?: string; axes?: string; keepdims?: string; scalars: string[] };
  dtypes: DType[];
  output: string;
  outputKind: 'dense' | 'sparse';
}

/** The scalar arguments as float32 kernel parameters. */
export function scalarArgs(meta: FamilyOp, args: Record<string, unknown>): number[] {
  return meta.roles.scalars.map((s) => Number(args[s] as Scalar));
}
