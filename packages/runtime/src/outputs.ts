import { reducedAxes } from '@sparse/kernel-abi';
import type { CsrData, DenseData, SparseData, WideSparseData } from '@sparse/kernel-abi';
import { isDType, type DType } from './dtype.js';
import type { OpMeta, OutputMeta } from './op-meta.js';
import { assertAllocatable, assertInt64Count, sameShape, shapeText } from './shape.js';
import { adoptSparse } from './sparse-tensor.js';
import { adoptDense } from './tensor.js';
import { adoptCsr } from './csr-matrix.js';
import type { BoundArgs } from './bind-args.js';
import { guardBytes } from './memory-guard.js';
import { establishInBounds, establishOrdered, knownOrdered } from './index-facts.js';

type Data = SparseData | DenseData;
type AnyData = Data | CsrData;

/** The dense shape an output must have by its spec rule, where the rule fixes it before the kernel runs. */
export function expectedShape(o: OutputMeta, bound: BoundArgs): number[] | undefined {
  const r = o.shape;
  if ('like' in r) return (bound.values[r.like] as Data).shape;
  if ('value' in r) return bound.values[r.value] as number[];
  if ('replace_last' in r) {
    const input = bound.values[r.replace_last.input] as Data | Data[];
    const shape = (Array.isArray(input) ? input[0] : input).shape;
    const last = bound.values[r.replace_last.with] as number | number[];
    return [...shape.slice(0, -1), ...(Array.isArray(last) ? last : [last])];
  }
  if ('replace_first' in r) {
    const shape = (bound.values[r.replace_first.input] as Data).shape;
    return [bound.values[r.replace_first.with] as number, ...shape.slice(1)];
  }
  if ('matmul' in r) {
    // Batch dims from a, then the rows of op(a) and the columns of op(b), each operand transposed by either flag.
    const m = r.matmul;
    const flag = (name: string | undefined) => name !== undefined && bound.values[name] === true;
    const [sa, sb] = [(bound.values[m.a] as AnyData).shape, (bound.values[m.b] as AnyData).shape];
    const [ra, rb] = [sa.length, sb.length];
    const rows = sa[flag(m.adjoint_a) || flag(m.transpose_a) ? ra - 1 : ra - 2];
    const cols = sb[flag(m.adjoint_b) || flag(m.transpose_b) ? rb - 2 : rb - 1];
    return [...sa.slice(0, -2), ...(flag(m.transpose_output) ? [cols, rows] : [rows, cols])];
  }
  if ('matrix_transpose' in r) {
    const s = (bound.values[r.matrix_transpose] as CsrData).shape;
    return [...s.slice(0, -2), s[s.length - 1], s[s.length - 2]];
  }
  if ('gradient_of' in r) {
    const d = bound.values[r.gradient_of] as Data | null;
    // A sparse or CSR argument's gradient is of its stored values (none for a null one); a dense one's, of the whole
    // tensor.
    return d === null ? [0] : d.kind === 'dense' ? d.shape : [d.values.length];
  }
  if ('lookup' in r) {
    const ids = (bound.values[r.lookup.ids] as Data).shape;
    return [...ids.slice(0, -1), ...(bound.values[r.lookup.params] as Data).shape.slice(1)];
  }
  if ('dims' in r) {
    // A null dim argument (TensorFlow's None) stands for the dim before it: sparse_eye's num_columns.
    const dims: number[] = [];
    for (const name of r.dims) dims.push((bound.values[name] as number | null) ?? dims[dims.length - 1]);
    return dims;
  }
  if ('segments' in r) return segmentsShape(r.segments, bound);
  if ('leading_dims' in r) return (bound.values[r.leading_dims.input] as Data).shape.slice(0, r.leading_dims.count);
  if ('rows_with_ids' in r) {
    // Entries come in row order (the op's checks), so the last one's row is the last row that holds an id.
    const ids = bound.values[r.rows_with_ids.ids] as SparseData;
    const rank = ids.shape.length;
    const rows = ids.values.length === 0 ? 0 : ids.indices[(ids.values.length - 1) * rank] + 1;
    return [rows, ...(bound.values[r.rows_with_ids.params] as Data).shape.slice(1)];
  }
  if ('reduce' in r) {
    const { input, axes, keepdims } = r.reduce;
    return reducedShape(
      (bound.values[input] as Data).shape,
      bound.values[axes] as number[] | null,
      bound.values[keepdims] as boolean,
    );
  }
  return undefined;
}

