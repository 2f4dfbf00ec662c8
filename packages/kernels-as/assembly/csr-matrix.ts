// Kernels on CSR matrices and batches of them (TensorFlow's CSRSparseMatrix): `rp` holds batch × (rows + 1) i32 row
// pointers, each batch's counted from 0; `bp` the batch + 1 i32 batch pointers, where each batch's entries start in
// the i32 column indices `ci` and the values. Values are only moved by the transpose (instantiated by element size)
// and computed with by the product (by dtype).

/**
 * The transpose of each matrix of a batch, by a counting sort on the columns: rows are walked in order, so each row of
 * the result comes out with sorted columns. `outRp` is batch × (cols + 1) i32; `fill` cols i32 of scratch.
 * Linear: O(nnz + batch · (rows + cols)).
 */
@inline function transposeCsr<T>(
  rp: usize,
  ci: usize,
  vals: usize,
  bp: usize,
  batch: i32,
  rows: i32,
  cols: i32,
  outRp: usize,
  outCi: usize,
  outVals: usize,
  fill: usize,
): void {
  const size = <usize>sizeof<T>();
  memory.fill(outRp, 0, (<usize>batch * (<usize>cols + 1)) << 2);
  for (let b = 0; b < batch; b++) {
    const base = load<i32>(bp + ((<usize>b) << 2));
    const end = load<i32>(bp + ((<usize>b + 1) << 2));
    const out = outRp + ((<usize>b * (<usize>cols + 1)) << 2);
    for (let k = base; k < end; k++) {
      const c = out + ((<usize>load<i32>(ci + ((<usize>k) << 2)) + 1) << 2);
      store<i32>(c, load<i32>(c) + 1);
    }
    for (let c = 0; c < cols; c++) {
      const f = out + ((<usize>c + 1) << 2);
      const sum = load<i32>(f) + load<i32>(f - 4);
      store<i32>(f, sum);
      store<i32>(fill + ((<usize>c) << 2), load<i32>(f - 4));
    }
    const inRows = rp + ((<usize>b * (<usize>rows + 1)) << 2);
    for (let r = 0; r < rows; r++) {
      const e = base + load<i32>(inRows + ((<usize>r + 1) << 2));
      for (let k = base + load<i32>(inRows + ((<usize>r) << 2)); k < e; k++) {
        const f = fill + ((<usize>load<i32>(ci + ((<usize>k) << 2))) << 2);
        const q = <usize>(base + load<i32>(f));
        store<i32>(f, load<i32>(f) + 1);
        store<i32>(outCi + (q << 2), r);
        store<T>(outVals + q * size, load<T>(vals + <usize>k * size));
      }
    }
  }
}

export function csr_transpose_4(
  rp: usize,
  ci: usize,
  vals: usize,
  bp: usize,
  batch: i32,
  rows: i32,
  cols: i32,
  outRp: usize,
  outCi: usize,
  outVals: usize,
  fill: usize,
): void {
  transposeCsr<u32>(rp, ci, vals, bp, batch, rows, cols, outRp, outCi, outVals, fill);
}
export function csr_transpose_8(
  rp: usize,
  ci: usize,
  vals: usize,
  bp: usize,
  batch: i32,
  rows: i32,
  cols: i32,
  outRp: usize,
  outCi: usize,
  outVals: usize,
  fill: usize,
): void {
  transposeCsr<u64>(rp, ci, vals, bp, batch, rows, cols, outRp, outCi, outVals, fill);
}

/** Each column index times `rowBytes`: the byte offset of the row of a dense right operand each entry reads (spmm). */
export function csr_col_offsets(ci: usize, nnz: i32, rowBytes: u32, out: usize): void {
  for (let k = 0; k < nnz; k++) {
    const p = (<usize>k) << 2;
    store<u32>(out + p, load<u32>(ci + p) * rowBytes);
  }
}

