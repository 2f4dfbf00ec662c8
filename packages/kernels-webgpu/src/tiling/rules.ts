import { bincountPlan, type DenseData, type SparseData } from '@sparse/kernel-abi';
import { WEBGPU_FAMILIES, type WebGpuFamilySource } from '../generated/families.js';
import { WEBGPU_GRADIENTS, type WebGpuGradient } from '../generated/gradients.js';
import type { Args } from '../kernel.js';
import { denseGather, denseRows, sparseRows } from './slices.js';
import { cutsWith, type Tiling } from './tiling.js';

/**
 * How each op's call is tiled when a buffer would pass the binding limit: a function of the call's arguments giving
 * its Tiling, or undefined where the call cannot be cut (then it runs on the JS kernels, saying so). Rows are cut
 * only where the op treats each leading index on its own: a reduction that keeps dim 0, a softmax over a later dim,
 * a transpose or concat that leaves dim 0 in place.
 */
type Rule = (args: Args, limit: number) => Tiling | undefined;

const isSparse = (x: unknown): x is SparseData => (x as SparseData | undefined)?.kind === 'sparse';
const rankOf = (x: unknown) => (x as SparseData | DenseData).shape.length;
const dim = (axis: number, rank: number) => (axis < 0 ? axis + rank : axis);
/**
 * A reduction over `axes` (null: all) cut along the first dim it keeps: that dim of the input (`axis`) and its
 * place in the output (`outAxis`: less the reduced dims before it, unless kept), or undefined where it keeps none.
 */
function keptDim(axes: unknown, rank: number, keepdims: unknown): { axis: number; outAxis: number } | undefined {
  if (!Array.isArray(axes)) return undefined;
  const reduced = new Set(axes.map((a) => dim(a as number, rank)));
  for (let d = 0; d < rank; d++)
    if (!reduced.has(d)) return { axis: d, outAxis: keepdims ? d : d - [...reduced].filter((r) => r < d).length };
  return undefined;
}

/** A sparse input whose leading dim is cut, the same outputs. */
const rowsOf =
  (input: string, outputs: Tiling['outputs'], when: (args: Args) => boolean = () => true): Rule =>
  (args) =>
    isSparse(args[input]) && rankOf(args[input]) > 0 && when(args)
      ? { by: 'rows', primary: input, args: { [input]: 'rows' }, outputs }
      : undefined;

/** A sparse input whose entries are cut, one sparse output. */
const entriesOf =
  (input: string, extra: Tiling['args'] = {}): Rule =>
  () => ({ by: 'entries', primary: input, args: extra, outputs: { output: 'sparse' } });

/** A dense operand's last dim, where it has two dims or more and is past the limit (then its columns are cut). */
const wideColumns = (d: DenseData, limit: number) =>
  d.shape.length > 1 && d.data.length * 4 > limit ? d.shape[d.shape.length - 1] : 0;

/** The entries whose segment id is in [s0, s1), their ids less s0, as a call of s1 - s0 segments. */
function cutSegments(args: Args, s0: number, s1: number): Args {
  const ids = args.segment_ids as DenseData;
  const at: number[] = [];
  for (let k = 0; k < ids.data.length; k++) {
    const id = Number(ids.data[k]);
    if (id >= s0 && id < s1) at.push(k);
  }
  const shifted = denseGather(ids, at);
  const words = shifted.data as unknown as (number | bigint)[];
  for (let k = 0; k < words.length; k++)
    words[k] = typeof words[k] === 'bigint' ? (words[k] as bigint) - BigInt(s0) : (words[k] as number) - s0;
  return { ...args, indices: denseGather(args.indices as DenseData, at), segment_ids: shifted, num_segments: s1 - s0 };
}

/**
 * A segment reduction: its segments cut into ranges (the entries of each range, their ids made relative), or, where
 * the data is past the limit, the data's columns (each column reduces on its own).
 */
const segments: Rule = (a, limit): Tiling | undefined => {
  const cols = wideColumns(a.data as DenseData, limit);
  if (cols) return { by: 'cols', primary: 'data', cols, args: { data: 'denseCols' }, outputs: { output: 'denseCols' } };
  const ids = (a.segment_ids as DenseData).data;
  const rows = (a.num_segments as number | null) ?? (ids.length ? Number(ids[ids.length - 1]) + 1 : 0);
  return { by: 'rows', primary: 'segment_ids', rows, cut: cutSegments, args: {}, outputs: { output: 'denseRows' } };
};

/** A segment reduction's gradient: the upstream gradient's columns, each scattered on its own. */
const segmentsGrad: Rule = (a) => {
  const g = a.grad as DenseData;
  return g.shape.length > 1
    ? {
        by: 'cols',
        primary: 'grad',
        cols: g.shape[g.shape.length - 1],
        args: { grad: 'denseCols' },
        outputs: { output: 'denseCols' },
      }
    : undefined;
};

