import { allocValues, type SparseData, type Values, type WideSparseData } from '@sparse/kernel-abi';
import { describe } from './dtype.js';
import { adoptSparse, sparseDataOf, SparseTensor } from './sparse-tensor.js';

/**
 * Summing repeated indices, as PyTorch's `coalesce()` and scipy's `sum_duplicates()`: the entries in canonical
 * row-major order, each index once, its values added in their order (float32 rounding each sum, int32 and int64
 * wrapping as TensorFlow's do, bool true where any is). O(nnz log nnz), in JS on every backend. String values
 * cannot be added: a TypeError.
 */
export function coalesce(spInput: SparseTensor): SparseTensor {
  if (!(spInput instanceof SparseTensor))
    throw new TypeError(`coalesce: sp_input must be a SparseTensor, got ${describe(spInput)}`);
  const d = sparseDataOf(spInput);
  if (d.dtype === 'string') throw new TypeError('coalesce: string values cannot be summed');
  const rank = d.shape.length;
  const idx = d.indices as ArrayLike<number | bigint>;
  const n = d.values.length;
  const compare = (a: number, b: number) => {
    for (let k = 0; k < rank; k++) {
      const x = idx[a * rank + k];
      const y = idx[b * rank + k];
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
  // A stable sort: entries that share an index keep their order, so their values add in it.
  const order = Array.from({ length: n }, (_, e) => e).sort(compare);
  const firsts: number[] = [];
  for (let k = 0; k < n; k++) if (k === 0 || compare(order[k - 1], order[k]) !== 0) firsts.push(k);
  const m = firsts.length;
  const indices = new (idx instanceof BigInt64Array ? BigInt64Array : Float64Array)(m * rank);
  const values = allocValues(d.dtype, m) as Exclude<Values, string[]>;
  const add = adder(d.dtype);
  const src = d.values as ArrayLike<number | bigint>;
  for (let j = 0; j < m; j++) {
    const start = firsts[j];
    const end = j + 1 < m ? firsts[j + 1] : n;
    const first = order[start];
    for (let k = 0; k < rank; k++) (indices as unknown as (number | bigint)[])[j * rank + k] = idx[first * rank + k];
    let acc = src[first];
    for (let q = start + 1; q < end; q++) acc = add(acc, src[order[q]]);
    (values as unknown as (number | bigint)[])[j] = acc;
  }
  return adoptSparse({ ...d, indices, values, shape: d.shape.slice() } as SparseData | WideSparseData);
}

/** How two stored values of a dtype add. */
function adder(dtype: string): (a: number | bigint, b: number | bigint) => number | bigint {
  switch (dtype) {
    case 'float32':
      return (a, b) => Math.fround((a as number) + (b as number));
    case 'int32':
      return (a, b) => ((a as number) + (b as number)) | 0;
    case 'int64':
      return (a, b) => BigInt.asIntN(64, (a as bigint) + (b as bigint));
    case 'bool':
      return (a, b) => (a || b ? 1 : 0);
    default:
      return (a, b) => (a as number) + (b as number);
  }
}
