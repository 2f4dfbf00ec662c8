import { getI32, setI32, rowAt, idAt } from './rows';

/**
 * The merged rows (i32 [n × (inRank - 1 + m)]): the first inRank - 1 columns of each row of `idx` followed by the
 * i-th id of each of the m id arrays (`idTable`: u32 [m] pointers to I [n]).
 */
@inline function mergeRows<I>(idx: usize, n: i32, inRank: i32, idTable: usize, m: i32, out: usize): void {
  const kept = inRank - 1;
  const outRank = kept + m;
  for (let i = 0; i < n; i++) {
    const src = rowAt(idx, i, inRank);
    const dst = rowAt(out, i, outRank);
    for (let d = 0; d < kept; d++) setI32(dst, d, getI32(src, d));
    for (let j = 0; j < m; j++) setI32(dst, kept + j, idAt<I>(<usize>getI32(idTable, j), i));
  }
}

export function merge_rows_4(idx: usize, n: i32, inRank: i32, idTable: usize, m: i32, out: usize): void {
  mergeRows<i32>(idx, n, inRank, idTable, m, out);
}
export function merge_rows_8(idx: usize, n: i32, inRank: i32, idTable: usize, m: i32, out: usize): void {
  mergeRows<i64>(idx, n, inRank, idTable, m, out);
}