/**
 * An embedding lookup: the ids' rows (each output row combines its own ids), or, where the table is past the limit
 * and no max_norm scales its rows by their norms, the table's columns.
 */
const embedding =
  (table: string, ids: string, weights: string): Rule =>
  (a, limit): Tiling | undefined => {
    const cols = a.max_norm === null ? wideColumns(a[table] as DenseData, limit) : 0;
    if (cols)
      return { by: 'cols', primary: table, cols, args: { [table]: 'denseCols' }, outputs: { output: 'denseCols' } };
    return { by: 'rows', primary: ids, args: { [ids]: 'rows', [weights]: 'rows' }, outputs: { output: 'denseRows' } };
  };

/** The rows of an [n × rank] index matrix whose first index is in [r0, r1), that index less r0, and where they were. */
function indexRowsIn(
  idx: DenseData,
  n: number,
  rank: number,
  r0: number,
  r1: number,
): { cut: DenseData; at: number[] } {
  const at: number[] = [];
  for (let e = 0; e < n; e++) {
    const row = Number(idx.data[e * rank]);
    if (row >= r0 && row < r1) at.push(e);
  }
  const cut = denseGather({ ...idx, shape: [n, rank] }, at);
  const words = cut.data as unknown as (number | bigint)[];
  for (let k = 0; k < at.length; k++) {
    const w = words[k * rank];
    words[k * rank] = typeof w === 'bigint' ? w - BigInt(r0) : w - r0;
  }
  return { cut, at };
}

/** sparse_to_dense's entries whose first index is in [r0, r1), that index less r0, into an output of r1 - r0 rows. */
function cutIndexRows(args: Args, r0: number, r1: number): Args {
  const shape = args.output_shape as number[];
  const idx = args.sparse_indices as DenseData;
  const values = args.sparse_values as DenseData;
  const rank = shape.length;
  const n = idx.shape.length === 0 ? 1 : idx.shape[0];
  const { cut, at } = indexRowsIn(idx, n, rank, r0, r1);
  return {
    ...args,
    sparse_indices: { ...cut, shape: rank === 1 && idx.shape.length === 1 ? [at.length] : [at.length, rank] },
    sparse_values: values.shape.length === 0 ? values : denseGather(values, at),
    output_shape: [r1 - r0, ...shape.slice(1)],
  };
}

/** dense_to_csr_sparse_matrix's dense rows (or matrices) [r0, r1) and the indices among them. */
function cutDenseToCsr(args: Args, r0: number, r1: number): Args {
  const dense = args.dense_input as DenseData;
  const idx = args.indices as DenseData;
  const rank = dense.shape.length;
  return { ...args, dense_input: denseRows(dense, r0, r1), indices: indexRowsIn(idx, idx.shape[0], rank, r0, r1).cut };
}

/** A CSR operand's leading dim (rows, or batches) cut, the same outputs. */
const csrRowsOf =
  (input: string, outputs: Tiling['outputs']): Rule =>
  () => ({ by: 'rows', primary: input, args: { [input]: 'csrRows' }, outputs });

