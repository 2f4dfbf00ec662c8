import type { CsrData, DenseData, SparseData } from '@sparse/kernel-abi';
import type { Args } from '../kernel.js';
import {
  csrRows,
  denseCols,
  denseGather,
  denseRows,
  joinCsrRows,
  joinDenseCols,
  joinDenseRows,
  joinSparse,
  scatterDenseRows,
  sparseEntries,
  sparseRows,
} from './slices.js';

/**
 * How an op's call splits into two smaller calls whose results make the whole one: by ranges of its primary
 * argument's leading dim (`rows`: each piece sees the entries and dense rows of its range, their leading index
 * counted from the range's start) or by ranges of its primary sparse argument's stored entries (`entries`).
 */
export interface Tiling {
  by: 'rows' | 'entries' | 'cols';
  /** The argument whose leading dim (rows) or entries (entries) are split. */
  primary: string;
  /** rows: the dim of the primary (and its other `rows` arguments) whose range is cut; 0 unless said. */
  axis?: number;
  /** rows: that dim's place in the outputs and the `denseRows` arguments (a reduction's kept dim); 0 unless said. */
  outAxis?: number;
  /** rows: how many rows there are, where the primary's shape does not say (segment ids: the output's segments). */
  rows?: number;
  /** rows: a piece's arguments, where the roles cannot say how to cut them (the op's own rule). */
  cut?: (args: Args, r0: number, r1: number) => Args;
  /** cols: how many output columns there are to split (the primary's `denseCols` last dim or `denseRows` leading one). */
  cols?: number;
  /**
   * What each argument is to a piece (the others go whole): `rows`, a sparse tensor cut to the range; `rowsList`, a
   * list of them; `denseRows`, a dense tensor cut to the range; `broadcast`, a dense operand broadcast against the
   * primary (cut where it has the primary's rank and leading dim, else whole); `entries`, a dense tensor with a row
   * per entry of the primary (a gradient of its values), cut to the piece's entries.
   */
  args: Readonly<Record<string, 'rows' | 'rowsList' | 'csrRows' | 'denseRows' | 'denseCols' | 'broadcast' | 'entries'>>;
  /**
   * How each output is put together: `sparse`, the pieces' entries end to end (rows: their leading index moved
   * back); `sparseBounds`, the same with the largest of each dim of the pieces' shapes (a bounding box);
   * `sparseList`, a list of them; `denseRows`, stacked along the leading dim; `denseCols`, side by side along the last
   * dim (cols: a matmul's output columns, cut as its `denseCols` argument's last dim or `denseRows` argument's
   * leading one); `entries`, a row per entry of the primary, each back where its entry was.
   */
  outputs: Readonly<
    Record<string, 'sparse' | 'sparseBounds' | 'sparseList' | 'csrRows' | 'denseRows' | 'denseCols' | 'entries'>
  >;
}

/** One piece of a tiled call: its arguments, where its range starts, and which of the primary's entries it holds. */
export interface Piece {
  args: Args;
  offset: number;
  positions?: ArrayLike<number>;
}

const leadingDim = (x: unknown): number => {
  const t = (Array.isArray(x) ? x[0] : x) as SparseData | DenseData | CsrData | undefined;
  return t?.shape.length ? t.shape[0] : 0;
};

/** How many rows a rows tiling cuts: its own count, or the primary's extent in the dim it cuts. */
const rowsOf = (t: Tiling, primary: unknown): number =>
  t.rows ?? (t.axis ? (primary as SparseData).shape[t.axis] : leadingDim(primary));

/** The call cut in two, or undefined where it cannot be (one row, entry or column left). */
export function halve(t: Tiling, args: Args): [Piece, Piece] | undefined {
  const primary = args[t.primary];
  const extent =
    t.by === 'entries' ? (primary as SparseData).values.length : t.by === 'cols' ? t.cols! : rowsOf(t, primary);
  if (extent < 2) return undefined;
  const piece = (from: number, to: number): Piece =>
    t.by === 'entries'
      ? entriesPiece(t, args, from, to)
      : t.by === 'cols'
        ? colsPiece(t, args, from, to)
        : rowsPiece(t, args, extent, from, to);
  const mid = Math.floor(extent / 2);
  return [piece(0, mid), piece(mid, extent)];
}

