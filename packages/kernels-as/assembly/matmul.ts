// Sparse × dense matrix product: the index passes (spmm_runs, for any value type) and the value kernels, templated
// over the value type and exported per dtype from index.ts.

/**
 * The canonical case (entries in row order) in one pass: for each entry `colOff`, the byte offset of its row of B
 * (u32: B lives in a 32-bit memory), and each row cut into `tiles` runs by slab of B's rows (as spmmTiles cuts them):
 * run t of row i is ptrs[t·stride/4 + i] .. ptrs[(t+1)·stride/4 + i]. With one run and a stride of 4, `ptrs` is the
 * CSR row pointers (m + 1 i32). `indices` are the i32 [nnz × 2] (row, col) pairs, already validated, read swapped
 * when `swap` (Aᵀ). `tileBytes` is a slab's rows × rowBytes. Returns false at the first entry out of row order:
 * then nothing written is of use and spmmCsr sorts. Linear: O(nnz + tiles · m).
 *
 * With rows of 8 entries or more on average, four entries at a time while they stay in the current row and run
 * (most of them: only their offsets are written); an entry that starts a row or crosses into the next slab goes
 * one by one.
 */
export function spmm_runs(
  indices: usize,
  swap: bool,
  nnz: i32,
  m: i32,
  rowBytes: u32,
  tileBytes: u32,
  tiles: i32,
  ptrs: usize,
  stride: usize,
  colOff: usize,
): bool {
  // Offsets stay below B's size, so this end is never reached: the last run's.
  const NEVER: u32 = 0xffffffff;
  // Each entry's (row, col) read as one i64 and split by shifts (so Aᵀ costs no branch): the row is the low half,
  // or the high half when swapped.
  const rs: u64 = swap ? 32 : 0;
  const cs: u64 = swap ? 0 : 32;
  const perRow = i32x4.splat(<i32>rowBytes);
  let cur = -1; // the row being read
  let t = 0; // its current run
  let end = NEVER; // where run t ends, as an offset
  let p = 0;
  // Four at a time pays when rows are long; with a few entries a row nearly every group would stop.
  const wide = !swap && nnz >= 8 * m;
  if (!wide && tiles == 1) return rowPointers(indices, rs, cs, nnz, m, rowBytes, ptrs, colOff);
  while (true) {
    if (wide) {
      const rowV = i32x4.splat(cur);
      const endV = i32x4.splat(<i32>end);
      for (; p + 4 <= nnz; p += 4) {
        const a = v128.load(indices + ((<usize>p) << 3));
        const b = v128.load(indices + ((<usize>p) << 3), 16);
        const rows = i8x16.shuffle(a, b, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27);
        const offs = i32x4.mul(i8x16.shuffle(a, b, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31), perRow);
        v128.store(colOff + ((<usize>p) << 2), offs);
        const stop = i32x4.bitmask(v128.or(i32x4.ne(rows, rowV), i32x4.ge_u(offs, endV)));
        if (stop != 0) {
          // The entries before the first that stops are done.
          p += ctz(stop);
          break;
        }
      }
    }
    if (p >= nnz) break;
    const rc = load<u64>(indices + ((<usize>p) << 3));
    const r = <i32>(rc >> rs);
    const off = <u32>(rc >> cs) * rowBytes;
    store<u32>(colOff + ((<usize>p) << 2), off);
    if (r != cur) {
      if (r < cur) return false;
      if (cur >= 0) endRuns(ptrs, stride, cur, t + 1, tiles, p);
      for (let q = cur + 1; q < r; q++) endRuns(ptrs, stride, q, 0, tiles, p);
      store<i32>(ptrs + ((<usize>r) << 2), p);
      cur = r;
      t = 0;
      end = tiles > 1 ? tileBytes : NEVER;
    }
    while (off >= end) {
      t++;
      store<i32>(ptrs + <usize>t * stride + ((<usize>cur) << 2), p);
      end = t < tiles - 1 ? end + tileBytes : NEVER;
    }
    p++;
  }
  if (cur >= 0) endRuns(ptrs, stride, cur, t + 1, tiles, nnz);
  for (let q = cur + 1; q < m; q++) endRuns(ptrs, stride, q, 0, tiles, nnz);
  return true;
}

