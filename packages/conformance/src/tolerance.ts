import type { Tolerance } from '@sparse/case-format';

export interface ResolvedTolerance {
  rtol: number;
  atol: number;
}

/** As docs/cases.md gives them: float32 keeps about 7 significant digits, float64 about 16. */
export const DEFAULT_TOLERANCE: Readonly<Record<'float32' | 'float64', ResolvedTolerance>> = {
  float32: { rtol: 1e-5, atol: 1e-6 },
  float64: { rtol: 1e-12, atol: 1e-12 },
};

/** The tolerance for a float dtype: the dtype's default, with whatever the case sets taking its place. */
export function resolveTolerance(dtype: 'float32' | 'float64', override?: Tolerance): ResolvedTolerance {
  const base = DEFAULT_TOLERANCE[dtype];
  return { rtol: override?.rtol ?? base.rtol, atol: override?.atol ?? base.atol };
}

/** `|got - want| <= atol + rtol * |want|`; NaN equals NaN, and an infinity only equals itself. */
export function isClose(got: number, want: number, tol: ResolvedTolerance): boolean {
  if (Number.isNaN(want) || Number.isNaN(got)) return Number.isNaN(want) && Number.isNaN(got);
  if (!Number.isFinite(want) || !Number.isFinite(got)) return got === want;
  return Math.abs(got - want) <= tol.atol + tol.rtol * Math.abs(want);
}