/** [num_segments, or the last segment id + 1 (0 without ids), ...the dims of data after its first]. */
function segmentsShape(r: { data: string; segment_ids: string; num_segments: string }, bound: BoundArgs): number[] {
  const ids = (bound.values[r.segment_ids] as DenseData).data as ArrayLike<number | bigint>;
  const given = bound.values[r.num_segments] as number | null;
  const rows = given ?? (ids.length === 0 ? 0 : Number(ids[ids.length - 1]) + 1);
  return [rows, ...(bound.values[r.data] as DenseData).shape.slice(1)];
}

/** The dense shape left when `axes` (null: all; negative from the end) are reduced: dropped, or kept as 1. */
function reducedShape(shape: readonly number[], axes: readonly number[] | null, keepdims: boolean): number[] {
  const rank = shape.length;
  const reduced = reducedAxes(axes, rank);
  return keepdims ? shape.map((d, i) => (reduced.has(i) ? 1 : d)) : shape.filter((_, i) => !reduced.has(i));
}

/**
 * Refuses, before any kernel allocates it, a dense output too large to hold, and a call whose outputs and working
 * memory would pass the runtime's byte budget. Returns the bytes the call is counted to need.
 */
export function guardOutputSizes(op: OpMeta, bound: BoundArgs, maxBytes: number): number {
  const denseResult = isDenseResult(op, bound);
  const outputs = op.outputs.map((o) => ({
    meta: o,
    shape: expectedShape(o, bound),
    dense: o.type === 'dense' || (o.type === 'sparse_or_dense' && denseResult),
  }));
  for (const o of outputs) if (o.dense && o.shape) assertAllocatable(o.shape, `${op.name}: ${o.meta.name}`);
  return guardBytes(op, bound, outputs, maxBytes);
}

// A sparse_or_dense output is dense when any sparse_or_dense argument is dense (sparse_add's rule).
export function isDenseResult(op: OpMeta, bound: BoundArgs): boolean {
  return op.args.some((a) => a.type === 'sparse_or_dense' && (bound.values[a.name] as Data).kind === 'dense');
}

/**
 * What a sparse output is known to be by construction, so that the ops it is passed to do not check it again: its
 * indices within its shape (our kernels write no other), and in canonical order where its spec says so.
 */
function establishOutputFacts(o: OutputMeta, d: SparseData, bound: BoundArgs): void {
  establishInBounds(d, true);
  const order = o.order;
  if (order === 'canonical' || (order && knownOrdered(bound.values[order.like] as SparseData))) establishOrdered(d);
}

/** Turns kernel outputs into SparseTensors and Tensors, checking each against its spec (a backend bug otherwise). */
export function wrapOutputs(
  op: OpMeta,
  bound: BoundArgs,
  out: Record<string, unknown>,
  backend: string,
  widen: (d: Data) => Data | WideSparseData = (d) => d,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const fail = (o: OutputMeta, why: string): never => {
    throw new Error(`the ${backend} kernel of ${op.name} returned a wrong ${o.name}: ${why}`);
  };
  for (const o of op.outputs) {
    const v = out[o.name];
    const want: DType = isDType(o.dtype) ? o.dtype : bound.dtypes[o.dtype];
    const check = (d: AnyData, shape?: number[]) => {
      if (d.dtype !== want) fail(o, `dtype ${d.dtype}, not ${want}`);
      if (shape && !sameShape(d.shape, shape)) fail(o, `shape ${shapeText(d.shape)}, not ${shapeText(shape)}`);
      if (d.kind === 'csr') return adoptCsr(d);
      // A shape only the kernel knows (a concat's sum of dims) may count past int64, as inputs may not.
      assertInt64Count(d.shape, `${op.name}: ${o.name} of dense shape`);
      if (d.kind === 'sparse') establishOutputFacts(o, d, bound);
      const w = widen(d);
      return w.kind === 'dense' ? adoptDense(w) : adoptSparse(w);
    };
    if (o.type === 'sparse_list') {
      if (!Array.isArray(v)) fail(o, 'not a list');
      result[o.name] = (v as Data[]).map((d) => check(d));
    } else {
      const d = v as AnyData;
      if (d?.kind !== 'sparse' && d?.kind !== 'dense' && d?.kind !== 'csr') fail(o, 'not a tensor');
      if (
        (o.type === 'csr') !== (d.kind === 'csr') ||
        (o.type === 'sparse' && d.kind !== 'sparse') ||
        (o.type === 'dense' && d.kind !== 'dense')
      )
        fail(o, `a ${d.kind} tensor`);
      result[o.name] = check(d, expectedShape(o, bound));
    }
  }
  return result;
}
