import { indexText, type SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from './errors.js';
import { shapeText } from './shape.js';
import type { Backend } from './backend.js';
import type { BoundArgs } from './bind-args.js';
import { establishInBounds, knownInBounds } from './index-facts.js';
import type { OpMeta } from './op-meta.js';

/**
 * Every index a whole number within the dense shape: checked before any kernel, so no kernel reads or writes out
 * of range. Without `checkLast`, the last dim's entries need only be whole numbers (an op that discards them).
 * `fast`, a backend's faster form of the same check, is tried first; the loop here names any bad entry.
 */
export function validateSparse(st: SparseData, where: string, checkLast = true, fast?: Backend['indicesValid']): void {
  const { indices, shape, values } = st;
  const rank = shape.length;
  if (indices.length !== values.length * rank) {
    throw new InvalidArgumentError(
      `${where}: indices hold ${indices.length} numbers but ${values.length} values of rank ${rank} need ${values.length * rank}`,
    );
  }
  if (checkLast && fast?.(st)) return;
  if (
    rank === 2 &&
    checkLast &&
    shape[0] <= 2 ** 32 &&
    shape[1] <= 2 ** 32 &&
    matrixIndicesValid(indices, shape[0], shape[1])
  )
    return;
  // One pass with the dims in a typed array; a whole number below 2^31 survives `| 0` unchanged.
  const dims = Float64Array.from(shape);
  if (!checkLast && rank > 0) dims[rank - 1] = Infinity;
  const small = checkLast && shape.every((d) => d <= 2 ** 31);
  for (let i = 0, k = 0; i < values.length; i++) {
    for (let d = 0; d < rank; d++, k++) {
      const x = indices[k];
      if (x >= 0 && x < dims[d] && (small ? (x | 0) === x : Math.floor(x) === x)) continue;
      const why = Number.isInteger(x)
        ? `is out of bounds: need 0 <= index < ${shapeText(shape)}`
        : 'is not a whole number';
      throw new InvalidArgumentError(`${where}.indices[${i}] = ${indexText(indices, i, rank)} ${why}`);
    }
  }
}

/**
 * The rank-2 case (matrices: the matmul and most real inputs), unrolled: a whole number in [0, 2^32) is exactly
 * one that survives `>>> 0` unchanged, so each index costs two comparisons. On false the general loop names the
 * offending entry.
 */
function matrixIndicesValid(indices: Float64Array, rows: number, cols: number): boolean {
  for (let k = 0; k < indices.length; k += 2) {
    const r = indices[k];
    const c = indices[k + 1];
    if (!(r >>> 0 === r && r < rows && c >>> 0 === c && c < cols)) return false;
  }
  return true;
}

/** -1, 0 or 1: how index row i of `a` compares with row j of `b` in row-major order. */
export function compareRows(
  a: ArrayLike<number | bigint>,
  i: number,
  b: ArrayLike<number | bigint>,
  j: number,
  rank: number,
): number {
  for (let d = 0; d < rank; d++) {
    const x = a[i * rank + d];
    const y = b[j * rank + d];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether the indices are in canonical row-major order without repeats. */
export function indicesOrdered(indices: ArrayLike<number | bigint>, n: number, rank: number): boolean {
  if (rank === 2 && indices instanceof Float64Array) return matrixRowsOrdered(indices, n);
  for (let i = 1; i < n; i++) if (compareRows(indices, i - 1, indices, i, rank) >= 0) return false;
  return true;
}

/** Canonical row-major order without repeats; the error names the first index out of order or repeated. */
export function validateOrdered(indices: ArrayLike<number | bigint>, n: number, rank: number, label: string): void {
  if (indicesOrdered(indices, n, rank)) return;
  for (let i = 1; i < n; i++) {
    const c = compareRows(indices, i - 1, indices, i, rank);
    if (c < 0) continue;
    const why =
      c === 0
        ? 'is repeated'
        : 'is out of order. Many sparse ops need canonical row-major order: sparse.reorder gives an ordered copy';
    throw new InvalidArgumentError(`${label}[${i}] = ${indexText(indices, i, rank)} ${why}`);
  }
}

/** The rank-2 case of validateOrdered, unrolled; on false the general loop names the offending entry. */
function matrixRowsOrdered(indices: Float64Array, n: number): boolean {
  let r = indices[0];
  let c = indices[1];
  for (let k = 2; k < 2 * n; k += 2) {
    const r1 = indices[k];
    const c1 = indices[k + 1];
    if (!(r1 > r || (r1 === r && c1 > c))) return false;
    r = r1;
    c = c1;
  }
  return true;
}

/**
 * Every index of an op's sparse arguments (a list's too) within its dense shape, unless a tensor is known to be;
 * a checked tensor is remembered as in bounds (index-facts.ts).
 */
export function validateSparseArgs(op: OpMeta, bound: BoundArgs, fast?: Backend['indicesValid']): void {
  for (const a of op.args) {
    const v = bound.values[a.name];
    const checkLast = a.bounds !== 'except_last';
    const list = Array.isArray(v) && a.type.startsWith('sparse') ? (v as unknown[]) : [v];
    list.forEach((s, i) => {
      const st = s as SparseData | undefined;
      if (st?.kind !== 'sparse' || knownInBounds(st, checkLast)) return;
      validateSparse(st, `${op.name}: ${a.name}${list === v ? `[${i}]` : ''}`, checkLast, fast);
      establishInBounds(st, checkLast);
    });
  }
}
