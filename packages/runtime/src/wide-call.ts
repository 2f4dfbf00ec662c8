import { indexText, isWideSparse, type DenseData, type SparseData, type WideSparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError, ResourceExhaustedError, UnimplementedError } from './errors.js';
import type { OpMeta } from './op-meta.js';
import { shapeText } from './shape.js';
import { expectedShape, isDenseResult } from './outputs.js';
import type { BoundArgs } from './bind-args.js';

type Sparse = SparseData | WideSparseData;
type Data = Sparse | DenseData;

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
const INT64_MAX = 2n ** 63n - 1n;
// Stand-ins are whole numbers in [2^52, 2^53): exact as floats, and 16 digits long, so an error's text can be mapped
// back to the values they stand for.
const FLOOR = 2 ** 52;
const STAND_IN = /\b\d{16}\b/g;

/**
 * A call with a sparse tensor whose dense shape has a dim past 2^53 - 1, or (for an exact op) a shape argument or an
 * element count past it. `exact` ops run on their BigInt kernel with `values` as bound; `compared` ops run on the
 * backend's kernel with `values` narrowed to stand-ins (see narrowCall), and `widen` maps each output back.
 */
export interface WideCall {
  exact: boolean;
  values: Record<string, unknown>;
  /** An output of the kernel as it stands for the call's exact values. */
  widen(d: Data): Data;
  /** An error's message with every stand-in written as the value it stands for. */
  exactError(e: unknown): unknown;
}

/** The wide form of a call, or undefined when every dim, index and shape argument is exact as a JS number. */
export function wideCallOf(op: OpMeta, bound: BoundArgs): WideCall | undefined {
  const values = bound.values;
  const sparse = sparseArgs(op, values);
  const wide =
    sparse.some(({ data }) => isWideSparse(data)) ||
    op.args.some((a) => Array.isArray(values[a.name]) && (values[a.name] as unknown[]).some(isBig)) ||
    (op.wideDims === 'exact' && sparse.some(({ data }) => elementCount(data.shape) > SAFE_MAX));
  if (!wide) return undefined;
  if (!op.wideDims) {
    throw new InvalidArgumentError(
      `${op.name}: a dense shape with a dim past 2^53 - 1 is not taken by this op (sparse holds such dims exactly for the ops docs/ops.md marks)`,
    );
  }
  for (const { name, data, checkLast } of sparse)
    if (isWideSparse(data)) validateWide(data, `${op.name}: ${name}`, checkLast);
  if (op.wideDims === 'exact') return { exact: true, values, widen: (d) => d, exactError: (e) => e };
  return narrowCall(op, bound, sparse);
}

interface SparseArg {
  name: string;
  data: Sparse;
  checkLast: boolean;
}

function sparseArgs(op: OpMeta, values: Record<string, unknown>): SparseArg[] {
  const out: SparseArg[] = [];
  for (const a of op.args) {
    const v = values[a.name];
    const checkLast = a.bounds !== 'except_last';
    const list = Array.isArray(v) ? v : [v];
    list.forEach((x, i) => {
      const kind = (x as Data | undefined)?.kind;
      if (kind === 'sparse' || kind === 'wide_sparse')
        out.push({ name: Array.isArray(v) ? `${a.name}[${i}]` : a.name, data: x as Sparse, checkLast });
    });
  }
  return out;
}

const isBig = (x: unknown): boolean => typeof x === 'bigint';

function elementCount(shape: readonly (number | bigint)[]): bigint {
  return shape.reduce<bigint>((n, d) => n * BigInt(d), 1n);
}

/** Every index of wide data a whole number within its dim, checked exactly (the kernels see only stand-ins). */
function validateWide(st: WideSparseData, where: string, checkLast: boolean): void {
  const { indices, shape } = st;
  const rank = shape.length;
  const checked = checkLast ? rank : rank - 1;
  for (let i = 0; i < st.values.length; i++) {
    for (let d = 0; d < checked; d++) {
      const x = indices[i * rank + d];
      if (x < 0n || x >= shape[d]) {
        throw new InvalidArgumentError(
          `${where}.indices[${i}] = ${indexText(indices, i, rank)} is out of bounds: need 0 <= index < ${shapeText(shape)}`,
        );
      }
    }
  }
}

