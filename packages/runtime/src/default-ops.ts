import type { SparseOps } from './generated/ops-api.js';
import type { JsSideOps } from './map-values.js';

let ops: SparseOps | undefined;

/**
 * The ops of the default runtime, for SparseTensor's methods (`st.toDense()`). Set by default-runtime.ts, which
 * needs SparseTensor itself (through the runtime), so SparseTensor reaches it through this module, not by import.
 */
export function defaultOps(): SparseOps {
  if (!ops) throw new Error('the default runtime is not loaded: import SparseTensor from @sparse/runtime');
  return ops;
}

export function setDefaultOps(o: SparseOps): void {
  ops = o;
}

let sideOps: JsSideOps | undefined;

/** The JS-side ops (`coalesce`), for SparseTensor's methods: set with the default ops, for the same reason. */
export function jsSideOps(): JsSideOps {
  if (!sideOps) throw new Error('the default runtime is not loaded: import SparseTensor from @sparse/runtime');
  return sideOps;
}

export function setJsSideOps(o: JsSideOps): void {
  sideOps = o;
}
