import fc from 'fast-check';
import type { ArgSpec, LoadedSpec } from '@sparse/codegen';
import type { Case } from '../../src/index.js';
import { isDenseForm, isSparseForm } from '@sparse/case-format';
import { flattenNested, nest } from './grid.js';
import { ANY_DTYPES, anyValueArb, type AnyDType } from './reshaping-arbitraries.js';

// Random arguments for any op, made from the op's own spec examples, so that they are mostly valid without knowing
// what the op does: an example's arguments with entries dropped, values redrawn or nudged, dtypes switched among
// those the spec allows, flags flipped and whole numbers moved by one. Some come out invalid; the reference backend
// says which, and every backend must refuse those as it does.

const isInt = (dtype: string) => dtype === 'int32' || dtype === 'int64';

/** A value moved by one: a number, or an int64 spelled in digits. */
function nudged(v: unknown): fc.Arbitrary<unknown> {
  if (typeof v === 'number') return fc.constantFrom(v - 1, v + 1);
  if (typeof v === 'string' && /^-?\d+$/.test(v))
    return fc.constantFrom((BigInt(v) - 1n).toString(), (BigInt(v) + 1n).toString());
  return fc.constant(v);
}

/**
 * A tensor value, once its dtype went from `from` to `to`: kept or redrawn; a whole number may also move by one
 * (whole numbers are often positions, where a small move keeps most of them valid). Between dtypes that do not share
 * their values (not both integers) it is always redrawn.
 */
function redrawn(v: unknown, from: string, to: AnyDType): fc.Arbitrary<unknown> {
  const fresh = anyValueArb(to);
  if (from !== to && !(isInt(from) && isInt(to))) return fresh;
  return isInt(to)
    ? fc.oneof({ weight: 2, arbitrary: fc.constant(v) }, nudged(v), fresh)
    : fc.oneof(fc.constant(v), fresh);
}

const eachOf = <T>(items: readonly T[], f: (x: T) => fc.Arbitrary<unknown>) => fc.tuple(...items.map(f));

/** A SparseTensor form with some entries dropped (the rest keep their order) and its values redrawn. */
function mutatedSparse(form: Record<string, unknown>, to: AnyDType): fc.Arbitrary<unknown> {
  const s = form.sparse as { indices: unknown[]; values: unknown[]; dense_shape: unknown };
  const from = String(form.dtype);
  const entries = s.values.map((_, i) => i);
  return fc
    .oneof(fc.constant(entries), fc.subarray(entries))
    .chain((kept) => eachOf(kept, (i) => redrawn(s.values[i], from, to)).map((values) => ({ kept, values })))
    .map(({ kept, values }) => ({
      sparse: { indices: kept.map((i) => s.indices[i]), values, dense_shape: s.dense_shape },
      dtype: to,
    }));
}

/** A dense tensor form (or a plain value of a tensor argument) with its values redrawn, in dtype `to`. */
function mutatedDense(value: unknown, from: string, to: AnyDType): fc.Arbitrary<unknown> {
  const nested = isDenseForm(value) ? value.dense : value;
  const { flat, shape } = flattenNested(nested);
  const given = isDenseForm(value) && Array.isArray(value.shape) ? (value.shape as number[]) : shape;
  return eachOf(flat, (v) => redrawn(v, from, to)).map((data) => ({
    dense: nest(data, given),
    shape: given,
    dtype: to,
  }));
}

/** The dtype of the tensor forms in an argument's example value, if it has any. */
function dtypeOfValue(value: unknown): string | undefined {
  if (isSparseForm(value) || isDenseForm(value)) return String(value.dtype);
  if (Array.isArray(value)) return value.map(dtypeOfValue).find((d) => d !== undefined);
  return undefined;
}

/** The dtype a plain value becomes when nothing else decides it, as TensorFlow converts Python values. */
function plainDType(v: unknown): string {
  const first = flattenNested(v).flat[0];
  if (typeof first === 'number') return Number.isInteger(first) ? 'int32' : 'float32';
  return typeof first === 'boolean' ? 'bool' : 'string';
}