/**
 * Runs a `compared` op on stand-ins. Its kernel only compares indices with each other and with dims, and copies
 * them, so any order-preserving renumbering of a dim past 2^53 - 1 gives the same result up to that renumbering.
 * Each such dim W becomes a stand-in dim above every index stand-in, and dims keep their order among themselves;
 * each index of such a dim below 2^52 stays as it is, and each one above becomes 2^52 + its rank among them.
 * Every other dim of the call must then be below 2^52 for the order to hold.
 */
function narrowCall(op: OpMeta, bound: BoundArgs, sparse: SparseArg[]): WideCall {
  const { values } = bound;
  const wideDims = new Set<bigint>();
  const shapes: (readonly (number | bigint)[])[] = [
    ...sparse.map(({ data }) => data.shape),
    ...op.args.filter((a) => a.type === 'shape').map((a) => values[a.name] as (number | bigint)[]),
  ];
  for (const shape of shapes) for (const d of shape) if (BigInt(d) > SAFE_MAX) wideDims.add(BigInt(d));
  const largeNarrow = shapes.flat().find((d) => BigInt(d) <= SAFE_MAX && Number(d) >= FLOOR);
  if (largeNarrow !== undefined) {
    throw new UnimplementedError(
      `${op.name}: a dim of ${largeNarrow} (2^52 or more) in a call with a dim past 2^53 - 1 is not supported`,
    );
  }
  checkWideAxis(op, values, sparse);

  const bigIndices = new Set<bigint>();
  for (const { data } of sparse) {
    if (!isWideSparse(data)) continue;
    const rank = data.shape.length;
    data.indices.forEach((x, k) => {
      if (data.shape[k % rank] > SAFE_MAX && x >= FLOOR) bigIndices.add(x);
    });
  }
  const indexValues = BigInt64Array.from(bigIndices).sort();
  const dimValues = BigInt64Array.from(wideDims).sort();
  const dimBase = FLOOR + indexValues.length;
  const indexRank = new Map<bigint, number>();
  indexValues.forEach((v, r) => indexRank.set(v, r));
  const dimTag = (d: number | bigint): number =>
    typeof d === 'bigint' && d > SAFE_MAX ? dimBase + dimValues.indexOf(d) : Number(d);
  const narrowed = new Map<Sparse, SparseData>();
  for (const { data } of sparse) if (isWideSparse(data)) narrowed.set(data, narrowSparse(data, dimTag, indexRank));

  const narrowValues: Record<string, unknown> = {};
  for (const a of op.args) {
    const v = values[a.name];
    if (a.type === 'shape') narrowValues[a.name] = (v as (number | bigint)[]).map(dimTag);
    else if (Array.isArray(v) && a.type.startsWith('sparse')) narrowValues[a.name] = v.map((x) => narrowed.get(x) ?? x);
    else narrowValues[a.name] = narrowed.get(v as Sparse) ?? v;
  }
  refuseWideOutputs(op, { ...bound, values: narrowValues }, (d) => dimValues[d - dimBase]);

  const standFor = (x: number): bigint =>
    (x >= dimBase ? dimValues[x - dimBase] : x >= FLOOR ? indexValues[x - FLOOR] : undefined) ?? BigInt(x);
  return {
    exact: false,
    values: narrowValues,
    widen: (d) => (d.kind === 'sparse' && d.shape.some((x) => x >= dimBase) ? widenOutput(op, d, standFor) : d),
    exactError: (e) => {
      if (e instanceof Error) e.message = e.message.replace(STAND_IN, (t) => String(standFor(Number(t))));
      return e;
    },
  };
}

