import { describe, expect, it } from 'vitest';
import { SparseTensor, createRuntime, type Runtime } from '@sparse/runtime';

// A dense shape of five 4096 dims counts 2^60 elements: past 2^53, where a float stops counting exactly, but within
// int64, so TensorFlow takes it. Every dim is an exact JS number; the ops that never materialise the volume must take
// it and compute every position exactly (checked here against BigInt arithmetic); to_dense refuses it up front.

const D = 4096;
const SHAPE = [D, D, D, D, D];
const M = D - 1;
// Neighbours near 2^60, whose linear positions a float64 cannot tell apart, given out of order.
const ROWS = [
  [M, M, M, M, M],
  [M, M, M, M, M - 1],
  [0, 0, 0, 0, 1],
  [M, M, M, M - 1, M],
  [M, M, M, M, M - 2],
  [1, 2, 3, 4, 5],
];
const VALUES = [1, 2, 3, 4, 5, 6];
const st = () => new SparseTensor(ROWS, VALUES, SHAPE, 'float32');
const position = (row: readonly number[], shape: readonly number[] = SHAPE): bigint =>
  row.reduce((k, x, d) => k * BigInt(shape[d]) + BigInt(x), 0n);
const byPosition = ROWS.map((r, i) => ({ r, v: VALUES[i], p: position(r) })).sort((a, b) =>
  a.p < b.p ? -1 : a.p > b.p ? 1 : 0,
);

describe.each(['js', 'wasm'])('a dense shape of 2^60 elements on %s', (backend) => {
  let rt: Runtime;
  const open = async () => (rt ??= await createRuntime({ backend }));

  it('reorders into canonical order, position by exact position', async () => {
    const out = (await open()).sparse.reorder(st());
    expect(out.indices).toEqual(byPosition.map((e) => e.r));
    expect(Array.from(out.values as Float32Array)).toEqual(byPosition.map((e) => e.v));
    expect(out.shape).toEqual(SHAPE);
  });

  it('reshapes each position exactly, to a flat dim past 2^53 and to an inferred one', async () => {
    const sparse = (await open()).sparse;
    const flat = sparse.reshape(st(), [-1]);
    expect(flat.exactShape).toEqual([2n ** 60n]);
    expect(Array.from(flat.exactIndexData)).toEqual(ROWS.map((r) => position(r)));
    const target = [D * D, D, D * D];
    const out = sparse.reshape(st(), target);
    expect(out.shape).toEqual(target);
    const back = (p: bigint) => [p / BigInt(D * D * D), (p / BigInt(D * D)) % BigInt(D), p % BigInt(D * D)];
    expect(out.indices.map((r) => r.map(BigInt))).toEqual(ROWS.map((r) => back(position(r))));
  });

  it('slices, transposes, reduces and adds without counting the volume', async () => {
    const sparse = (await open()).sparse;
    const ordered = sparse.reorder(st());
    const slice = sparse.slice(ordered, [M, M, M, M, M - 1], [1, 1, 1, 1, 2]);
    expect(slice.indices).toEqual([
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 1],
    ]);
    expect(Array.from(slice.values as Float32Array)).toEqual([2, 1]);
    const t = sparse.transpose(ordered);
    // tf.sparse.transpose gives canonical order of the transposed positions.
    const reversed = ROWS.map((r) => [...r].reverse()).sort((a, b) => (position(a) < position(b) ? -1 : 1));
    expect(t.indices).toEqual(reversed);
    const sum = sparse.reduceSumSparse(ordered, { axis: [4] });
    expect(sum.shape).toEqual([D, D, D, D]);
    expect(Array.from(sum.values as Float32Array)).toEqual([3, 6, 4, 1 + 2 + 5]);
    const twice = sparse.add(ordered, ordered);
    expect(Array.from(twice.values as Float32Array)).toEqual(byPosition.map((e) => 2 * e.v));
    expect(sparse.reduceSum(ordered).toArray()).toBe(21);
  });

  it('concatenates and splits along a dim whose neighbours make the count pass 2^53', async () => {
    const sparse = (await open()).sparse;
    const both = sparse.concat(4, [st(), st()]);
    expect(both.shape).toEqual([D, D, D, D, 2 * D]);
    const shifted = ROWS.map((r) => [...r.slice(0, 4), r[4] + D]);
    const expected = [...ROWS, ...shifted].sort((a, b) => (position(a, both.shape) < position(b, both.shape) ? -1 : 1));
    expect(both.indices).toEqual(expected);
    const halves = sparse.split(0, 2, sparse.reorder(st()));
    expect(halves.map((h) => h.shape)).toEqual([
      [D / 2, D, D, D, D],
      [D / 2, D, D, D, D],
    ]);
    expect(halves[0].nnz + halves[1].nnz).toBe(ROWS.length);
  });

  it('refuses to make it dense, before allocating anything', async () => {
    const sparse = (await open()).sparse;
    const started = performance.now();
    expect(() => sparse.toDense(sparse.reorder(st()))).toThrow(
      /sparse_tensor_to_dense: .*\[4096,4096,4096,4096,4096\]/,
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
