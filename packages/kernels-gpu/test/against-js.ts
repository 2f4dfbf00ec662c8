import { expect } from 'vitest';
import { isDelegation, type DenseData, type SparseData } from '@sparse/kernel-abi';
import { kernels as jsKernels } from '@sparse/kernels-js';
import type { GpuBackend } from '../src/index.js';

type Args = Record<string, unknown>;
type Outputs = Record<string, unknown>;

/** Calls a GPU kernel: its outputs and, if it handed the call to the JS kernels, why. */
export function runGpu(backend: GpuBackend, op: string, args: Args): { outputs: Outputs; delegated?: string } {
  const result = backend.kernels[op](args);
  return isDelegation(result) ? { outputs: result.outputs, delegated: result.reason } : { outputs: result };
}

/** The JS reference kernel's outputs. */
export function runJs(op: string, args: Args): Outputs {
  return (jsKernels as unknown as Record<string, (a: Args) => Outputs>)[op](args);
}

/** The values of a sparse result, or the data of a dense one, as numbers. */
export function valuesOf(d: unknown): number[] {
  const data = d as SparseData | DenseData;
  return Array.from((data.kind === 'sparse' ? data.values : data.data) as Float32Array);
}

/** Equal within float32 rounding of a few operations: 1e-6 absolute plus 1e-5 relative. */
export function expectClose(got: ArrayLike<number>, want: ArrayLike<number>): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++)
    expect(Math.abs(got[i] - want[i]), `[${i}] ${got[i]} vs ${want[i]}`).toBeLessThanOrEqual(
      1e-6 + 1e-5 * Math.abs(want[i]),
    );
}

/**
 * A GPU result as the JS kernel's: the same kind, dtype, shape and indices, and values equal within float32
 * rounding (expectClose).
 */
export function expectCloseData(got: unknown, want: unknown): void {
  const [g, w] = [got as SparseData | DenseData, want as SparseData | DenseData];
  expect([g.kind, g.dtype, g.shape]).toEqual([w.kind, w.dtype, w.shape]);
  if (g.kind === 'sparse') expect(Array.from(g.indices)).toEqual(Array.from((w as SparseData).indices));
  expectClose(valuesOf(g), valuesOf(w));
}
