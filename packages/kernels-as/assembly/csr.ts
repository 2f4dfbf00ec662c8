// Kernels on matrices whose entries lie row by row (the CSR row pointers of rows.ts's csr_rows): where sorting
// would only find the order the rows already give, a linear pass builds the same canonical result. Values are only
// moved, so each is instantiated by element size: 4 bytes (float32, int32) and 8 (float64, int64).

/**
 * The transpose of a matrix whose rows never decrease from entry to entry (i32 [n × 2] `idx`, values `vals`), in
 * canonical order: a stable counting sort by column (`fill`: cols + 1 i32 of scratch), which within a column keeps
 * the entries' order, rows ascending; the same result as the stable sort of sparse_reorder. Linear: O(n + cols).
 */
@inline function transposeRows<T>(
  idx: usize,
  vals: usize,
  n: i32,
  cols: i32,
  outIdx: usize,
  outVals: usize,
  fill: usize,
): void {
  memory.fill(fill, 0, (<usize>cols + 1) << 2);
  for (let p = 0; p < n; p++) {
    const c = fill + ((<usize>load<i32>(idx + ((<usize>p) << 3), 4) + 1) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  for (let c = 0; c < cols; c++) {
    const f = fill + ((<usize>c + 1) << 2);
    store<i32>(f, load<i32>(f) + load<i32>(f - 4));
  }
  for (let p = 0; p < n; p++) {
    const rc = load<u64>(idx + ((<usize>p) << 3));
    const f = fill + ((<usize>(<u32>(rc >> 32))) << 2);
    const q = <usize>load<i32>(f);
    store<i32>(f, <i32>q + 1);
    // (col, row): the halves of the index row swapped.
    store<u64>(outIdx + (q << 3), rotr<u64>(rc, 32));
    store<T>(outVals + q * sizeof<T>(), load<T>(vals + <usize>p * sizeof<T>()));
  }
}

export function transpose_rows_4(
  idx: usize,
  vals: usize,
  n: i32,
  cols: i32,
  outIdx: usize,
  outVals: usize,
  fill: usize,
): void {
  transposeRows<u32>(idx, vals, n, cols, outIdx, outVals, fill);
}
export function transpose_rows_8(
  idx: usize,
  vals: usize,
  n: i32,
  cols: i32,
  outIdx: usize,
  outVals: usize,
  fill: usize,
): void {
  transposeRows<u64>(idx, vals, n, cols, outIdx, outVals, fill);
}

/**
 * Matrices in row-major order, concatenated along their columns: output row r is each input's row r in turn, its
 * columns moved by the widths before it; already the canonical order the stable sort would give. `table` holds k
 * inputs of eight i32 each: indices (i32 [n × 2]), values, CSR row pointers (m + 1 i32), column offset, m (an
 * input's rows past its own m are empty: expand_nonconcat_dim). `rows` is the output's. Linear: O(total entries +
 * k · rows).
 */
@inline function concatCols<T>(table: usize, k: i32, rows: i32, outIdx: usize, outVals: usize): void {
  let q: usize = 0;
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < k; j++) {
      const t = table + ((<usize>j) << 5);
      if (r >= load<i32>(t, 16)) continue;
      const idx = <usize>load<i32>(t);
      const vals = <usize>load<i32>(t, 4);
      const rowPtr = <usize>load<i32>(t, 8);
      const off = load<i32>(t, 12);
      const end = load<i32>(rowPtr + ((<usize>r + 1) << 2));
      for (let p = load<i32>(rowPtr + ((<usize>r) << 2)); p < end; p++) {
        store<i32>(outIdx + (q << 3), r);
        store<i32>(outIdx + (q << 3), load<i32>(idx + ((<usize>p) << 3), 4) + off, 4);
        store<T>(outVals + q * sizeof<T>(), load<T>(vals + <usize>p * sizeof<T>()));
        q++;
      }
    }
  }
}

export function concat_cols_4(table: usize, k: i32, rows: i32, outIdx: usize, outVals: usize): void {
  concatCols<u32>(table, k, rows, outIdx, outVals);
}
export function concat_cols_8(table: usize, k: i32, rows: i32, outIdx: usize, outVals: usize): void {
  concatCols<u64>(table, k, rows, outIdx, outVals);
}
