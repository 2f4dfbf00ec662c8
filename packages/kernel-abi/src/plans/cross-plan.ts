import type { DenseData, SparseData } from '../generated/kernel-types.js';

/** An input of a feature cross: a batch-first matrix, sparse (rank 2) or dense (rank 2). */
export type CrossInput = SparseData | DenseData;

/**
 * Where the features of each row of a feature cross are (sparse_cross, sparse_cross_hashed), as TensorFlow's
 * SparseCross kernels read them. The columns are the inputs in TensorFlow's order: every SparseTensor in list order,
 * then every dense tensor in list order. A row's features in a column are its stored entries there (a dense row:
 * all of its values), in their stored order. A row crosses when every column has a feature in it; its crosses are
 * the product of its columns' features, the last column varying fastest.
 */
export interface CrossPlan {
  /** The inputs in that order, as given: their features are `crossFeatures` of each. */
  columns: CrossInput[];
  /** Dim 0 of the first SparseTensor, or else of the first dense tensor; 0 without inputs. */
  batch: number;
  /** The rows that cross, increasing. */
  rows: Float64Array;
  /**
   * Row k's features in column c: the positions first[k * C + c] to first[k * C + c] + count[k * C + c] - 1 of the
   * column, C columns; position p is entry `order[c][p]` of a sparse column's values (p itself where `order[c]` is
   * undefined: a dense column, or a sparse one already grouped by row), element p of a dense column's data.
   */
  first: Float64Array;
  count: Float64Array;
  order: (Uint32Array | undefined)[];
  /** The crosses of every row (a float: past 2^53 inexact, where only the byte budget reads it, to refuse). */
  total: number;
  /** The crosses of the row with most. */
  widest: number;
}

/**
 * The features of a column as TensorFlow's Python gives them to the kernel: every input but a string one cast to
 * int64, so a float feature is its value truncated toward zero and a bool 0 or 1 (int32 is left as it is: its digits
 * and hash are the same). The runtime has refused a float that int64 does not hold (NaN, an infinity, past 2^63),
 * whose cast depends on the CPU.
 */
export function crossFeatures<T extends CrossInput>(x: T): T {
  if (x.dtype === 'string' || x.dtype === 'int32' || x.dtype === 'int64') return x;
  const v = (x.kind === 'sparse' ? x.values : x.data) as ArrayLike<number>;
  const out = new BigInt64Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = BigInt(Math.trunc(v[i]));
  return x.kind === 'sparse' ? { ...x, values: out, dtype: 'int64' } : { ...x, data: out, dtype: 'int64' };
}

/** A sparse column's entries grouped by row: its distinct rows, increasing, and where each one's run starts. */
interface RowRuns {
  order: Uint32Array | undefined;
  rows: Float64Array;
  /** starts[i] to starts[i + 1]: the positions of rows[i]; one more than rows. */
  starts: Float64Array;
}

/**
 * The stable grouping of a rank-2 sparse tensor's entries by row: none needed when its rows never decrease (as in
 * canonical order); otherwise a stable sort by row, O(n log n). (TensorFlow's kernel reads the rows in stored order
 * and loses entries whose row comes after a later one; grouping first keeps them.)
 */
function rowRuns(sp: SparseData): RowRuns {
  const { indices } = sp;
  const n = sp.values.length;
  let grouped = true;
  for (let i = 1; i < n && grouped; i++) grouped = indices[2 * i] >= indices[2 * i - 2];
  let order: Uint32Array | undefined;
  if (!grouped) {
    order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((x, y) => indices[2 * x] - indices[2 * y] || x - y);
  }
  // The row of each position, in grouped order.
  const rowOf = new Float64Array(n);
  if (order) for (let p = 0; p < n; p++) rowOf[p] = indices[2 * order[p]];
  else for (let p = 0; p < n; p++) rowOf[p] = indices[2 * p];
  let distinct = 0;
  for (let p = 0; p < n; p++) if (p === 0 || rowOf[p] !== rowOf[p - 1]) distinct++;
  const rows = new Float64Array(distinct);
  const starts = new Float64Array(distinct + 1);
  let k = 0;
  for (let p = 0; p < n; p++) {
    if (p > 0 && rowOf[p] === rowOf[p - 1]) continue;
    rows[k] = rowOf[p];
    starts[k++] = p;
  }
  starts[k] = n;
  return { order, rows, starts };
}

/**
 * The plan of a cross of `inputs`, each of rank 2 with one batch size (the runtime checks both first). O(N) for N
 * stored entries and dense rows (O(N log N) where a sparse input's rows are out of order); the rows that cross are
 * found by walking the sparse inputs' rows together, so a batch far larger than the entries costs nothing.
 */