/**
 * a ∙ b in one pass, row by row (Gustavson), into `outCi`/`outV` with room for a bound on the result (the products
 * each row forms, at most n) and a slot of slack: each row's products summed in a dense accumulator `acc` (n values
 * rounded up to whole words, and a slot), in a's then b's column order, the first product of a
 * column assigned and the rest added (the dtype's arithmetic: f32 rounds each product and sum, as TensorFlow's
 * float kernel does). A two-level bitmap (`bits`: n bits in u64 words, then one bit per word of those; clear on
 * entry and left clear) says which columns the row reached, and the row's columns are also listed as first reached.
 * They come out sorted by walking the set bits of the words the row touched, found from the second level
 * (O(entries + n / 4096)), or, where n is so wide against the row's entries that even that walk costs more, by
 * sorting the list. Every position reached is kept, a sum that cancels to 0 included (as TensorFlow's CPU kernel
 * keeps it). Writes the row pointers (`outRp`, batch × (m + 1) i32, each batch's from 0) and batch pointers
 * (`outBp`, batch + 1 i32); returns the entries written. O(products + result + batch · m · (1 + n / 4096)).
 */
@inline function spgemm<T>(
  aRp: usize,
  aCi: usize,
  aV: usize,
  aBp: usize,
  bRp: usize,
  bCi: usize,
  bV: usize,
  bBp: usize,
  batch: i32,
  m: i32,
  k: i32,
  n: i32,
  outRp: usize,
  outBp: usize,
  outCi: usize,
  outV: usize,
  acc: usize,
  bits: usize,
): i32 {
  const size = <usize>sizeof<T>();
  const words = (<usize>n + 63) >>> 6;
  const summaryWords = (words + 63) >>> 6;
  // The second level: bit w of `summary` says word w of the first has a bit set.
  const summary = bits + (words << 3);
  let total: usize = 0;
  store<i32>(outBp, 0);
  for (let bi = 0; bi < batch; bi++) {
    const aBase = load<i32>(aBp + ((<usize>bi) << 2));
    const bBase = load<i32>(bBp + ((<usize>bi) << 2));
    const batchStart = total;
    const aRows = aRp + ((<usize>bi * (<usize>m + 1)) << 2);
    const bRows = bRp + ((<usize>bi * (<usize>k + 1)) << 2);
    const outRows = outRp + ((<usize>bi * (<usize>m + 1)) << 2);
    store<i32>(outRows, 0);
    for (let i = 0; i < m; i++) {
      const list = outCi + (total << 2);
      let count: usize = 0;
      const ae = aBase + load<i32>(aRows + ((<usize>i + 1) << 2));
      for (let e = aBase + load<i32>(aRows + ((<usize>i) << 2)); e < ae; e++) {
        const kk = <usize>load<i32>(aCi + ((<usize>e) << 2));
        const x = load<T>(aV + <usize>e * size);
        const ge = bBase + load<i32>(bRows + ((kk + 1) << 2));
        for (let g = bBase + load<i32>(bRows + (kk << 2)); g < ge; g++) {
          const j = <usize>load<i32>(bCi + ((<usize>g) << 2));
          const p: T = x * load<T>(bV + <usize>g * size);
          const wi = j >>> 6;
          const word = bits + (wi << 3);
          const bit = (<u64>1) << ((<u64>j) & 63);
          const seen = load<u64>(word);
          const at = acc + j * size;
          if (seen & bit) {
            store<T>(at, load<T>(at) + p);
          } else {
            store<u64>(word, seen | bit);
            store<T>(at, p);
            store<i32>(list + (count << 2), <i32>j);
            count++;
            const sw = summary + ((wi >>> 6) << 3);
            store<u64>(sw, load<u64>(sw) | ((<u64>1) << ((<u64>wi) & 63)));
          }
        }
      }
      let q = list;
      let v = outV + total * size;
      if (summaryWords <= count << 2) {
        // The walk: the columns in order, over the list just written.
        for (let si: usize = 0; si < summaryWords; si++) {
          let sword = load<u64>(summary + (si << 3));
          if (sword == 0) continue;
          store<u64>(summary + (si << 3), 0);
          while (sword != 0) {
            const wi = (si << 6) + <usize>ctz<u64>(sword);
            sword &= sword - 1;
            let word = load<u64>(bits + (wi << 3));
            store<u64>(bits + (wi << 3), 0);
            const j0 = wi << 6;
            // A word's first two columns without branching on how many it has (one or two, mostly, in sparse
            // rows): the second is written even when absent, into room the next column overwrites (the output and
            // the accumulator have a slot of slack for it).
            const c = <usize>popcnt<u64>(word);
            const j1 = j0 + <usize>ctz<u64>(word);
            word &= word - 1;
            const j2 = j0 + <usize>ctz<u64>(word);
            word &= word - 1;
            store<i32>(q, <i32>j1);
            store<T>(v, load<T>(acc + j1 * size));
            store<i32>(q + 4, <i32>j2);
            store<T>(v + size, load<T>(acc + j2 * size));
            const step = c < 2 ? c : 2;
            q += step << 2;
            v += step * size;
            while (word != 0) {
              const j = j0 + <usize>ctz<u64>(word);
              word &= word - 1;
              store<i32>(q, <i32>j);
              store<T>(v, load<T>(acc + j * size));
              q += 4;
              v += size;
            }
          }
        }
      } else {
        sortI32(list, <i32>count);
        for (let t: usize = 0; t < count; t++) {
          const j = <usize>load<i32>(list + (t << 2));
          store<u64>(bits + ((j >>> 6) << 3), 0);
          store<u64>(summary + ((j >>> 12) << 3), 0);
          store<T>(v + t * size, load<T>(acc + j * size));
        }
      }
      total += count;
      store<i32>(outRows + ((<usize>i + 1) << 2), <i32>(total - batchStart));
    }
    store<i32>(outBp + ((<usize>bi + 1) << 2), <i32>total);
  }
  return <i32>total;
}

