/** Recognizing the value forms of cases (docs/cases.md), and the spellings JSON needs for numbers it cannot hold. */

export const DTYPE_NAMES = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'] as const;
export type DTypeName = (typeof DTYPE_NAMES)[number];

/** `{sparse: {indices, values, dense_shape}, dtype}`; recognized by its `sparse` key, its fields still to check. */
export type SparseForm = Record<string, unknown> & { sparse: unknown };

/** `{dense: NESTED, dtype, shape?}`; recognized by its `dense` key, its fields still to check. */
export type DenseForm = Record<string, unknown> & { dense: unknown };

export const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

export const isDTypeName = (x: unknown): x is DTypeName => (DTYPE_NAMES as readonly unknown[]).includes(x);

export const isFloatDType = (dtype: unknown): dtype is 'float32' | 'float64' =>
  dtype === 'float32' || dtype === 'float64';

/** `{sparse: ..., dtype}`: a SparseTensor. */
export const isSparseForm = (x: unknown): x is SparseForm => isRecord(x) && 'sparse' in x;

/** `{dense: ..., dtype, shape?}`: a dense tensor. */
export const isDenseForm = (x: unknown): x is DenseForm => isRecord(x) && 'dense' in x;

/** JSON has no NaN or infinities, so case files spell them as strings inside float values. */
const SPECIAL_FLOATS: Record<string, number> = { nan: NaN, inf: Infinity, '-inf': -Infinity };

/** The number a float value stands for: itself, or the value of `nan`, `inf`, `-inf`; undefined if neither. */
export function decodeFloat(x: unknown): number | undefined {
  if (typeof x === 'number') return x;
  if (typeof x === 'string' && Object.hasOwn(SPECIAL_FLOATS, x)) return SPECIAL_FLOATS[x];
  return undefined;
}

/** int64 values beyond 2^53 are written as digit strings, as JSON numbers would lose them. */
export const isDigitString = (x: unknown): x is string => typeof x === 'string' && /^-?\d+$/.test(x);

/**
 * An argument value as the runtime takes it: inside float tensors `nan`/`inf`/`-inf` become numbers, inside int64
 * tensors digit strings become bigints (exact past 2^53); everything else is left for the runtime to judge.
 */
export function decodeArgValue(v: unknown, dtype: unknown): unknown {
  if (isFloatDType(dtype)) return typeof v === 'string' ? (decodeFloat(v) ?? v) : v;
  if (dtype === 'int64' && isDigitString(v)) return BigInt(v);
  return v;
}

/** Maps the leaves of nested lists, keeping the nesting. */
export function mapLeaves(nested: unknown, f: (leaf: unknown) => unknown): unknown {
  return Array.isArray(nested) ? nested.map((x) => mapLeaves(x, f)) : f(nested);
}

/**
 * Flattens rectangular nested lists row-major and returns their shape (a scalar is shape []).
 * Throws a plain Error naming the first place the nesting is ragged.
 */
export function flattenNested(nested: unknown): { flat: unknown[]; shape: number[] } {
  const shape: number[] = [];
  for (let v = nested; Array.isArray(v); v = v[0]) {
    shape.push(v.length);
    if (v.length === 0) break;
  }
  const flat: unknown[] = [];
  const walk = (v: unknown, depth: number, path: string): void => {
    if (depth === shape.length) {
      if (Array.isArray(v))
        throw new Error(`the nesting is not rectangular at ${path || 'the top'}: a list where a value belongs`);
      flat.push(v);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[depth]) {
      throw new Error(`the nesting is not rectangular at ${path || 'the top'}: expected a list of ${shape[depth]}`);
    }
    v.forEach((x, i) => walk(x, depth + 1, `${path}[${i}]`));
  };
  walk(nested, 0, '');
  return { flat, shape };
}

/** A value as a case file would write it: `nan`, `inf`, digits for bigints, JSON for strings, `[a,b]` for lists. */
export function formatValue(x: unknown): string {
  if (typeof x === 'number') {
    if (Number.isNaN(x)) return 'nan';
    if (x === Infinity) return 'inf';
    if (x === -Infinity) return '-inf';
    return String(x);
  }
  if (typeof x === 'bigint') return x.toString();
  if (typeof x === 'string') return JSON.stringify(x);
  if (Array.isArray(x)) return `[${x.map(formatValue).join(',')}]`;
  if (x === undefined) return 'undefined';
  return JSON.stringify(x) ?? String(x);
}
