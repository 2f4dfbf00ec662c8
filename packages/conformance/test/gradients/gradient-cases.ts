import type { LoadedSpec } from '@sparse/codegen';
import { SparseTensor, Tensor, tensor, type DType } from '@sparse/runtime';
import type { Rng } from '@sparse/test-kit/seeded-random';
import { toRuntimeArgs } from '../../src/index.js';
import { SPECS } from '../properties/spec-ops.js';

// The differentiable ops of the specs and the arguments their gradients are checked at: each forward example
// computing in a float dtype, its differentiable tensors' values redrawn (or kept, for the analytic check).

export type FloatDType = 'float32' | 'float64';
export type Args = Record<string, unknown>;

/** An op whose spec declares a gradient, with the arguments the gradient is taken for. */
export interface DifferentiableOp {
  spec: LoadedSpec;
  /** The arguments with a gradient (the keys of the spec's gradient outputs). */
  wrt: string[];
  /** Its examples that compute in a float dtype and succeed, as runtime arguments in kernel-ready form. */
  examples: { name: string; dtype: FloatDType; args: Args }[];
}

/**
 * Where an argument's values are drawn for the op to be smooth there, besides away from 0: positive for a square
 * root's, a log1p's and a power's base (its exponent's gradient is log(base)) and an embedding's weights (a mean's
 * divisor); within (-1, 1) for asin and atanh (their domain) and tan (away from its poles).
 */
const RANGE: Record<string, Record<string, 'positive' | 'unit'>> = {
  sparse_sqrt: { sp_input: 'positive' },
  sparse_log1p: { sp_input: 'positive' },
  sparse_dense_cwise_pow: { sp_input: 'positive' },
  embedding_lookup_sparse: { sp_weights: 'positive' },
  sparse_asin: { sp_input: 'unit' },
  sparse_atanh: { sp_input: 'unit' },
  sparse_tan: { sp_input: 'unit' },
};

const isFloat = (d: string): d is FloatDType => d === 'float32' || d === 'float64';

/** Whether a SparseTensor argument has a dim past 2^53 - 1 (gradient ops take none: an InvalidArgumentError). */
const hasWideDims = (args: Args) =>
  Object.values(args).some(
    (v) => v instanceof SparseTensor && v.exactShape.some((d) => BigInt(d) > BigInt(Number.MAX_SAFE_INTEGER)),
  );

/** The float dtype of an example: that of its first differentiable tensor. */
function dtypeOf(args: Args, wrt: string[]): string | undefined {
  for (const a of wrt) {
    const v = args[a];
    if (v instanceof SparseTensor || v instanceof Tensor) return v.dtype;
  }
  return undefined;
}

export const DIFFERENTIABLE: DifferentiableOp[] = SPECS.filter((s) => s.gradientOf).map((spec) => {
  const wrt = Object.keys(spec.gradientOf!.outputs);
  const examples = spec.examples.flatMap((ex) => {
    if (ex.expect_error) return [];
    let args: Args;
    try {
      args = toRuntimeArgs(ex.args);
    } catch {
      return [];
    }
    const dtype = dtypeOf(args, wrt);
    if (!dtype || !isFloat(dtype) || hasWideDims(args)) return [];
    // A differentiable argument given as plain values is a dense tensor of the example's dtype.
    for (const a of wrt)
      if (args[a] !== null && !(args[a] instanceof SparseTensor || args[a] instanceof Tensor))
        args[a] = tensor(args[a] as number[], dtype);
    return [{ name: ex.name, dtype, args }];
  });
  return { spec, wrt, examples };
});

/**
 * `args` with every differentiable tensor's values redrawn in `dtype`, magnitudes in [1, 2) (away from 0, where
 * abs, sign, max and min are not smooth, and continuous, so no two tie; [0.1, 0.9) for `unit`), signs random
 * except where `positive` (RANGE).
 */
export function redrawn(op: string, args: Args, wrt: string[], dtype: FloatDType, r: Rng): Args {
  const out: Args = { ...args };
  const draw = (range?: 'positive' | 'unit') => () =>
    (range === 'positive' || r.next() < 0.5 ? 1 : -1) * (range === 'unit' ? 0.1 + 0.8 * r.next() : 1 + r.next());
  for (const a of wrt) {
    const v = args[a];
    const next = draw(RANGE[op]?.[a]);
    if (v instanceof SparseTensor)
      out[a] = new SparseTensor(v.indices, Array.from(v.values as Float64Array, next), v.shape, dtype);
    else if (v instanceof Tensor) out[a] = tensor(Array.from(v.data as Float64Array, next), dtype, [...v.shape]);
  }
  // Other float tensors (a dense operand with no gradient here) take the dtype too.
  for (const [name, v] of Object.entries(args)) {
    if (wrt.includes(name)) continue;
    if (v instanceof SparseTensor && isFloat(v.dtype))
      out[name] = new SparseTensor(v.indices, Array.from(v.values as Float64Array), v.shape, dtype);
    else if (v instanceof Tensor && isFloat(v.dtype))
      out[name] = tensor(Array.from(v.data as Float64Array), dtype, [...v.shape]);
  }
  return out;
}

/** The same arguments in float64 (float32 values are exact in float64): where finite differences are taken. */
export function inFloat64(args: Args): Args {
  return Object.fromEntries(
    Object.entries(args).map(([name, v]) => {
      if (v instanceof SparseTensor && isFloat(v.dtype))
        return [name, new SparseTensor(v.indices, Array.from(v.values as Float64Array), v.shape, 'float64')];
      if (v instanceof Tensor && isFloat(v.dtype))
        return [name, tensor(Array.from(v.data as Float64Array), 'float64', [...v.shape])];
      return [name, v];
    }),
  );
}

/** The values of a differentiable argument, flat: a SparseTensor's stored values, a Tensor's data. */
export function valuesOf(v: unknown): number[] {
  if (v instanceof SparseTensor) return Array.from(v.values as Float64Array);
  if (v instanceof Tensor) return Array.from(v.data as Float64Array);
  return [];
}

/** `args` with value k of argument `name` replaced. */
export function withValue(args: Args, name: string, k: number, x: number): Args {
  const v = args[name];
  const values = valuesOf(v);
  values[k] = x;
  if (v instanceof SparseTensor) return { ...args, [name]: new SparseTensor(v.indices, values, v.shape, v.dtype) };
  return { ...args, [name]: tensor(values, (v as Tensor).dtype as DType, [...(v as Tensor).shape]) };
}
