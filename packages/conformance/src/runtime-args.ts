import {
  decodeFloat,
  isCsrForm,
  isDenseForm,
  isDigitString,
  isFloatDType,
  isRecord,
  isSparseForm,
} from '@sparse/case-format';
import { CsrMatrix, SparseTensor, tensor, type DType } from '@sparse/runtime';

/**
 * A case value as a runtime argument: `{sparse}` → SparseTensor, `{dense}` → Tensor, `{csr}` → CsrMatrix, a list → a list of converted
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
      decodeDims(s.indices) as bigint[][],
      values as unknown[],
      decodeDims(s.dense_shape) as bigint[],
      value.dtype as DType | undefined,
    );
  }
  if (isCsrForm(value)) {
    const c = isRecord(value.csr) ? value.csr : {};
    const values = Array.isArray(c.values) ? c.values.map((v) => decodeArgValue(v, value.dtype)) : c.values;
    return CsrMatrix.fromJSON({ ...c, values, dtype: value.dtype } as Parameters<typeof CsrMatrix.fromJSON>[0]);
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

/**
 * An argument value as the runtime takes it: inside float tensors `nan`/`inf`/`-inf` become numbers, inside int64
 * tensors digit strings become bigints (exact past 2^53); everything else is left for the runtime to judge.
 */
export function decodeArgValue(v: unknown, dtype: unknown): unknown {
  if (isFloatDType(dtype)) return typeof v === 'string' ? (decodeFloat(v) ?? v) : v;
  if (dtype === 'int64' && isDigitString(v)) return BigInt(v);
  return v;
}

/**
 * A SparseTensor's indices or dense_shape as the runtime takes them: a digit string (how a case writes an int64
 * past 2^53) becomes a bigint, which the runtime refuses where it cannot hold it exactly. Anything else is left
 * for the runtime to judge.
 */
function decodeDims(nested: unknown): unknown {
  return mapLeaves(nested, (v) => (isDigitString(v) ? BigInt(v) : v));
}

/** Maps the leaves of nested lists, keeping the nesting. */
function mapLeaves(nested: unknown, f: (leaf: unknown) => unknown): unknown {
  return Array.isArray(nested) ? nested.map((x) => mapLeaves(x, f)) : f(nested);
}

function containsTensorForm(x: unknown): boolean {
  return isSparseForm(x) || isDenseForm(x) || isCsrForm(x) || (Array.isArray(x) && x.some(containsTensorForm));
}