function entriesPiece(t: Tiling, args: Args, e0: number, e1: number): Piece {
  const out: Args = { ...args, [t.primary]: sparseEntries(args[t.primary] as SparseData, e0, e1) };
  for (const [name, role] of Object.entries(t.args))
    if (role === 'entries' && args[name]) out[name] = denseRows(args[name] as DenseData, e0, e1);
  return { args: out, offset: 0, positions: indexRange(e0, e1) };
}

/** Positions e0 … e1 - 1 as an array-like object. */
function indexRange(e0: number, e1: number): ArrayLike<number> {
  return Int32Array.from({ length: e1 - e0 }, (_, k) => e0 + k);
}

function colsPiece(t: Tiling, args: Args, c0: number, c1: number): Piece {
  const out: Args = { ...args };
  for (const [name, role] of Object.entries(t.args))
    if (role === 'denseCols') out[name] = denseCols(args[name] as DenseData, c0, c1);
    else if (role === 'denseRows') out[name] = denseRows(args[name] as DenseData, c0, c1);
  return { args: out, offset: c0 };
}

function rowsPiece(t: Tiling, args: Args, rows: number, r0: number, r1: number): Piece {
  if (t.cut) return { args: t.cut(args, r0, r1), offset: r0 };
  const out: Args = { ...args };
  let positions: ArrayLike<number> | undefined;
  for (const [name, role] of Object.entries(t.args)) {
    const x = args[name];
    if (x === null || x === undefined) continue;
    if (role === 'rows') {
      const cut = sparseRows(x as SparseData, r0, r1, t.axis);
      out[name] = cut.piece;
      if (name === t.primary) positions = cut.positions;
    } else if (role === 'rowsList') out[name] = (x as SparseData[]).map((s) => sparseRows(s, r0, r1).piece);
    else if (role === 'denseRows') out[name] = denseRows(x as DenseData, r0, r1, t.outAxis);
    else if (role === 'csrRows') out[name] = csrRows(x as CsrData, r0, r1);
    else if (role === 'broadcast')
      out[name] = cutsWith(x as DenseData, args[t.primary] as SparseData, rows) ? denseRows(x as DenseData, r0, r1) : x;
  }
  for (const [name, role] of Object.entries(t.args))
    if (role === 'entries' && args[name]) out[name] = denseGather(args[name] as DenseData, positions!);
  return { args: out, offset: r0, positions };
}

/** Whether a broadcast dense operand is cut with the primary: it has the primary's rank and leading dim. */
export const cutsWith = (dense: DenseData, primary: SparseData, rows: number): boolean =>
  dense.shape.length === primary.shape.length && dense.shape[0] === rows && rows > 1;

/** The outputs of the whole call from its pieces' outputs. */
export function join(t: Tiling, args: Args, pieces: readonly Piece[], outputs: readonly Args[]): Args {
  const whole: Args = {};
  const primary = args[t.primary];
  const offsets = t.by === 'rows' ? pieces.map((p) => p.offset) : pieces.map(() => 0);
  const axis = t.outAxis ?? 0;
  const shapeOf = (first: SparseData) => {
    const shape = first.shape.slice();
    if (t.by === 'rows') shape[axis] = rowsOf(t, primary);
    return shape;
  };
  for (const [name, role] of Object.entries(t.outputs)) {
    const parts = outputs.map((o) => o[name]);
    if (role === 'sparse')
      whole[name] = joinSparse(parts as SparseData[], offsets, shapeOf(parts[0] as SparseData), axis);
    else if (role === 'sparseBounds') {
      const shapes = (parts as SparseData[]).map((p) => p.shape);
      whole[name] = joinSparse(
        parts as SparseData[],
        offsets,
        shapes[0].map((_, d) => Math.max(...shapes.map((s) => s[d]))),
      );
    } else if (role === 'sparseList')
      whole[name] = (parts[0] as SparseData[]).map((first, k) =>
        joinSparse(
          parts.map((p) => (p as SparseData[])[k]),
          offsets,
          shapeOf(first),
        ),
      );
    else if (role === 'denseRows') whole[name] = joinDenseRows(parts as DenseData[], axis);
    else if (role === 'denseCols') whole[name] = joinDenseCols(parts as DenseData[]);
    else if (role === 'csrRows') whole[name] = joinCsrRows(parts as CsrData[]);
    else
      whole[name] = scatterDenseRows(
        parts as DenseData[],
        pieces.map((p) => p.positions!),
        (primary as SparseData).values.length,
      );
  }
  return whole;
}
