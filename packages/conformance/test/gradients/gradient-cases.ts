import type { LoadedSpec } from '@sparse/codegen';
import { CsrMatrix, SparseTensor, Tensor, run, tensor, type DType } from '@sparse/runtime';
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
  /** The float dtypes the op allows them in. */
  floats: FloatDType[];
  /**
   * The arguments its gradient is checked at, as runtime arguments in a float dtype on which the op runs: each of
   * the op's examples and its derived gradient's examples (without `grad`) that succeeds, an example of integer
   * values taken in the op's first float dtype.
   */
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

/** A tensor of any kind: its values are what a gradient is of. */
type AnyTensor = SparseTensor | Tensor | CsrMatrix;
const isTensor = (v: unknown): v is AnyTensor =>
  v instanceof SparseTensor || v instanceof Tensor || v instanceof CsrMatrix;

/** The same tensor with other values, in `dtype`. */
function rebuilt(v: AnyTensor, values: number[], dtype: DType): AnyTensor {
  if (v instanceof SparseTensor) return new SparseTensor(v.indices, values, v.shape, dtype);
  if (v instanceof CsrMatrix) return new CsrMatrix(v.rowPointers, v.colIndices, values, v.shape, dtype);
  return tensor(values, dtype, [...v.shape]);
}

/** The dtype of an example's differentiable tensors, where one is a tensor. */
function dtypeOf(args: Args, wrt: string[]): string | undefined {
  for (const a of wrt) {
    const v = [args[a]].flat()[0];
    if (isTensor(v)) return v.dtype;
  }
  return undefined;
}

/** A tensor argument in another dtype (a plain value taken as a dense tensor of it). */
function inDType(v: unknown, dtype: FloatDType): unknown {
  if (Array.isArray(v) && v.some(isTensor)) return v.map((x) => inDType(x, dtype));
  if (isTensor(v)) return rebuilt(v, valuesOf(v), dtype);
  return tensor(v as number[], dtype);
}

/** An example's arguments with its differentiable tensors, and those of their dtype variables, in `dtype`. */
function exampleIn(spec: LoadedSpec, args: Args, wrt: string[], dtype: FloatDType): Args {
  const vars = new Set(wrt.map((w) => spec.args.find((a) => a.name === w)?.dtype));
  const out: Args = { ...args };
  for (const a of spec.args) {
    // A differentiable scalar (a default_value) as a rank-0 tensor, whose one value a gradient is of; absent, its
    // default zero.
    if (a.type === 'scalar' && wrt.includes(a.name)) {
      const x = args[a.name] ?? (a.default === 'zero' ? 0 : undefined);
      if (typeof x === 'number' || typeof x === 'boolean') out[a.name] = tensor([Number(x)], dtype, []);
      else if (x instanceof Tensor) out[a.name] = rebuilt(x, valuesOf(x), dtype);
      continue;
    }
    const v = args[a.name];
    if (v === undefined || v === null || !vars.has(a.dtype)) continue;
    if (!['sparse', 'dense', 'sparse_or_dense', 'sparse_list', 'csr'].includes(a.type)) continue;
    out[a.name] = inDType(v, dtype);
  }
  return out;
}

/** Whether the op runs on these arguments (on the default runtime, js): an example that does is checked. */
function runs(op: string, args: Args): boolean {
  try {
    run(op, args);
    return true;
  } catch {
    return false;
  }
}

function differentiable(spec: LoadedSpec): DifferentiableOp {
  const wrt = Object.keys(spec.gradientOf!.outputs);
  const dtypeVar = spec.args.find((a) => a.name === wrt[0])?.dtype;
  const allowed: readonly string[] = (dtypeVar && spec.dtypes[dtypeVar]) || [dtypeVar ?? ''];
  const floats = (['float32', 'float64'] as const).filter((d) => allowed.includes(d));
  const gradientExamples = SPECS.find((s) => s.name === spec.gradientOf!.op && s.derived)?.examples ?? [];
  const sources = [...spec.examples, ...gradientExamples.map((ex) => ({ ...ex, name: `gradient ${ex.name}` }))];
  const examples = sources.flatMap((ex) => {
    if (ex.expect_error || !floats.length) return [];
    let args: Args;
    try {
      const { grad: _, ...forward } = ex.args as Args;
      args = toRuntimeArgs(forward);
    } catch {
      return [];
    }
    if (hasWideDims(args)) return [];
    const own = dtypeOf(args, wrt);
    const dtype = own && isFloat(own) && floats.includes(own) ? own : floats[0];
    const converted = exampleIn(spec, args, wrt, dtype);
    return runs(spec.name, converted) ? [{ name: ex.name, dtype, args: converted }] : [];
  });
  return { spec, wrt, floats, examples };
}

export const DIFFERENTIABLE: DifferentiableOp[] = SPECS.filter((s) => s.gradientOf).map(differentiable);

/**
 * `args` with every differentiable tensor's values redrawn in `dtype`, magnitudes in [1, 2) (away from 0, where
 * abs, sign, max and min are not smooth, and continuous, so no two tie; [0.1, 0.9) for `unit`), signs random
 * except where `positive` (RANGE).
 */
export function redrawn(op: string, args: Args, wrt: string[], dtype: FloatDType, r: Rng): Args {
  const out: Args = { ...args };
  const draw = (range?: 'positive' | 'unit') => () =>
    (range === 'positive' || r.next() < 0.5 ? 1 : -1) * (range === 'unit' ? 0.1 + 0.8 * r.next() : 1 + r.next());
  for (const a of wrt) out[a] = withValues(args[a], dtype, draw(RANGE[op]?.[a]));
  // Other float tensors (a dense operand with no gradient here) take the dtype too.
  for (const [name, v] of Object.entries(args))
    if (!wrt.includes(name)) out[name] = withValues(v, dtype, undefined, true);
  return out;
}

/** The same arguments in float64 (float32 values are exact in float64): where finite differences are taken. */
export function inFloat64(args: Args): Args {
  return Object.fromEntries(Object.entries(args).map(([name, v]) => [name, withValues(v, 'float64', undefined, true)]));
}

/**
 * A tensor argument (or a list of SparseTensors) in `dtype`, its values drawn by `next` where given; with
 * `floatOnly`, anything but a float tensor is left as it is.
 */
function withValues(v: unknown, dtype: FloatDType, next?: () => number, floatOnly = false): unknown {
  if (Array.isArray(v)) return v.map((x) => withValues(x, dtype, next, floatOnly));
  if (!isTensor(v) || (floatOnly && !isFloat(v.dtype))) return v;
  return rebuilt(v, next ? valuesOf(v).map(next) : valuesOf(v), dtype);
}

/** The values of a differentiable argument, flat: a tensor's stored values (a dense one's data), a list's in turn. */
export function valuesOf(v: unknown): number[] {
  if (Array.isArray(v)) return v.flatMap(valuesOf);
  if (v instanceof Tensor) return Array.from(v.dataSync() as ArrayLike<number | bigint>, Number);
  if (isTensor(v)) return Array.from(v.values as ArrayLike<number | bigint>, Number);
  return [];
}

/** `args` with value k of argument `name` (counting through a list's tensors in turn) replaced. */
export function withValue(args: Args, name: string, k: number, x: number): Args {
  let skip = k;
  const replace = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(replace);
    const values = valuesOf(v);
    if (skip < 0 || skip >= values.length) {
      skip -= values.length;
      return v;
    }
    values[skip] = x;
    skip = -1;
    return rebuilt(v as AnyTensor, values, (v as AnyTensor).dtype);
  };
  return { ...args, [name]: replace(args[name]) };
}
