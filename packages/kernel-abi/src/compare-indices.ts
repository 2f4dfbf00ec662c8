/** -1, 0 or 1: how index row `i` of `a` compares with row `j` of `b` in row-major (lexicographic) order. */
export function compareIndexRows(
  a: ArrayLike<number>,
  i: number,
  b: ArrayLike<number>,
  j: number,
  rank: number,
): number {
  for (let d = 0, p = i * rank, q = j * rank; d < rank; d++, p++, q++) {
    const x = a[p];
    const y = b[q];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether the `n` rows of `indices` are in non-decreasing row-major order (repeats allowed). */
export function isSortedRows(indices: ArrayLike<number>, n: number, rank: number): boolean {
  for (let i = 1; i < n; i++) if (compareIndexRows(indices, i - 1, indices, i, rank) > 0) return false;
  return true;
}