/**
 * spmm_runs with one run per row and few entries a row: the plain CSR row pointers (m + 1 i32), which advance as the
 * rows do, with no look at slabs.
 */
@inline function rowPointers(
  indices: usize,
  rs: u64,
  cs: u64,
  nnz: i32,
  m: i32,
  rowBytes: u32,
  rowPtr: usize,
  colOff: usize,
): bool {
  let next = 0;
  for (let p = 0; p < nnz; p++) {
    const rc = load<u64>(indices + ((<usize>p) << 3));
    const r = <i32>(rc >> rs);
    if (r < next - 1) return false;
    for (; next <= r; next++) store<i32>(rowPtr + ((<usize>next) << 2), p);
    store<u32>(colOff + ((<usize>p) << 2), <u32>(rc >> cs) * rowBytes);
  }
  for (; next <= m; next++) store<i32>(rowPtr + ((<usize>next) << 2), nnz);
  return true;
}

/** Run bounds `from`..`to` of row `row` all at entry `p` (the runs between are empty). */
@inline function endRuns(ptrs: usize, stride: usize, row: i32, from: i32, to: i32, p: i32): void {
  for (let u = from; u <= to; u++) store<i32>(ptrs + <usize>u * stride + ((<usize>row) << 2), p);
}

/**
 * A's entries in any order as CSR (spmm_runs takes the ordered case): `rowPtr` (m + 1 i32) and `colOff` as
 * spmm_runs writes it, by a stable counting sort of the rows (each row keeps its entries' order, the order the JS
 * kernel sums them in), the values permuted into `sorted`, which it returns. `fill` is m i32 of scratch. Linear:
 * O(nnz + m).
 */