const HAND_WRITTEN: Record<string, Rule> = {
  // Counts by row: each piece's rows counted into the whole call's bins (its length fixed by min and max length).
  sparse_bincount: (a): Tiling | undefined => {
    const values = a.values as SparseData;
    if (rankOf(values) !== 2 || dim(a.axis as number, 2) !== 1) return undefined;
    const { shape } = bincountPlan(
      values,
      a.axis as number,
      a.minlength as number | null,
      a.maxlength as number | null,
    );
    const bins = shape[1];
    return {
      by: 'rows',
      primary: 'values',
      cut: (args, r0, r1) => {
        const cut = sparseRows(args.values as SparseData, r0, r1);
        const weights = args.weights as SparseData | null;
        return {
          ...args,
          values: cut.piece,
          weights: weights && sparseRows(weights, r0, r1).piece,
          minlength: bins,
          maxlength: bins,
        };
      },
      args: {},
      outputs: { output: 'sparse' },
    };
  },
  sparse_to_dense: (a) => {
    const shape = a.output_shape as number[];
    return shape.length
      ? {
          by: 'rows',
          primary: 'sparse_values',
          rows: shape[0],
          cut: cutIndexRows,
          args: {},
          outputs: { output: 'denseRows' },
        }
      : undefined;
  },
  dense_to_csr_sparse_matrix: () => ({
    by: 'rows',
    primary: 'dense_input',
    cut: cutDenseToCsr,
    args: {},
    outputs: { output: 'csrRows' },
  }),
  csr_sparse_matrix_to_dense: csrRowsOf('sparse_input', { output: 'denseRows' }),
  csr_sparse_matrix_to_sparse_tensor: csrRowsOf('sparse_matrix', { output: 'sparse' }),
  sparse_tensor_to_csr_sparse_matrix: rowsOf('sp_input', { output: 'csrRows' }),
  // A batch multiplies matrix by matrix; one matrix, row by row of a where nothing transposes it.
  sparse_matrix_mat_mul: (a): Tiling | undefined => {
    if (rankOf(a.a) === 3)
      return { by: 'rows', primary: 'a', args: { a: 'csrRows', b: 'denseRows' }, outputs: { output: 'denseRows' } };
    return a.transpose_a || a.adjoint_a || a.transpose_output
      ? undefined
      : { by: 'rows', primary: 'a', args: { a: 'csrRows' }, outputs: { output: 'denseRows' } };
  },
  sparse_matrix_sparse_mat_mul: (a): Tiling | undefined => {
    if (rankOf(a.a) === 3)
      return { by: 'rows', primary: 'a', args: { a: 'csrRows', b: 'csrRows' }, outputs: { output: 'csrRows' } };
    return a.transpose_a || a.adjoint_a
      ? undefined
      : { by: 'rows', primary: 'a', args: { a: 'csrRows' }, outputs: { output: 'csrRows' } };
  },
  // A batch of matrices transposes each on its own.
  sparse_matrix_transpose: (a) =>
    rankOf(a.input) === 3
      ? { by: 'rows', primary: 'input', args: { input: 'csrRows' }, outputs: { output: 'csrRows' } }
      : undefined,
  sparse_segment_sum: segments,
  sparse_segment_mean: segments,
  sparse_segment_sqrt_n: segments,
  sparse_segment_sum_grad: segmentsGrad,
  sparse_segment_mean_grad: segmentsGrad,
  sparse_segment_sqrt_n_grad: segmentsGrad,
  embedding_lookup_sparse: embedding('params', 'sp_ids', 'sp_weights'),
  safe_embedding_lookup_sparse: embedding('embedding_weights', 'sparse_ids', 'sparse_weights'),
  sparse_tensor_to_dense: rowsOf('sp_input', { output: 'denseRows' }),
  sparse_reorder: rowsOf('sp_input', { output: 'sparse' }),
  sparse_transpose: rowsOf('sp_input', { output: 'sparse' }, (a) =>
    a.perm === null ? rankOf(a.sp_input) === 1 : (a.perm as number[])[0] === 0,
  ),
  sparse_softmax: rowsOf('sp_input', { output: 'sparse' }, (a) => rankOf(a.sp_input) > 1),
  sparse_softmax_grad: (a) =>
    rankOf(a.sp_output) > 1
      ? {
          by: 'rows',
          primary: 'sp_output',
          args: { sp_output: 'rows', grad: 'entries' },
          outputs: { sp_input_grad: 'entries' },
        }
      : undefined,
  sparse_fill_empty_rows: rowsOf('sp_input', { output: 'sparse', empty_row_indicator: 'denseRows' }),
  sparse_to_indicator: rowsOf('sp_input', { output: 'denseRows' }, (a) => rankOf(a.sp_input) > 1),
  sparse_split: rowsOf('sp_input', { output: 'sparseList' }, (a) => dim(a.axis as number, rankOf(a.sp_input)) !== 0),
  sparse_merge: (a) =>
    isSparse(a.sp_ids)
      ? { by: 'rows', primary: 'sp_values', args: { sp_ids: 'rows', sp_values: 'rows' }, outputs: { output: 'sparse' } }
      : undefined,
  sparse_concat: (a) => {
    const inputs = a.sp_inputs as SparseData[];
    const rank = inputs[0]?.shape.length ?? 0;
    if (inputs.length < 2 || rank < 2 || dim(a.axis as number, rank) === 0) return undefined;
    if (!inputs.every((s) => s.shape.length === rank && s.shape[0] === inputs[0].shape[0])) return undefined;
    return { by: 'rows', primary: 'sp_inputs', args: { sp_inputs: 'rowsList' }, outputs: { output: 'sparse' } };
  },
  sparse_tensor_dense_matmul: (a, limit): Tiling | undefined => {
    if (!isSparse(a.sp_a) || isSparse(a.b)) return undefined;
    const b = a.b as DenseData;
    // A dense operand past the limit: cut the output's columns (b's columns, or its rows where adjoint).
    if (b.data.length * 4 > limit) {
      const cols = a.adjoint_b ? b.shape[0] : b.shape[1];
      return {
        by: 'cols',
        primary: 'b',
        cols,
        args: { b: a.adjoint_b ? 'denseRows' : 'denseCols' },
        outputs: { output: 'denseCols' },
      };
    }
    // Else its rows: A's rows, or its columns where adjoint (each output row's entries keep their order).
    return {
      by: 'rows',
      primary: 'sp_a',
      axis: a.adjoint_a ? 1 : 0,
      args: { sp_a: 'rows' },
      outputs: { output: 'denseRows' },
    };
  },
  from_dense: (a) =>
    rankOf(a.tensor) > 0
      ? { by: 'rows', primary: 'tensor', args: { tensor: 'denseRows' }, outputs: { output: 'sparse' } }
      : undefined,
  sparse_slice: entriesOf('sp_input'),
  sparse_retain: entriesOf('sp_input', { to_retain: 'entries' }),
  sparse_reshape: entriesOf('sp_input'),
  sparse_expand_dims: entriesOf('sp_input'),
  // With new_shape null the shape is the entries' bounding box: the pieces' boxes' largest.
  sparse_reset_shape: (a) => ({
    by: 'entries',
    primary: 'sp_input',
    args: {},
    outputs: { output: a.new_shape === null ? 'sparseBounds' : 'sparse' },
  }),
};

