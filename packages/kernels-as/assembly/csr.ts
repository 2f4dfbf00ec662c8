// Kernels on matrices whose entries lie row by row (the CSR row pointers of rows.ts's csr_rows): where sorting
// would only find the order the rows already give, a linear pass builds the same canonical result. Values are only
// moved, so each is instantiated by element size: 4 bytes (float32, int32) and 8 (float64, int64).

// The transpose of a matrix whose rows never decrease from entry to entry (i32 [n × 2] `idx`, values `vals`), in
// canonical order: a stable counting sort by column, which within a column keeps the entries' order, rows ascending;
// the same result as the stable sort of sparse_reorder. Linear: O(n + cols). In three steps, so that consecutive
// ranges of the entries can be counted and placed on threads of their own: count_cols for each range, col_starts
// once, place_cols_<size> for each range.

/** Counts the entries of each column (i32 [n × 2] `idx`) into `counts` (cols i32). */
export function count_cols(idx: usize, n: i32, cols: i32, counts: usize): void {
  memory.fill(counts, 0, (<usize>cols) << 2);
  for (let p = 0; p < n; p++) {
    const c = counts + ((<usize>load<i32>(idx + ((<usize>p) << 3), 4)) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
}

/**
 * Turns the column counts of `parts` consecutive ranges of entries (`parts` arrays of cols i32, one after another)
 * into where each range's entries of each column go in the transpose: by column, then by range (so stable).
 */
export function col_starts(counts: usize, parts: i32, cols: i32): void {
  let at = 0;
  for (let c = 0; c < cols; c++) {
    for (let t = 0; t < parts; t++) {
      const f = counts + ((<usize>t * cols + c) << 2);
      const k = load<i32>(f);
      store<i32>(f, at);
      at += k;
    }
  }
}

/** Places each entry (as (col, row)) and its value where its column's next slot is (`starts`, as col_starts left them). */
@inline function placeCols<T>(idx: usize, vals: usize, n: i32, starts: usize, outIdx: usize, outVals: usize): void {
  for (let p = 0; p < n; p++) {
    const rc = load<u64>(idx + ((<usize>p) << 3));
    const f = starts + ((<usize>(<u32>(rc >> 32))) << 2);
    const q = <usize>load<i32>(f);
    store<i32>(f, <i32>q + 1);
    // (col, row): the halves of the index row swapped.
    store<u64>(outIdx + (q << 3), rotr<u64>(rc, 32));
    store<T>(outVals + q * sizeof<T>(), load<T>(vals + <usize>p * sizeof<T>()));
  }
}

export function place_cols_4(idx: usize, vals: usize, n: i32, starts: usize, outIdx: usize, outVals: usize): void {
  placeCols<u32>(idx, vals, n, starts, outIdx, outVals);
}
export function place_cols_8(idx: usize, vals: usize, n: i32, starts: usize, outIdx: usize, outVals: usize): void {
  placeCols<u64>(idx, vals, n, starts, outIdx, outVals);
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