function narrowSparse(
  data: WideSparseData,
  dimTag: (d: bigint) => number,
  indexRank: ReadonlyMap<bigint, number>,
): SparseData {
  const rank = data.shape.length;
  const wide = data.shape.map((d) => d > SAFE_MAX);
  const indices = new Float64Array(data.indices.length);
  data.indices.forEach((x, k) => {
    indices[k] = wide[k % rank] && x >= FLOOR ? FLOOR + indexRank.get(x)! : Number(x);
  });
  return { kind: 'sparse', indices, values: data.values, shape: data.shape.map(dimTag), dtype: data.dtype };
}

/**
 * An output in its exact form. Its dense shape may count past int64 where the inputs' did not (a concat's sum of
 * sizes times a dim past 2^53 - 1): refused as TensorFlow refuses such a shape, by its exact count.
 */
function widenOutput(op: OpMeta, d: SparseData, standFor: (x: number) => bigint): WideSparseData {
  const exact = widenSparse(d, standFor);
  const count = elementCount(exact.shape);
  if (count > INT64_MAX) {
    const name = op.outputs.length === 1 ? op.outputs[0].name : 'an output';
    throw new InvalidArgumentError(
      `${op.name}: ${name} of dense shape ${shapeText(exact.shape)} has ${count} elements, more than int64 counts (2^63 - 1), as TensorFlow refuses`,
    );
  }
  return exact;
}

function widenSparse(d: SparseData, standFor: (x: number) => bigint): WideSparseData {
  const indices = new BigInt64Array(d.indices.length);
  d.indices.forEach((x, k) => {
    indices[k] = standFor(x);
  });
  return { kind: 'wide_sparse', indices, values: d.values, shape: d.shape.map(standFor), dtype: d.dtype };
}

/** A concat or split along a dim past 2^53 - 1 computes with it: refused, the one case such ops do not take. */
function checkWideAxis(op: OpMeta, values: Record<string, unknown>, sparse: SparseArg[]): void {
  if (op.wideAxis === undefined || sparse.length === 0) return;
  const shape = sparse[0].data.shape;
  const axis = values[op.wideAxis] as number;
  const d = axis < 0 ? axis + shape.length : axis;
  const dims = sparse.map(({ data }) => BigInt(data.shape[d] ?? 0));
  const wide = dims.find((x) => x > SAFE_MAX);
  if (wide !== undefined) {
    throw new UnimplementedError(
      `${op.name}: ${op.wideAxis} = ${axis} picks a dim of ${wide}; ${op.name} takes dims past 2^53 - 1 only off its ${op.wideAxis}`,
    );
  }
}

/**
 * A dense output with a dim past 2^53 - 1, or a sparse one whose entries are bounded by such a dim, would hold
 * more than any budget: refused with the exact figure (the byte budget would count stand-ins).
 */
function refuseWideOutputs(op: OpMeta, narrow: BoundArgs, dimOf: (tag: number) => bigint | undefined): void {
  const denseResult = isDenseResult(op, narrow);
  for (const o of op.outputs) {
    for (const t of o.entries ?? []) {
      if (!('dim' in t)) continue;
      const [arg, d] = t.dim;
      const wide = dimOf((narrow.values[arg] as SparseData).shape[d]);
      if (wide === undefined) continue;
      throw new ResourceExhaustedError(
        `${op.name}: ${o.name} may hold ${wide} entries or more (dim ${d} of ${arg}), more than this runtime's budget`,
      );
    }
    if (!(o.type === 'dense' || (o.type === 'sparse_or_dense' && denseResult))) continue;
    const shape = expectedShape(o, narrow);
    if (!shape?.some((d) => dimOf(d) !== undefined)) continue;
    const exact = shape.map((d) => dimOf(d) ?? BigInt(d));
    throw new ResourceExhaustedError(
      `${op.name}: ${o.name} of dense shape ${shapeText(exact)} would hold ${elementCount(exact)} elements, more than a dense tensor can hold`,
    );
  }
}