export function crossPlan(inputs: readonly CrossInput[]): CrossPlan {
  const sparse = inputs.filter((x): x is SparseData => x.kind === 'sparse');
  const dense = inputs.filter((x): x is DenseData => x.kind === 'dense');
  const columns: CrossInput[] = [...sparse, ...dense];
  const C = columns.length;
  const S = sparse.length;
  const batch = C === 0 ? 0 : columns[0].shape[0];
  const runs = sparse.map(rowRuns);
  const widths = dense.map((d) => d.shape[1]);
  const crossing = C > 0 && widths.every((w) => w > 0);
  // At most every row of the sparse input with fewest rows, or every row of the batch without sparse inputs.
  const most = !crossing ? 0 : S === 0 ? batch : Math.min(...runs.map((g) => g.rows.length));
  const rows = new Float64Array(most);
  const first = new Float64Array(most * C);
  const count = new Float64Array(most * C);
  const runRows = runs.map((g) => g.rows);
  const runStarts = runs.map((g) => g.starts);
  const at = new Int32Array(S);
  let k = 0;
  // Row `r` crosses, at the run at[s] of each sparse input: its features' places, column by column.
  const take = (r: number) => {
    rows[k] = r;
    const base = k * C;
    for (let s = 0; s < S; s++) {
      const starts = runStarts[s];
      first[base + s] = starts[at[s]];
      count[base + s] = starts[at[s] + 1] - starts[at[s]];
    }
    for (let d = 0; d < widths.length; d++) {
      first[base + S + d] = r * widths[d];
      count[base + S + d] = widths[d];
    }
    k++;
  };
  if (crossing && S === 0) {
    for (let r = 0; r < batch; r++) take(r);
  } else if (crossing) {
    // The rows every sparse input has: advance each input's run to the largest row any of them is at.
    walk: for (;;) {
      let target = -1;
      for (let s = 0; s < S; s++) {
        if (at[s] === runRows[s].length) break walk;
        target = Math.max(target, runRows[s][at[s]]);
      }
      let all = true;
      for (let s = 0; s < S; s++) {
        const list = runRows[s];
        while (at[s] < list.length && list[at[s]] < target) at[s]++;
        if (at[s] === list.length) break walk;
        if (list[at[s]] !== target) all = false;
      }
      if (!all) continue;
      take(target);
      for (let s = 0; s < S; s++) at[s]++;
    }
  }

  let total = 0;
  let widest = 0;
  for (let i = 0; i < k; i++) {
    let n = 1;
    for (let c = 0; c < C; c++) n *= count[i * C + c];
    total += n;
    widest = Math.max(widest, n);
  }
  return {
    columns,
    batch,
    rows: rows.subarray(0, k),
    first: first.subarray(0, k * C),
    count: count.subarray(0, k * C),
    order: [...runs.map((g) => g.order), ...dense.map(() => undefined)],
    total,
    widest,
  };
}

/**
 * Visits every cross of a plan in TensorFlow's order: row by row, and within a row the product of its columns'
 * features with the last column varying fastest. `visit` gets the output entry k, its row, its position j in the
 * row, the features' positions in `at` (one per column) and the first column whose feature changed since the last
 * call (0 for a row's first cross), so that a caller can keep what it built from the columns before that one.
 */
export function forEachCross(
  plan: CrossPlan,
  visit: (k: number, row: number, j: number, at: Float64Array, changed: number) => void,
): void {
  const C = plan.columns.length;
  const at = new Float64Array(C);
  let k = 0;
  for (let i = 0; i < plan.rows.length; i++) {
    const base = i * C;
    for (let c = 0; c < C; c++) at[c] = plan.first[base + c];
    let changed = 0;
    for (let j = 0; ; j++) {
      visit(k++, plan.rows[i], j, at, changed);
      // The odometer: advance the last column; a column past its last feature goes back to its first, carrying.
      let c = C - 1;
      while (c >= 0 && ++at[c] === plan.first[base + c] + plan.count[base + c]) {
        at[c] = plan.first[base + c];
        c--;
      }
      if (c < 0) break;
      changed = c;
    }
  }
}

/**
 * The lengths of the crosses as texts joined by a separator of `separatorLength` (sparse_cross): in all, and of the
 * longest, with each feature as long as its text (a string's length, an integer's decimal digits and sign). Linear,
 * without building any of them: for a row of P crosses, column c's features each appear in P / (its count) crosses.
 */
export function crossTextLengths(plan: CrossPlan, separatorLength: number): { total: number; longest: number } {
  const C = plan.columns.length;
  const lengths = plan.columns.map((column) => {
    const x = crossFeatures(column);
    const v = x.kind === 'sparse' ? x.values : x.data;
    return x.dtype === 'string'
      ? (v as string[]).map((s) => s.length)
      : Array.from(v as ArrayLike<number | bigint>, (e) => String(e).length);
  });
  let total = 0;
  let longest = 0;
  for (let k = 0; k < plan.rows.length; k++) {
    let crosses = 1;
    for (let c = 0; c < C; c++) crosses *= plan.count[k * C + c];
    let row = crosses * (C - 1) * separatorLength;
    let widest = (C - 1) * separatorLength;
    for (let c = 0; c < C; c++) {
      const order = plan.order[c];
      const first = plan.first[k * C + c];
      const n = plan.count[k * C + c];
      let sum = 0;
      let max = 0;
      for (let p = first; p < first + n; p++) {
        const len = lengths[c][order ? order[p] : p];
        sum += len;
        max = Math.max(max, len);
      }
      row += sum * (crosses / n);
      widest += max;
    }
    total += row;
    longest = Math.max(longest, widest);
  }
  return { total, longest };
}