/** Sorts n i32 in place: insertion sort for short runs, else quicksort (median of three) down to them. */
function sortI32(p: usize, n: i32): void {
  while (n > 16) {
    const last = p + ((<usize>n - 1) << 2);
    const mid = p + ((<usize>(n >>> 1)) << 2);
    // Median of the first, middle and last as the pivot.
    const a = load<i32>(p);
    const b = load<i32>(mid);
    const c = load<i32>(last);
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let lo = p;
    let hi = last;
    while (lo <= hi) {
      while (load<i32>(lo) < pivot) lo += 4;
      while (load<i32>(hi) > pivot) hi -= 4;
      if (lo <= hi) {
        const t = load<i32>(lo);
        store<i32>(lo, load<i32>(hi));
        store<i32>(hi, t);
        lo += 4;
        hi -= 4;
      }
    }
    // Recurse into the smaller side, loop on the larger: the stack stays O(log n).
    const left = <i32>((hi + 4 - p) >>> 2);
    const right = <i32>((last - lo + 4) >>> 2);
    if (left < right) {
      sortI32(p, left);
      p = lo;
      n = right;
    } else {
      sortI32(lo, right);
      n = left;
    }
  }
  for (let i = 1; i < n; i++) {
    const x = load<i32>(p + ((<usize>i) << 2));
    let j = i - 1;
    while (j >= 0 && load<i32>(p + ((<usize>j) << 2)) > x) {
      store<i32>(p + ((<usize>j + 1) << 2), load<i32>(p + ((<usize>j) << 2)));
      j--;
    }
    store<i32>(p + ((<usize>j + 1) << 2), x);
  }
}

