import { isPlainObject } from './plain-object.js';

/**
 * Values from the libraries our users come from, met where a tensor is expected: TensorFlow.js tensors, scipy's
 * COO and CSR layouts, PyTorch's sparse COO layout. Each is refused with the exact conversion to write, never
 * misread as something else.
 */

/** Whether `x` is a TensorFlow.js tensor (by its shape: an app may hold more than one copy of tfjs-core). */
export function isTfJsTensor(x: unknown): boolean {
  if (typeof x !== 'object' || x === null) return false;
  const t = x as { dataId?: unknown; dataSync?: unknown; shape?: unknown; dtype?: unknown };
  return (
    t.dataId !== undefined && typeof t.dataSync === 'function' && Array.isArray(t.shape) && typeof t.dtype === 'string'
  );
}

/** What to write instead of a TF.js tensor given for an argument (`sparse`: one that takes a sparse tensor). */
export function tfJsHint(where: string, sparse: boolean): string {
  const convert = sparse
    ? 'convert it with sparse.fromDense(fromTf(x)) (fromTf from @sparse/tfjs), or give TF.js sparse parts to sparseFromTf(indices, values, denseShape)'
    : 'convert it with fromTf(x) from @sparse/tfjs (a copy), or call the op through @sparse/tfjs, which takes TF.js tensors and passes gradients';
  return `${where} is a TensorFlow.js tensor, which sparse does not read: ${convert}`;
}

/**
 * For a plain object that is not the `{indices, values, dense_shape}` form: the conversion to write where its fields
 * are another library's layout, else undefined.
 */
export function layoutHint(v: unknown): string | undefined {
  if (!isPlainObject(v)) return undefined;
  const has = (...keys: string[]) => keys.every((k) => k in v);
  if (has('row', 'col', 'data'))
    return "scipy's COO layout (row, col, data, shape): write SparseTensor.fromCoordinates([row, col], data, shape)";
  if (has('indptr', 'indices', 'data'))
    return (
      "scipy's CSR layout (indptr, indices, data, shape): write " +
      'new CsrMatrix(indptr, indices, data, shape, { canonicalize: true })'
    );
  if (has('indices', 'values', 'size'))
    return "PyTorch's COO layout (indices as [rank, nnz], values, size): write SparseTensor.fromCoordinates(indices, values, size)";
  return undefined;
}
