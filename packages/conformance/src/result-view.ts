import {
  formatValue,
  type CsrView,
  int64Entry,
  isDigitString,
  type DenseView,
  type OutputView,
  type SparseView,
  type TensorView,
} from '@sparse/case-format';

/**
 * The view of an output a runtime returned, found by its structure rather than its class so that plain data
 * works too: a SparseTensor (`indices`, `values`, `denseShape` or `dense_shape`, `dtype`), a dense Tensor
 * (`data`, `shape`, `dtype`) or a list of those. Returns a description instead when it is none of them.
 */
export function resultView(got: unknown): OutputView | { unrecognized: string } {
  if (Array.isArray(got)) {
    const views: TensorView[] = [];
    for (const [i, item] of got.entries()) {
      const v = resultTensor(item);
      if (v === undefined) return { unrecognized: `a list whose item ${i} is ${describe(item)}` };
      views.push(v);
    }
    return views;
  }
  return resultTensor(got) ?? { unrecognized: describe(got) };
}

function resultTensor(x: unknown): TensorView | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const o = x as Record<string, unknown>;
  const dtype = typeof o.dtype === 'string' ? o.dtype : '(none)';
  // A CsrMatrix (`rowPointers`...), or its plain data (`row_pointers`...).
  // Its other parts are read only then: a SparseTensor's number accessors refuse a dim past 2^53 - 1.
  const rowPointers = o.rowPointers ?? o.row_pointers;
  const colIndices = o.colIndices ?? o.col_indices;
  const csrShape = isList(rowPointers) && isList(colIndices) ? (o.denseShape ?? o.dense_shape) : undefined;
  if (isList(rowPointers) && isList(colIndices) && isList(o.values) && isList(csrShape)) {
    const batchPointers = o.batchPointers ?? o.batch_pointers;
    const view: CsrView = {
      kind: 'csr',
      batchPointers: isList(batchPointers) ? Array.from(batchPointers, Number) : [],
      rowPointers: Array.from(rowPointers, Number),
      colIndices: Array.from(colIndices, Number),
      values: Array.from(o.values, (v) => normalizeResult(v, dtype)),
      denseShape: Array.from(csrShape, Number),
      dtype,
    };
    return view;
  }
  // A SparseTensor holds its dims and indices exactly in `exactShape` and `exactIndexData` (its number accessors
  // refuse a dim past 2^53 - 1); plain data has `indices` and `dense_shape`.
  if (isList(o.exactShape) && isList(o.exactIndexData) && isList(o.values)) {
    const rank = o.exactShape.length;
    const flat = Array.from(o.exactIndexData as ArrayLike<bigint>, int64Entry) as (number | bigint)[];
    const view: SparseView = {
      kind: 'sparse',
      indices: Array.from({ length: o.values.length }, (_, i) => flat.slice(i * rank, (i + 1) * rank)),
      values: Array.from(o.values, (v) => normalizeResult(v, dtype)),
      denseShape: Array.from(o.exactShape as ArrayLike<bigint>, int64Entry) as (number | bigint)[],
      dtype,
    };
    return view;
  }
  // A SparseTensor also has a `shape`; only it has `indices`, so test for sparse first.
  const denseShape = o.denseShape ?? o.dense_shape;
  if (isList(o.indices) && isList(o.values) && isList(denseShape)) {
    const view: SparseView = {
      kind: 'sparse',
      indices: Array.from(o.indices, (row) => Array.from(row as ArrayLike<unknown>, int64Entry) as (number | bigint)[]),
      values: Array.from(o.values, (v) => normalizeResult(v, dtype)),
      denseShape: Array.from(denseShape, int64Entry) as (number | bigint)[],
      dtype,
    };
    return view;
  }
  // A Tensor reads its values by dataSync(); plain data has `data`.
  const data = typeof o.dataSync === 'function' ? (o.dataSync as () => unknown)() : o.data;
  if (isList(data) && isList(o.shape)) {
    const view: DenseView = {
      kind: 'dense',
      data: Array.from(data, (v) => normalizeResult(v, dtype)),
      shape: Array.from(o.shape, Number),
      dtype,
    };
    return view;
  }
  return undefined;
}

/** Storage to comparable values: bool is stored 0/1, int64 as bigint (plain data may hold numbers or digit strings). */
function normalizeResult(v: unknown, dtype: string): unknown {
  if (dtype === 'bool' && (v === 0 || v === 1)) return v === 1;
  if (dtype === 'int64' && ((typeof v === 'number' && Number.isSafeInteger(v)) || isDigitString(v))) return BigInt(v);
  return v;
}

const isList = (x: unknown): x is ArrayLike<unknown> =>
  typeof x === 'object' && x !== null && typeof (x as ArrayLike<unknown>).length === 'number';

export function describeKind(view: OutputView): string {
  if (Array.isArray(view)) return `a list of ${view.length}`;
  return view.kind === 'sparse' ? 'a SparseTensor' : view.kind === 'csr' ? 'a CsrMatrix' : 'a dense Tensor';
}

function describe(x: unknown): string {
  if (x === undefined || x === null) return String(x);
  if (typeof x !== 'object') return `${typeof x} ${formatValue(x)}`;
  const name = (x as object).constructor?.name;
  return name && name !== 'Object' ? `a ${name}` : `an object with keys ${formatValue(Object.keys(x))}`;
}
