// A dense oracle's view of a SparseTensor: every position's value and whether it is stored.

export type NumericDType = 'float32' | 'float64' | 'int32' | 'int64';

export interface SparseForm {
  sparse: { indices: number[][]; values: number[]; dense_shape: number[] };
  dtype: NumericDType;
}

export interface Grid {
  shape: number[];
  data: number[];
  stored: boolean[];
}

export const sizeOf = (shape: readonly number[]) => shape.reduce((n, d) => n * d, 1);

export function strides(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  for (let d = shape.length - 1, k = 1; d >= 0; d--) {
    s[d] = k;
    k *= shape[d];
  }
  return s;
}

export const offsetOf = (index: readonly number[], shape: readonly number[]) =>
  index.reduce((off, x, d) => off + x * strides(shape)[d], 0);

export function indexOf(offset: number, shape: readonly number[]): number[] {
  return strides(shape).map((s, d) => Math.floor(offset / s) % shape[d]);
}

/** Densifies: repeated indices are not generated, so each position is written at most once. */
export function toGrid(f: SparseForm): Grid {
  const shape = f.sparse.dense_shape;
  const data = new Array<number>(sizeOf(shape)).fill(0);
  const stored = new Array<boolean>(sizeOf(shape)).fill(false);
  f.sparse.indices.forEach((ix, i) => {
    const off = offsetOf(ix, shape);
    data[off] = f.sparse.values[i];
    stored[off] = true;
  });
  return { shape, data, stored };
}

/** Nested lists of a flat row-major array. */
/** Rectangular nested lists (as a valid example holds) flattened row-major, with their shape. */
export function flattenNested(nested: unknown): { flat: unknown[]; shape: number[] } {
  const shape: number[] = [];
  for (let v = nested; Array.isArray(v); v = v[0]) {
    shape.push(v.length);
    if (v.length === 0) break;
  }
  const flat = Array.isArray(nested) ? (nested as unknown[]).flat(shape.length) : [nested];
  return { flat, shape };
}

export function nest(data: readonly unknown[], shape: readonly number[]): unknown {
  if (shape.length === 0) return data[0];
  const inner = sizeOf(shape.slice(1));
  return Array.from({ length: shape[0] }, (_, i) => nest(data.slice(i * inner, (i + 1) * inner), shape.slice(1)));
}

/** A value as the dtype computes it: float32 rounds, integers are generated small enough never to overflow. */
export function inDType(v: number, dtype: NumericDType): number {
  return dtype === 'float32' ? Math.fround(v) : v;
}

/** A dense tensor in the case format, from flat row-major data. */
export const denseForm = (data: readonly unknown[], shape: number[], dtype: string) => ({
  dense: nest(data, shape),
  shape,
  dtype,
});