@inline export function spmmCsr<T>(
  indices: usize,
  swap: bool,
  nnz: i32,
  m: i32,
  vals: usize,
  rowBytes: usize,
  rowPtr: usize,
  colOff: usize,
  sorted: usize,
  fill: usize,
): usize {
  const size = <usize>sizeof<T>();
  const rs: u64 = swap ? 32 : 0;
  const cs: u64 = swap ? 0 : 32;
  memory.fill(rowPtr, 0, (<usize>m + 1) << 2);
  for (let p = 0; p < nnz; p++) {
    const rc = load<u64>(indices + ((<usize>p) << 3));
    const c = rowPtr + ((<usize>(<i32>(rc >> rs)) + 1) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  for (let r = 0; r < m; r++) {
    const c = rowPtr + ((<usize>r + 1) << 2);
    store<i32>(c, load<i32>(c) + load<i32>(c - 4));
  }
  memory.copy(fill, rowPtr, (<usize>m) << 2);
  for (let p = 0; p < nnz; p++) {
    const rc = load<u64>(indices + ((<usize>p) << 3));
    const r = <i32>(rc >> rs);
    const c = <i32>(rc >> cs);
    const f = fill + ((<usize>r) << 2);
    const q = <usize>load<i32>(f);
    store<i32>(f, <i32>q + 1);
    store<u32>(colOff + (q << 2), <u32>(<usize>c * rowBytes));
    store<T>(sorted + q * size, load<T>(vals + <usize>p * size));
  }
  return sorted;
}

/**
 * Splits each CSR row into `tiles` consecutive runs by column: in a row of ascending columns (canonical order), run t
 * holds the entries of columns [t·tileCols, (t+1)·tileCols), so the product can go one slab of B's rows at a time
 * (spmm). `tileBytes` is tileCols in colOff's units. Each cut is a binary search of the rest of the row, so a row
 * costs O(tiles · log(entries)), not a look at every entry. In any other order the search still lands on some cut
 * and the runs are still consecutive pieces of the row, taken in order: the same sums, only without the cache
 * benefit. `ptrs` is (tiles + 1) × m i32: run t of row i is ptrs[t·m + i] .. ptrs[(t+1)·m + i].
 */
@inline export function spmmTiles(
  rowPtr: usize,
  colOff: usize,
  m: i32,
  tileBytes: usize,
  tiles: i32,
  ptrs: usize,
): void {
  const stride = (<usize>m) << 2;
  for (let i = 0; i < m; i++) {
    const e = load<i32>(rowPtr + ((<usize>i + 1) << 2));
    let p = load<i32>(rowPtr + ((<usize>i) << 2));
    for (let t = 0; t < tiles; t++) {
      store<i32>(ptrs + <usize>t * stride + ((<usize>i) << 2), p);
      // The first entry in [p, e) at or past the slab's end.
      const end = <u64>(t + 1) * <u64>tileBytes;
      let hi = e;
      while (p < hi) {
        const mid = (p + hi) >>> 1;
        if (<u64>load<u32>(colOff + ((<usize>mid) << 2)) < end) p = mid + 1;
        else hi = mid;
      }
    }
    store<i32>(ptrs + <usize>tiles * stride + ((<usize>i) << 2), e);
  }
}

/**
 * out[m×n] = A × B, B dense [k×n] row-major, A's rows given as runs of CSR entries (spmm_runs): run t of row i is
 * entries ptrs[t·stride/4 + i] .. ptrs[(t+1)·stride/4 + i]: `tiles` runs of ascending column slabs, or one run,
 * the row pointers themselves with stride 4. Slab by slab, the B rows in use stay in cache.
 *
 * Register-blocked: each output row goes in blocks of seven v128 lanes (28 float32), each summed in seven SIMD
 * registers over the run's entries and stored once per slab; then a block of four, then one v128, then single
 * columns, all within the slab. Rows of 28 columns or more go row by row; narrower ones block by block, each block
 * in its own loop over the rows (twice as fast on rows of one or two entries). Seven, not eight: with the seven rows of B loaded ahead of their multiplies (V8
 * schedules the loads first) and the splat, seven fill the fifteen registers V8 allocates; an eighth spilled an
 * accumulator to the stack and cost 15% of the kernel. Every element is summed from zero in the entries' order, as
 * the JS kernel does, and every element is written (no zero fill first).
 */
@inline export function spmm<T>(
  ptrs: usize,
  stride: usize,
  tiles: i32,
  colOff: usize,
  vals: usize,
  m: i32,
  b: usize,
  n: i32,
  out: usize,
): void {
  const size = <usize>sizeof<T>();
  const lanes = 16 / <i32>sizeof<T>();
  const rowBytes = <usize>n * size;
  for (let t = 0; t < tiles; t++) {
    const lo = ptrs + <usize>t * stride;
    const hi = lo + stride;
    const more = t > 0;
    if (n >= 7 * lanes) {
      // Wide rows: a whole row at a time, so its entries and the lines of B its blocks share stay in cache.
      for (let i = 0; i < m; i++) {
        const s0 = load<i32>(lo + ((<usize>i) << 2));
        const e = load<i32>(hi + ((<usize>i) << 2));
        // A later slab with nothing in this row leaves it as it is.
        if (more && s0 == e) continue;
        rowBlocks<T>(s0, e, colOff, vals, b, out + <usize>i * rowBytes, 0, n, more);
      }
    } else {
      // Narrow rows: a loop over the rows for each block, tighter when rows hold few entries.
      let j = 0;
      if (j + 4 * lanes <= n) {
        for (let i = 0; i < m; i++)
          block4<T>(
            load<i32>(lo + ((<usize>i) << 2)),
            load<i32>(hi + ((<usize>i) << 2)),
            colOff,
            vals,
            b,
            out + <usize>i * rowBytes,
            more,
          );
        j += 4 * lanes;
      }
      for (; j + lanes <= n; j += lanes) {
        const bj = b + <usize>j * size;
        for (let i = 0; i < m; i++)
          block1<T>(
            load<i32>(lo + ((<usize>i) << 2)),
            load<i32>(hi + ((<usize>i) << 2)),
            colOff,
            vals,
            bj,
            out + <usize>i * rowBytes + <usize>j * size,
            more,
          );
      }
      for (; j < n; j++) {
        const bj = b + <usize>j * size;
        for (let i = 0; i < m; i++)
          column<T>(
            load<i32>(lo + ((<usize>i) << 2)),
            load<i32>(hi + ((<usize>i) << 2)),
            colOff,
            vals,
            bj,
            out + <usize>i * rowBytes + <usize>j * size,
            more,
          );
      }
    }
  }
}

/** Columns j0..j1 of one output row (at `row`) over entries s0..e: blocks of seven v128, then four, one, single. */
@inline function rowBlocks<T>(
  s0: i32,
  e: i32,
  colOff: usize,
  vals: usize,
  b: usize,
  row: usize,
  j0: i32,
  j1: i32,
  more: bool,
): void {
  const size = <usize>sizeof<T>();
  const lanes = 16 / <i32>sizeof<T>();
  let j = j0;
  for (; j + 7 * lanes <= j1; j += 7 * lanes)
    block7<T>(s0, e, colOff, vals, b + <usize>j * size, row + <usize>j * size, more);
  if (j + 4 * lanes <= j1) {
    block4<T>(s0, e, colOff, vals, b + <usize>j * size, row + <usize>j * size, more);
    j += 4 * lanes;
  }
  for (; j + lanes <= j1; j += lanes) block1<T>(s0, e, colOff, vals, b + <usize>j * size, row + <usize>j * size, more);
  for (; j < j1; j++) column<T>(s0, e, colOff, vals, b + <usize>j * size, row + <usize>j * size, more);
}

/** Seven v128 of output (at `o`) summed over entries s0..e, B's block at `bj`; added to what is there when `more`. */
@inline function block7<T>(s0: i32, e: i32, colOff: usize, vals: usize, bj: usize, o: usize, more: bool): void {
  const size = <usize>sizeof<T>();
  let a0 = i64x2.splat(0),
    a1 = a0,
    a2 = a0,
    a3 = a0,
    a4 = a0,
    a5 = a0,
    a6 = a0;
  if (more) {
    a0 = v128.load(o);
    a1 = v128.load(o, 16);
    a2 = v128.load(o, 32);
    a3 = v128.load(o, 48);
    a4 = v128.load(o, 64);
    a5 = v128.load(o, 80);
    a6 = v128.load(o, 96);
  }
  for (let p = s0; p < e; p++) {
    const x = vsplat<T>(load<T>(vals + <usize>p * size));
    const r = bj + <usize>load<u32>(colOff + ((<usize>p) << 2));
    a0 = vadd<T>(a0, vmul<T>(x, v128.load(r)));
    a1 = vadd<T>(a1, vmul<T>(x, v128.load(r, 16)));
    a2 = vadd<T>(a2, vmul<T>(x, v128.load(r, 32)));
    a3 = vadd<T>(a3, vmul<T>(x, v128.load(r, 48)));
    a4 = vadd<T>(a4, vmul<T>(x, v128.load(r, 64)));
    a5 = vadd<T>(a5, vmul<T>(x, v128.load(r, 80)));
    a6 = vadd<T>(a6, vmul<T>(x, v128.load(r, 96)));
  }
  v128.store(o, a0);
  v128.store(o, a1, 16);
  v128.store(o, a2, 32);
  v128.store(o, a3, 48);
  v128.store(o, a4, 64);
  v128.store(o, a5, 80);
  v128.store(o, a6, 96);
}

/**
 * block7 with four v128. One function per width, not one with a count: the accumulators have to be locals for
 * V8 to keep them in registers, and there are no arrays of locals.
 */
@inline function block4<T>(s0: i32, e: i32, colOff: usize, vals: usize, bj: usize, o: usize, more: bool): void {
  const size = <usize>sizeof<T>();
  let a0 = i64x2.splat(0),
    a1 = a0,
    a2 = a0,
    a3 = a0;
  if (more) {
    a0 = v128.load(o);
    a1 = v128.load(o, 16);
    a2 = v128.load(o, 32);
    a3 = v128.load(o, 48);
  }
  for (let p = s0; p < e; p++) {
    const x = vsplat<T>(load<T>(vals + <usize>p * size));
    const r = bj + <usize>load<u32>(colOff + ((<usize>p) << 2));
    a0 = vadd<T>(a0, vmul<T>(x, v128.load(r)));
    a1 = vadd<T>(a1, vmul<T>(x, v128.load(r, 16)));
    a2 = vadd<T>(a2, vmul<T>(x, v128.load(r, 32)));
    a3 = vadd<T>(a3, vmul<T>(x, v128.load(r, 48)));
  }
  v128.store(o, a0);
  v128.store(o, a1, 16);
  v128.store(o, a2, 32);
  v128.store(o, a3, 48);
}

/** block7 with one v128. */
@inline function block1<T>(s0: i32, e: i32, colOff: usize, vals: usize, bj: usize, o: usize, more: bool): void {
  const size = <usize>sizeof<T>();
  let a = more ? v128.load(o) : i64x2.splat(0);
  for (let p = s0; p < e; p++)
    a = vadd<T>(
      a,
      vmul<T>(vsplat<T>(load<T>(vals + <usize>p * size)), v128.load(bj + <usize>load<u32>(colOff + ((<usize>p) << 2)))),
    );
  v128.store(o, a);
}

/** block7 with one column. */
@inline function column<T>(s0: i32, e: i32, colOff: usize, vals: usize, bj: usize, o: usize, more: bool): void {
  const size = <usize>sizeof<T>();
  let a = more ? load<T>(o) : <T>0;
  for (let p = s0; p < e; p++)
    a += load<T>(vals + <usize>p * size) * load<T>(bj + <usize>load<u32>(colOff + ((<usize>p) << 2)));
  store<T>(o, a);
}

// v128 lanes of T: the SIMD instruction for each value type.
@inline function vsplat<T>(v: T): v128 {
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.splat(<f32>v) : f64x2.splat(<f64>v);
  return sizeof<T>() == 4 ? i32x4.splat(<i32>v) : i64x2.splat(<i64>v);
}
@inline function vadd<T>(a: v128, b: v128): v128 {
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.add(a, b) : f64x2.add(a, b);
  return sizeof<T>() == 4 ? i32x4.add(a, b) : i64x2.add(a, b);
}
@inline function vmul<T>(a: v128, b: v128): v128 {
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.mul(a, b) : f64x2.mul(a, b);
  return sizeof<T>() == 4 ? i32x4.mul(a, b) : i64x2.mul(a, b);
}

/** dst[cols×rows] = transpose of src[rows×cols], row-major, in tiles so both sides stay in cache. */
@inline export function transpose<T>(src: usize, rows: i32, cols: i32, dst: usize): void {
  const size = <usize>sizeof<T>();
  const TILE = 32;
  for (let i0 = 0; i0 < rows; i0 += TILE) {
    const i1 = min(i0 + TILE, rows);
    for (let j0 = 0; j0 < cols; j0 += TILE) {
      const j1 = min(j0 + TILE, cols);
      for (let i = i0; i < i1; i++) {
        for (let j = j0; j < j1; j++) {
          store<T>(
            dst + (<usize>j * <usize>rows + <usize>i) * size,
            load<T>(src + (<usize>i * <usize>cols + <usize>j) * size),
          );
        }
      }
    }
  }
}