/** A family op's tiling, from its roles. */
function familyRule(src: WebGpuFamilySource): Rule | undefined {
  const { roles, output } = src;
  if (src.family === 'map') return entriesOf(roles.sparse!);
  if (src.family === 'cwise')
    return () => ({
      by: 'rows',
      primary: roles.sparse!,
      args: { [roles.sparse!]: 'rows', [roles.dense!]: 'broadcast' },
      outputs: { [output]: 'sparse' },
    });
  if (src.family === 'reduce')
    return (a) => {
      const kept = keptDim(a[roles.axes!], rankOf(a[roles.sparse!]), a[roles.keepdims!]);
      return kept
        ? {
            by: 'rows',
            primary: roles.sparse!,
            ...kept,
            args: { [roles.sparse!]: 'rows' },
            outputs: { [output]: src.outputKind === 'dense' ? 'denseRows' : 'sparse' },
          }
        : undefined;
    };
  // merge: two operands of one shape, either of which may be dense (then so is the result).
  return (a) => {
    const [x, y] = [a[roles.a!], a[roles.b!]];
    if (rankOf(x) === 0) return undefined;
    const role = (v: unknown) => (isSparse(v) ? 'rows' : 'denseRows');
    return {
      by: 'rows',
      primary: isSparse(x) ? roles.a! : roles.b!,
      args: { [roles.a!]: role(x), [roles.b!]: role(y) },
      outputs: { [output]: isSparse(x) && isSparse(y) ? 'sparse' : 'denseRows' },
    };
  };
}

/** A derived gradient's tiling: of map (by entries), cwise (by rows, its dense operand cut too) and reduce keeping dim 0. */
function gradientRule(src: WebGpuGradient): Rule | undefined {
  if (src.family === 'map')
    return () => ({
      by: 'entries',
      primary: src.roles.sparse!,
      args: { grad: 'entries' },
      outputs: { [src.outputs.sparse]: 'entries' },
    });
  if (src.family === 'cwise') {
    const { sparse, dense } = src.roles as { sparse: string; dense: string };
    const denseOut = (src.outputs as { dense: string }).dense;
    // The dense operand's gradient sums its entries' parts in entry order: only a cut operand keeps that order.
    return (a) =>
      cutsWith(
        a[dense] as DenseData,
        a[sparse] as SparseData,
        rankOf(a[sparse]) ? (a[sparse] as SparseData).shape[0] : 0,
      )
        ? {
            by: 'rows',
            primary: sparse,
            args: { [sparse]: 'rows', [dense]: 'denseRows', grad: 'entries' },
            outputs: { [src.outputs.sparse]: 'entries', [denseOut]: 'denseRows' },
          }
        : undefined;
  }
  if (src.family === 'reduce' && src.output === 'dense') {
    const { sparse, axes, keepdims } = src.roles as { sparse: string; axes: string; keepdims: string };
    return (a) => {
      const kept = keptDim(a[axes], rankOf(a[sparse]), a[keepdims]);
      return kept
        ? {
            by: 'rows',
            primary: sparse,
            ...kept,
            args: { [sparse]: 'rows', grad: 'denseRows' },
            outputs: { [src.outputs.sparse]: 'entries' },
          }
        : undefined;
    };
  }
  return undefined;
}

/** Every op's tiling rule that has one. */
export const TILINGS: Readonly<Record<string, Rule>> = (() => {
  const rules: Record<string, Rule> = { ...HAND_WRITTEN };
  for (const [op, src] of Object.entries(WEBGPU_FAMILIES)) {
    const r = familyRule(src);
    if (r) rules[op] = r;
  }
  for (const [op, src] of Object.entries(WEBGPU_GRADIENTS)) {
    const r = gradientRule(src);
    if (r) rules[op] = r;
  }
  return rules;
})();
