import type { CsrData, DType, SparseData } from '@sparse/kernel-abi';
import type { Rng } from '@sparse/test-kit/seeded-random';

// Random operands the webgpu backend's tests share, drawn from a seeded Rng (the same seed, the same operand).

/** n random values: int32 over all of its range, else float32 in [-100, 100). */
export function randomValues(r: Rng, dtype: DType, n: number): Float32Array | Int32Array {
  if (dtype === 'int32') return Int32Array.from({ length: n }, () => (r.next() * 2 ** 32) | 0);
  return Float32Array.from({ length: n }, () => r.next() * 200 - 100);
}

/** nnz random indices of `shape` (repeats likely where nnz nears the size), in random order. */
export function randomSparse(r: Rng, shape: number[], nnz: number, dtype: DType): SparseData {
  const rank = shape.length;
  const indices = new Float64Array(nnz * rank);
  for (let k = 0; k < indices.length; k++) indices[k] = r.int(shape[k % rank]);
  return { kind: 'sparse', indices, values: randomValues(r, dtype, nnz), shape, dtype };
}

/** nnz distinct random indices of `shape`, in canonical order unless `shuffled`, plus `repeats` repeated ones. */
export function distinctSparse(
  r: Rng,
  shape: number[],
  nnz: number,
  dtype: DType,
  shuffled = false,
  repeats = 0,
): SparseData {
  const size = shape.reduce((a, b) => a * b, 1);
  const offsets = new Set<number>();
  while (offsets.size < Math.min(nnz, size)) offsets.add(r.int(size));
  const list = [...offsets].sort((a, b) => a - b);
  for (let k = 0; k < repeats; k++) list.push(list[r.int(list.length)]);
  if (shuffled)
    for (let i = list.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
  const rank = shape.length;
  const indices = new Float64Array(list.length * rank);
  list.forEach((off, e) => {
    for (let a = rank - 1; a >= 0; a--) {
      indices[e * rank + a] = off % shape[a];
      off = Math.floor(off / shape[a]);
    }
  });
  return { kind: 'sparse', indices, values: randomValues(r, dtype, list.length), shape, dtype };
}

/** A value drawn for an entry. */
export type ValueOf = (r: Rng) => number;
export const uniform: ValueOf = (r) => r.next() * 2 - 1;

/** randomCsr's first arguments: the Rng, the batch and matrix dims, the density, whether the result is rank 3. */
export type CsrShapeArgs = [r: Rng, batch: number, rows: number, cols: number, density: number, rank3: boolean];

/**
 * A batch of `batch` random CSR matrices [rows × cols] (rank 3 when `rank3`), about `density` of them stored, each
 * entry's value by `value` after the structure. A row's columns are reversed with probability `reverse` (TensorFlow's
 * CSR need not sort them; one draw a row where `reverse` > 0, none where it is 0: sorted columns).
 */
export function randomCsr(
  ...[r, batch, rows, cols, density, rank3, dtype = 'float32', value = uniform, reverse = 0.3]: [
    ...CsrShapeArgs,
    dtype?: 'float32' | 'int32' | 'float64',
    value?: ValueOf,
    reverse?: number,
  ]
): CsrData {
  const batchPointers = new Int32Array(batch + 1);
  const rowPointers = new Int32Array(batch * (rows + 1));
  const colIndices: number[] = [];
  for (let b = 0; b < batch; b++) {
    let k = 0;
    for (let i = 0; i < rows; i++) {
      rowPointers[b * (rows + 1) + i] = k;
      const row: number[] = [];
      for (let c = 0; c < cols; c++) if (r.next() < density) row.push(c);
      if (reverse > 0 && r.next() < reverse) row.reverse();
      colIndices.push(...row);
      k += row.length;
    }
    rowPointers[b * (rows + 1) + rows] = k;
    batchPointers[b + 1] = batchPointers[b] + k;
  }
  const Store = dtype === 'float32' ? Float32Array : dtype === 'int32' ? Int32Array : Float64Array;
  return {
    kind: 'csr',
    batchPointers,
    rowPointers,
    colIndices: Int32Array.from(colIndices),
    values: Store.from(colIndices.map(() => value(r))),
    shape: rank3 ? [batch, rows, cols] : [rows, cols],
    dtype,
  };
}
