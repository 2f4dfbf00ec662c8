import { expect } from 'vitest';
import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { backend, onGpu, onJs, type Args } from './backend.js';

// How the webgpu backend's tests compare results with the JS kernels'.

type Plainable = SparseData | DenseData | Plainable[];

/** A result as comparable plain data: float32 and int32 by their words (nan, -0 included), others as they are. */
export function plain(x: Plainable): unknown {
  if (Array.isArray(x)) return x.map(plain);
  const words = (v: unknown) =>
    v instanceof Float32Array || v instanceof Int32Array ? Array.from(new Uint32Array(v.slice().buffer)) : v;
  if (x.kind === 'sparse')
    return { ...x, indices: Array.from(x.indices), values: words(x.values), store: x.values.constructor.name };
  return { ...x, data: words(x.data), store: x.data.constructor.name };
}

/**
 * Runs op on the GPU, which must not delegate, and compares its `output` with js's by `mismatch` (where they differ,
 * or undefined); `submits`: GPU submissions expected. Returns the GPU's output.
 */
export async function expectOutputMatchesJs<T>(
  op: string,
  args: Args,
  mismatch: (got: T, want: T) => string | undefined,
  submits = 1,
): Promise<T> {
  const before = backend.submissions();
  const { outputs, reason } = await onGpu<{ output: T }>(op, args);
  expect(reason).toBeUndefined();
  expect(mismatch(outputs.output, onJs<{ output: T }>(op, args).output)).toBeUndefined();
  expect(backend.submissions() - before).toBe(submits);
  return outputs.output;
}
