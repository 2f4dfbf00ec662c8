/** Whether index rows `i` and `j` agree on every dim but the last (the same innermost row). */
export function sameRow(indices: Float64Array, i: number, j: number, rank: number): boolean {
  for (let d = 0, p = i * rank, q = j * rank; d < rank - 1; d++, p++, q++) if (indices[p] !== indices[q]) return false;
  return true;
}

/**
 * The end of the innermost row that starts at entry `start` of canonically ordered indices: the first entry of
 * another row, or n. A row is a run of consecutive entries, so walking the rows is one linear pass.
 */
export function rowEnd(indices: Float64Array, start: number, n: number, rank: number): number {
  let end = start + 1;
  while (end < n && sameRow(indices, start, end, rank)) end++;
  return end;
}