export function spgemm_float32(
  aRp: usize,
  aCi: usize,
  aV: usize,
  aBp: usize,
  bRp: usize,
  bCi: usize,
  bV: usize,
  bBp: usize,
  batch: i32,
  m: i32,
  k: i32,
  n: i32,
  outRp: usize,
  outBp: usize,
  outCi: usize,
  outV: usize,
  acc: usize,
  bits: usize,
): i32 {
  return spgemm<f32>(aRp, aCi, aV, aBp, bRp, bCi, bV, bBp, batch, m, k, n, outRp, outBp, outCi, outV, acc, bits);
}
export function spgemm_float64(
  aRp: usize,
  aCi: usize,
  aV: usize,
  aBp: usize,
  bRp: usize,
  bCi: usize,
  bV: usize,
  bBp: usize,
  batch: i32,
  m: i32,
  k: i32,
  n: i32,
  outRp: usize,
  outBp: usize,
  outCi: usize,
  outV: usize,
  acc: usize,
  bits: usize,
): i32 {
  return spgemm<f64>(aRp, aCi, aV, aBp, bRp, bCi, bV, bBp, batch, m, k, n, outRp, outBp, outCi, outV, acc, bits);
}

/** Counts per row and per batch (row r's at outRp[b·(rows + 1) + r + 1]) summed into row and batch pointers. */
@inline function sumPointers(outRp: usize, outBp: usize, batch: i32, rows: i32): void {
  for (let b = 0; b < batch; b++) {
    const bp = outBp + ((<usize>b + 1) << 2);
    store<i32>(bp, load<i32>(bp) + load<i32>(bp - 4));
    const base = outRp + ((<usize>b * (<usize>rows + 1)) << 2);
    for (let i = 0; i < rows; i++) {
      const c = base + ((<usize>i + 1) << 2);
      store<i32>(c, load<i32>(c) + load<i32>(c - 4));
    }
  }
}

/**
 * The CSR structure of a rank-2 or rank-3 index matrix in canonical order (i32 [nnz × rank] `idx`): each entry's
 * column in order, each row's entries counted into the row pointers (`outRp`, batch × (rows + 1) i32, each batch's
 * from 0) and summed, each batch's into the batch pointers (`outBp`). Linear: O(nnz + batch · rows).
 */
export function csr_from_indices(
  idx: usize,
  nnz: i32,
  rank: i32,
  batch: i32,
  rows: i32,
  outRp: usize,
  outBp: usize,
  outCi: usize,
): void {
  memory.fill(outRp, 0, (<usize>batch * (<usize>rows + 1)) << 2);
  memory.fill(outBp, 0, (<usize>batch + 1) << 2);
  const r = <usize>rank;
  for (let e = 0; e < nnz; e++) {
    const at = idx + ((<usize>e * r) << 2);
    const b = rank == 3 ? <usize>load<i32>(at) : 0;
    const row = <usize>load<i32>(at + ((r - 2) << 2));
    const c = outRp + ((b * (<usize>rows + 1) + row + 1) << 2);
    store<i32>(c, load<i32>(c) + 1);
    const p = outBp + ((b + 1) << 2);
    store<i32>(p, load<i32>(p) + 1);
    store<i32>(outCi + ((<usize>e) << 2), load<i32>(at + ((r - 1) << 2)));
  }
  sumPointers(outRp, outBp, batch, rows);
}

/** The index rows (i32 [nnz × rank], rank 2 or 3) of a CSR matrix or batch: batch by batch, row by row. Linear. */
export function csr_to_indices(rp: usize, ci: usize, bp: usize, batch: i32, rows: i32, rank: i32, out: usize): void {
  const r = <usize>rank;
  for (let b = 0; b < batch; b++) {
    const base = load<i32>(bp + ((<usize>b) << 2));
    const rowsAt = rp + ((<usize>b * (<usize>rows + 1)) << 2);
    for (let i = 0; i < rows; i++) {
      const e = base + load<i32>(rowsAt + ((<usize>i + 1) << 2));
      for (let k = base + load<i32>(rowsAt + ((<usize>i) << 2)); k < e; k++) {
        const at = out + ((<usize>k * r) << 2);
        if (rank == 3) store<i32>(at, b);
        store<i32>(at + ((r - 2) << 2), i);
        store<i32>(at + ((r - 1) << 2), load<i32>(ci + ((<usize>k) << 2)));
      }
    }
  }
}

