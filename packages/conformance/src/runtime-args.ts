import { SparseTensor, tensor, type DType } from '@sparse/runtime';
import { decodeArgValue, isDenseForm, isRecord, isSparseForm, mapLeaves } from './case-values.js';

/**
 * A case value as a runtime argument: `{sparse}` → SparseTensor, `{dense}` → Tensor, a list → a list of converted
 * items. Plain values (numbers, bools, strings, nested lists, null) pass through unchanged: the runtime converts
 * them as TensorFlow converts Python values, and that conversion is part of what a case tests.
 * Constructors may throw InvalidArgumentError/TypeError; run it where a case's expected error is caught.
 */
export function toRuntimeValue(value: unknown): unknown {
  // Malformed fields go to the runtime as they are: its constructors say what is wrong (as a TypeError).
  if (isSparseForm(value)) {
    const s = isRecord(value.sparse) ? value.sparse : {};
    const values = Array.isArray(s.values) ? s.values.map((v) => decodeArgValue(v, value.dtype)) : s.values;
    return new SparseTensor(
      s.indices as number[][],
      values as unknown[],
      s.dense_shape as number[],
      value.dtype as DType | undefined,
    );
  }
  if (isDenseForm(value)) {
    const nested = mapLeaves(value.dense, (v) => decodeArgValue(v, value.dtype));
    return tensor(nested, value.dtype as DType | undefined, value.shape as number[] | undefined);
  }
  if (Array.isArray(value)) {
    // Plain lists (shapes, axes) come back as they were: only tensor forms inside them change.
    return value.some(containsTensorForm) ? value.map(toRuntimeValue) : value;
  }
  return value;
}

/** Every argument of a case converted by `toRuntimeValue`. */
export function toRuntimeArgs(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([name, value]) => [name, toRuntimeValue(value)]));
}

function containsTensorForm(x: unknown): boolean {
  return isSparseForm(x) || isDenseForm(x) || (Array.isArray(x) && x.some(containsTensorForm));
}