const TENSOR_TYPES = new Set([
  'sparse',
  'sparse_or_null',
  'dense',
  'scalar',
  'sparse_or_dense',
  'sparse_list',
  'sparse_or_sparse_list',
]);

/** One argument's value, mutated after its kind; `to` is the dtype its tensors take. */
function mutatedArg(arg: ArgSpec, value: unknown, to: AnyDType | undefined): fc.Arbitrary<unknown> {
  if (TENSOR_TYPES.has(arg.type) && to !== undefined && value !== null) {
    const tensor = (v: unknown): fc.Arbitrary<unknown> => {
      if (isSparseForm(v)) return mutatedSparse(v, to);
      if (isDenseForm(v)) return mutatedDense(v, String(v.dtype), to);
      if (Array.isArray(v) && v.some((x) => isSparseForm(x) || isDenseForm(x))) return eachOf(v, tensor);
      return mutatedDense(v, plainDType(v), to);
    };
    return tensor(value);
  }
  switch (arg.type) {
    case 'bool':
      return fc.boolean();
    case 'dtype':
      // The dtype its variable takes: the output's dtype.
      return fc.constant(to ?? value);
    case 'int':
    case 'int_list':
    case 'int_or_int_list':
    case 'shape':
    case 'axes': {
      const numbers = [value].flat();
      if (numbers.length === 0 || !numbers.every((x) => typeof x === 'number')) return fc.constant(value);
      const moved = fc
        .nat({ max: numbers.length - 1 })
        .chain((k) => nudged(numbers[k]).map((x) => numbers.map((y, i) => (i === k ? x : y))))
        .map((xs) => (Array.isArray(value) ? xs : xs[0]));
      return fc.oneof({ weight: 3, arbitrary: fc.constant(value) }, moved);
    }
    default:
      return fc.constant(value);
  }
}

/** Random arguments of the op from its examples (those with `expect`, which every op has). */
export function mutatedExampleArb(spec: LoadedSpec): fc.Arbitrary<Case> {
  const examples = spec.examples.filter((e) => e.expect !== undefined);
  return fc.constantFrom(...examples).chain((ex) => {
    const argOf = (name: string) => spec.args.find((a) => a.name === name || a.aliases?.includes(name));
    // Each dtype variable keeps the example's dtype, or (one time in three) takes another the spec allows.
    const current = (v: string) =>
      Object.entries(ex.args)
        .map(([k, x]) => (argOf(k)?.dtype !== v ? undefined : argOf(k)?.type === 'dtype' ? String(x) : dtypeOfValue(x)))
        .find(Boolean);
    const vars = Object.entries(spec.dtypes).map(([v, allowed]) => {
      const now = current(v);
      const pick = fc.constantFrom(...(allowed as AnyDType[]));
      return (now ? fc.oneof({ weight: 2, arbitrary: fc.constant(now as AnyDType) }, pick) : pick).map(
        (d) => [v, d] as const,
      );
    });
    return fc.tuple(...vars).chain((chosen) => {
      const dtypeOf = (arg: ArgSpec): AnyDType | undefined => {
        if (arg.dtype === undefined) return undefined;
        if ((ANY_DTYPES as string[]).includes(arg.dtype)) return arg.dtype as AnyDType;
        return chosen.find(([v]) => v === arg.dtype)?.[1];
      };
      const names = Object.keys(ex.args);
      return eachOf(names, (k) => {
        const arg = argOf(k);
        return arg ? mutatedArg(arg, ex.args[k], dtypeOf(arg)) : fc.constant(ex.args[k]);
      }).map((values): Case => ({
        op: spec.name,
        name: `from ${ex.name}`,
        args: Object.fromEntries(names.map((k, i) => [k, values[i]])),
      }));
    });
  });
}