/** The dense form of a CSR matrix or batch: zeros, then each entry at its place. O(batch · rows · cols + nnz). */
@inline function csrToDense<T>(
  rp: usize,
  ci: usize,
  vals: usize,
  bp: usize,
  batch: i32,
  rows: i32,
  cols: i32,
  out: usize,
): void {
  const size = <usize>sizeof<T>();
  memory.fill(out, 0, <usize>batch * <usize>rows * <usize>cols * size);
  for (let b = 0; b < batch; b++) {
    const base = load<i32>(bp + ((<usize>b) << 2));
    const rowsAt = rp + ((<usize>b * (<usize>rows + 1)) << 2);
    for (let i = 0; i < rows; i++) {
      const row = out + (<usize>b * <usize>rows + <usize>i) * <usize>cols * size;
      const e = base + load<i32>(rowsAt + ((<usize>i + 1) << 2));
      for (let k = base + load<i32>(rowsAt + ((<usize>i) << 2)); k < e; k++)
        store<T>(row + <usize>load<i32>(ci + ((<usize>k) << 2)) * size, load<T>(vals + <usize>k * size));
    }
  }
}

export function csr_to_dense_4(
  rp: usize,
  ci: usize,
  vals: usize,
  bp: usize,
  batch: i32,
  rows: i32,
  cols: i32,
  out: usize,
): void {
  csrToDense<u32>(rp, ci, vals, bp, batch, rows, cols, out);
}
export function csr_to_dense_8(
  rp: usize,
  ci: usize,
  vals: usize,
  bp: usize,
  batch: i32,
  rows: i32,
  cols: i32,
  out: usize,
): void {
  csrToDense<u64>(rp, ci, vals, bp, batch, rows, cols, out);
}

/**
 * The values of a dense matrix or batch (`dense`, [batch × rows × cols]) at i64 positions [n × rank] in canonical
 * order (checked by the runtime), as a CSR matrix: csr_from_indices's structure, each value gathered. Linear.
 */
@inline function denseToCsr<T>(
  idx: usize,
  n: i32,
  rank: i32,
  batch: i32,
  rows: i32,
  cols: i32,
  dense: usize,
  outRp: usize,
  outBp: usize,
  outCi: usize,
  outVals: usize,
): void {
  const size = <usize>sizeof<T>();
  const r = <usize>rank;
  memory.fill(outRp, 0, (<usize>batch * (<usize>rows + 1)) << 2);
  memory.fill(outBp, 0, (<usize>batch + 1) << 2);
  for (let e = 0; e < n; e++) {
    const at = idx + ((<usize>e * r) << 3);
    const b = rank == 3 ? <usize>load<i64>(at) : 0;
    const row = <usize>load<i64>(at + ((r - 2) << 3));
    const col = <usize>load<i64>(at + ((r - 1) << 3));
    const c = outRp + ((b * (<usize>rows + 1) + row + 1) << 2);
    store<i32>(c, load<i32>(c) + 1);
    const p = outBp + ((b + 1) << 2);
    store<i32>(p, load<i32>(p) + 1);
    store<i32>(outCi + ((<usize>e) << 2), <i32>col);
    store<T>(outVals + <usize>e * size, load<T>(dense + ((b * <usize>rows + row) * <usize>cols + col) * size));
  }
  sumPointers(outRp, outBp, batch, rows);
}

export function dense_to_csr_4(
  idx: usize,
  n: i32,
  rank: i32,
  batch: i32,
  rows: i32,
  cols: i32,
  dense: usize,
  outRp: usize,
  outBp: usize,
  outCi: usize,
  outVals: usize,
): void {
  denseToCsr<u32>(idx, n, rank, batch, rows, cols, dense, outRp, outBp, outCi, outVals);
}
export function dense_to_csr_8(
  idx: usize,
  n: i32,
  rank: i32,
  batch: i32,
  rows: i32,
  cols: i32,
  dense: usize,
  outRp: usize,
  outBp: usize,
  outCi: usize,
  outVals: usize,
): void {
  denseToCsr<u64>(idx, n, rank, batch, rows, cols, dense, outRp, outBp, outCi, outVals);
}
