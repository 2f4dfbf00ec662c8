import type { DType } from '../generated/kernel-types.js';

/** What the JS side needs of an expression-family op to lay out and call its wasm kernel (generated: family-ops.ts). */
export interface FamilyOp {
  family: 'cwise' | 'merge' | 'reduce' | 'map';
  roles: { sparse?: string; dense?: string; a?: string; b?: string; axes?: string; keepdims?: string; scalars: string[] };
  dtypes: DType[];
  output: string;
  outputKind: 'dense' | 'sparse';
}
