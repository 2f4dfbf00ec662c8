import { nest, type NumericDType } from './grid.js';
import type { Num } from './dtype-arithmetic.js';

// The tensors the expression-family oracles compute on, and their spelling in a case (docs/cases.md).

export interface NumSparse {
  indices: number[][];
  values: Num[];
  shape: number[];
}

/** A value as a case spells it: nan and the infinities as strings, int64 past 2^53 as digits. */
export function caseValue(v: Num): number | string {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return v;
}

export const sparseCase = (t: NumSparse, dtype: NumericDType) => ({
  sparse: { indices: t.indices, values: t.values.map(caseValue), dense_shape: t.shape },
  dtype,
});

/** A dense tensor of row-major `data`; the shape is given too, since nesting cannot show a dim of 0. */
export const denseCase = (data: readonly Num[], shape: number[], dtype: NumericDType) => ({
  dense: nest(data.map(caseValue), shape),
  shape,
  dtype,
});

/** A rank-0 tensor of the dtype, so the scalar's dtype is explicit (an int64 past 2^53 included). */
export const scalarCase = (v: Num, dtype: NumericDType) => ({ dense: caseValue(v), dtype });
