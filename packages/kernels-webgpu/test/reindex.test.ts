import { describe, expect, it } from 'vitest';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import type { DenseData, DType, SparseData, Values } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/index.js';

// The index-rewriting ops on WebGPU (SwiftShader in CI) against the JS kernels: sparse_reshape, sparse_expand_dims,
// sparse_reset_shape, sparse_eye, sparse_to_indicator and sparse_merge; indices and values compared by their bits.

useBackend();

type Out = Record<string, SparseData | DenseData>;

/** A store as its words (float32, int32, float64 indices: nan, -0 included), else as it is. */
function bits(v: Values | Float64Array): unknown {
  if (v instanceof Float32Array || v instanceof Int32Array || v instanceof Float64Array)
    return { store: v.constructor.name, words: Array.from(new Uint32Array(v.slice().buffer)) };
  return { store: v.constructor.name, data: Array.from(v as ArrayLike<unknown>) };
}

function plain(x: SparseData | DenseData): unknown {
  if (x.kind === 'sparse') return { ...x, indices: bits(x.indices), values: bits(x.values) };
  return { ...x, data: bits(x.data) };
}

/** Runs op on webgpu, which must not delegate, and compares with js; `submits`: whether the call uses the GPU. */
async function same(op: string, args: Args, submits = true): Promise<Out> {
  const before = backend.submissions();
  const { outputs, reason } = await onGpu<Out>(op, args);
  expect(reason).toBeUndefined();
  expect(backend.submissions() - before).toBe(submits ? 1 : 0);
  const want = onJs<Out>(op, args);
  expect(Object.keys(outputs)).toEqual(Object.keys(want));
  for (const k of Object.keys(want)) expect(plain(outputs[k])).toEqual(plain(want[k]));
  return outputs;
}

/** Runs op on webgpu, which must delegate for `why`, and checks it gives js's result (or its error). */
async function delegates(op: string, args: Args, why: string): Promise<void> {
  let want: Out | undefined;
  try {
    want = onJs<Out>(op, args);
  } catch (e) {
    await expect(onGpu(op, args)).rejects.toThrow((e as Error).message);
    return;
  }
  const { outputs, reason } = await onGpu<Out>(op, args);
  expect(reason).toBe(why);
  for (const k of Object.keys(want)) expect(plain(outputs[k])).toEqual(plain(want[k]));
}

function values(r: Rng, dtype: DType, n: number): Float32Array | Int32Array {
  if (dtype === 'int32') return Int32Array.from({ length: n }, () => (r.next() * 2 ** 32) | 0);
  return Float32Array.from({ length: n }, () => r.next() * 200 - 100);
}

/** nnz random indices of `shape` (each dim's index drawn below `below`, default the dim), in random order. */
function sparse(r: Rng, shape: number[], nnz: number, dtype: DType, below = shape): SparseData {
  const rank = shape.length;
  const indices = new Float64Array(nnz * rank);
  for (let k = 0; k < indices.length; k++) indices[k] = r.int(below[k % rank]);
  return { kind: 'sparse', indices, values: values(r, dtype, nnz), shape, dtype };
}

const sp = (indices: number[], vals: Values, shape: number[], dtype: DType): SparseData => ({
  kind: 'sparse',
  indices: Float64Array.from(indices),
  values: vals,
  shape,
  dtype,
});

const SPECIAL = Float32Array.of(NaN, -0, Infinity, -Infinity, 1e-40, 0);

describe('sparse_reshape on webgpu', () => {
  const cases: [number[], number[], number][] = [
    [[1000], [25, 40], 300],
    [[37, 23], [-1], 200],
    [[5, 7, 11], [35, -1], 90],
    [[6, 10], [2, 3, 2, 5], 5000], // several workgroups, repeats
    [[1 << 20, 1 << 20], [-1], 700], // positions past 2^32: long division
    [[1 << 20, 1 << 20, 1 << 10], [1 << 10, -1, 1 << 25], 700], // 2^50 elements
  ];
  for (const dtype of ['float32', 'int32'] as const)
    for (const [shape, target, nnz] of cases)
      it(`${dtype}, [${shape}] to [${target}], ${nnz} entries`, async () => {
        const r = rng(nnz + shape.length + (dtype === 'int32' ? 1 : 0));
        await same('sparse_reshape', { sp_input: sparse(r, shape, nnz, dtype), shape: target });
      });

  it('2^60 and 2^64 elements, indices past 2^53 / 2^32 each way, hand-checked', async () => {
    const big = sp(
      [0, 0, 0, 0, 0, 1, 1023, 1023, 1023, 1023, 1023, 1023],
      Int32Array.of(1, 2),
      Array(6).fill(1024),
      'int32',
    );
    const out = (await same('sparse_reshape', { sp_input: big, shape: [2 ** 30, 2 ** 30] })).output as SparseData;
    expect(Array.from(out.indices)).toEqual([0, 1, 2 ** 30 - 1, 2 ** 30 - 1]);
    const max = 2 ** 32 - 1;
    const full = sp([max, max, 0, 5, 7, 0], Float32Array.of(1, 2, 3), [2 ** 32, 2 ** 32], 'float32');
    await same('sparse_reshape', { sp_input: full, shape: [2 ** 16, -1, 2 ** 16] });
    const flat = sp([2 ** 50 + 3, 2 ** 40], Float32Array.of(1, 2), [2 ** 51], 'float32');
    await same('sparse_reshape', { sp_input: flat, shape: [2 ** 11, 2 ** 40] });
  });

  it('specials bit for bit, rank 0 each way, no entries', async () => {
    await same('sparse_reshape', {
      sp_input: sp([0, 1, 1, 0, 2, 2, 0, 0, 1, 1, 0, 2], SPECIAL, [3, 3], 'float32'),
      shape: [9],
    });
    await same('sparse_reshape', { sp_input: sp([], Int32Array.of(3), [], 'int32'), shape: [1, -1, 1] });
    await same('sparse_reshape', { sp_input: sp([0, 0], Float32Array.of(2), [1, 1], 'float32'), shape: [] }, false);
    await same('sparse_reshape', { sp_input: sp([], new Float32Array(0), [0, 4], 'float32'), shape: [-1, 2] }, false);
  });

  it('strings too (values copied); delegates targets and indices js refuses, shapes of 2^64 elements or more', async () => {
    const ok = sp([1, 2, 0, 1], Int32Array.of(1, 2), [2, 3], 'int32');
    await same('sparse_reshape', { sp_input: { ...ok, values: ['a', 'b'], dtype: 'string' }, shape: [6] });
    for (const shape of [
      [4, 2],
      [4, -1],
      [-1, -1],
      [-2, -3],
      [2.5, 2],
    ])
      await delegates('sparse_reshape', { sp_input: ok, shape }, REASONS.unchecked);
    for (const bad of [
      [1, 3, 0, 1],
      [1, 2, -1, 1],
      [1, 2, 0.5, 1],
      [1, 2, -0, 1],
    ]) {
      const before = backend.submissions();
      await delegates(
        'sparse_reshape',
        { sp_input: { ...ok, indices: Float64Array.from(bad) }, shape: [3, 2] },
        REASONS.unchecked,
      );
      expect(backend.submissions() - before).toBe(1); // the GPU found it
    }
    await delegates(
      'sparse_reshape',
      { sp_input: sp([1, 2], Int32Array.of(1), [2 ** 33, 2 ** 33], 'int32'), shape: [2 ** 33, 2 ** 33] },
      REASONS.notPortedCase('sparse_reshape of a dense shape of more than 2^64 elements'),
    );
    await delegates(
      'sparse_reshape',
      { sp_input: sp([1, 2], Int32Array.of(1), [2 ** 33, 2 ** 33], 'int32'), shape: [-1, 2] },
      REASONS.notPortedCase('sparse_reshape to a dim past 2^53 - 1'),
    );
  });
});

describe('sparse_expand_dims on webgpu', () => {
  for (const dtype of ['float32', 'int32'] as const)
    for (const shape of [[1000], [37, 23], [5, 7, 11]])
      it(`${dtype}, shape [${shape}], every axis`, async () => {
        const r = rng(shape[0] + (dtype === 'int32' ? 1 : 0));
        const sp_input = sparse(r, shape, 3000, dtype);
        for (let axis = -shape.length - 1; axis <= shape.length; axis++)
          await same('sparse_expand_dims', { sp_input, axis });
      });

  it('indices past 2^32 and specials bit for bit, rank 0, no entries; strings; delegates a bad axis', async () => {
    const wide = sp([2 ** 52 + 1, 0, 3, 2 ** 40], SPECIAL.slice(0, 2), [2 ** 53 - 1, 2 ** 41], 'float32');
    await same('sparse_expand_dims', { sp_input: wide, axis: 1 });
    await same('sparse_expand_dims', { sp_input: sp([], Int32Array.of(4, 5), [], 'int32'), axis: -1 });
    await same('sparse_expand_dims', { sp_input: sp([], new Int32Array(0), [3, 0], 'int32'), axis: 0 }, false);
    await delegates('sparse_expand_dims', { sp_input: wide, axis: 3 }, REASONS.unchecked);
    await same('sparse_expand_dims', { sp_input: { ...wide, values: ['a', 'b'], dtype: 'string' }, axis: 0 });
  });
});

describe('sparse_reset_shape on webgpu', () => {
  for (const dtype of ['float32', 'int32'] as const)
    for (const shape of [[1000], [37, 23], [5, 7, 11], [2 ** 45, 3]])
      it(`${dtype}, shape [${shape}], bounding box and a given shape`, async () => {
        const r = rng(shape[0] + (dtype === 'int32' ? 1 : 0));
        const sp_input = sparse(
          r,
          shape,
          3000,
          dtype,
          shape.map((d) => Math.min(d, 2 ** 40)),
        );
        await same('sparse_reset_shape', { sp_input, new_shape: null });
        await same('sparse_reset_shape', { sp_input, new_shape: shape.map((d) => d + 2) }, false);
      });

  it('high and low words of the largest index, rank 0, no entries; delegates indices js bounds otherwise', async () => {
    // Same high word, the larger low word in a later entry; then a larger high word with a small low word.
    const words = sp([2 ** 33 + 5, 1, 2 ** 33 + 9, 0, 2 ** 34, 2], SPECIAL.slice(0, 3), [2 ** 40, 4], 'float32');
    const out = (await same('sparse_reset_shape', { sp_input: words, new_shape: null })).output as SparseData;
    expect(out.shape).toEqual([2 ** 34 + 1, 3]);
    await same('sparse_reset_shape', { sp_input: sp([], Int32Array.of(1), [], 'int32'), new_shape: null }, false);
    await same('sparse_reset_shape', { sp_input: sp([], new Int32Array(0), [3, 4], 'int32'), new_shape: null }, false);
    for (const bad of [-1, -0, NaN]) {
      const sp_input = sp([1, bad, 2, 0], Int32Array.of(1, 2), [3, 3], 'int32');
      await delegates('sparse_reset_shape', { sp_input, new_shape: null }, REASONS.unchecked);
    }
    await same('sparse_reset_shape', { sp_input: sp([1, 2], ['a'], [3, 3], 'string'), new_shape: null });
  });
});

describe('sparse_eye on webgpu', () => {
  it('float32 and int32, square and not, several workgroups, huge dims', async () => {
    for (const dtype of ['float32', 'int32'] as const)
      for (const [num_rows, num_columns] of [
        [1, null],
        [5, 5],
        [3, 7],
        [7, 3],
        [1000, null],
        [2 ** 50, 3],
        [70_000, 2 ** 52],
      ])
        await same('sparse_eye', { num_rows, num_columns, dtype });
  });

  it('no entries; delegates negative dims', async () => {
    await same('sparse_eye', { num_rows: 0, num_columns: 4, dtype: 'float32' }, false);
    await same('sparse_eye', { num_rows: 4, num_columns: 0, dtype: 'int32' }, false);
    await delegates('sparse_eye', { num_rows: -1, num_columns: 2, dtype: 'float32' }, REASONS.unchecked);
  });
});

/** int32 or int64 ids below `vocab`, as values of a sparse tensor of `shape` (the last dim's index any). */
function ids(r: Rng, shape: number[], nnz: number, vocab: number, dtype: 'int32' | 'int64'): SparseData {
  const s = sparse(r, shape, nnz, 'int32');
  const v = Array.from({ length: nnz }, () => r.int(vocab));
  return { ...s, values: dtype === 'int32' ? Int32Array.from(v) : BigInt64Array.from(v, BigInt), dtype };
}

describe('sparse_to_indicator on webgpu', () => {
  for (const dtype of ['int32', 'int64'] as const)
    for (const [shape, vocab, nnz] of [
      [[7], 10, 5],
      [[30, 4], 13, 100],
      [[6, 5, 3], 9, 70],
      [[50, 8], 301, 5000], // several workgroups, repeats
    ] as [number[], number, number][])
      it(`${dtype} ids, shape [${shape}], vocab ${vocab}, ${nnz} entries`, async () => {
        const r = rng(nnz + vocab + (dtype === 'int64' ? 1 : 0));
        await same('sparse_to_indicator', { sp_input: ids(r, shape, nnz, vocab, dtype), vocab_size: vocab });
      });

  it('no entries or no elements; delegates ids and indices js refuses', async () => {
    await same('sparse_to_indicator', { sp_input: sp([], new Int32Array(0), [3, 0], 'int32'), vocab_size: 5 }, false);
    await same(
      'sparse_to_indicator',
      { sp_input: sp([0, 0], Int32Array.of(0), [2, 1], 'int32'), vocab_size: 0 },
      false,
    );
    const ok = sp([0, 0, 1, 5], Int32Array.of(1, 2), [2, 1], 'int32');
    await delegates(
      'sparse_to_indicator',
      { sp_input: { ...ok, values: Int32Array.of(1, 3) }, vocab_size: 3 },
      REASONS.unchecked,
    );
    await delegates(
      'sparse_to_indicator',
      { sp_input: { ...ok, values: Int32Array.of(-1, 2) }, vocab_size: 3 },
      REASONS.unchecked,
    );
    const neg64 = { ...ok, values: BigInt64Array.of(-1n, 2n), dtype: 'int64' as const };
    await delegates('sparse_to_indicator', { sp_input: neg64, vocab_size: 2 ** 40 }, REASONS.unchecked);
    await delegates(
      'sparse_to_indicator',
      { sp_input: { ...ok, indices: Float64Array.of(2, 0, 1, 5) }, vocab_size: 3 },
      REASONS.unchecked,
    );
    const f32 = { ...ok, values: Float32Array.of(1, 2), dtype: 'float32' as const };
    await delegates('sparse_to_indicator', { sp_input: f32, vocab_size: 3 }, REASONS.unchecked);
  });
});

describe('sparse_merge on webgpu', () => {
  const lists: [number[], number[], number][] = [
    [[9], [12], 7], // rank-1 ids
    [[30, 4], [13], 100],
    [[6, 5, 3], [9], 70],
    [[40, 8], [301], 5000], // several workgroups and sort tiles, repeats
    [[20, 3], [5, 7], 300], // a list of two
    [[10, 2], [3, 4, 5], 2000], // a list of three, every index repeated
  ];
  for (const idType of ['int32', 'int64'] as const)
    for (const dtype of ['float32', 'int32'] as const)
      for (const [shape, vocab, nnz] of lists)
        it(`${idType} ids, ${dtype} values, shape [${shape}], vocab [${vocab}], ${nnz} entries`, async () => {
          const r = rng(nnz + vocab[0] + (idType === 'int64' ? 2 : 0) + (dtype === 'int32' ? 1 : 0));
          const list = vocab.map((v) => ids(r, shape, nnz, v, idType));
          const single = vocab.length === 1 && shape.length === 2;
          const sp_ids = single ? list[0] : list;
          const vocab_size = single ? vocab[0] : vocab;
          const sp_values = sparse(r, [nnz], nnz, dtype);
          await same('sparse_merge', { sp_ids, sp_values, vocab_size, already_sorted: false });
          await same('sparse_merge', { sp_ids, sp_values, vocab_size, already_sorted: true });
        });

  it('stable on repeated indices, specials bit for bit, hand-checked; no entries', async () => {
    const sp_ids = sp([0, 0, 1, 0, 0, 1, 1, 1, 0, 2, 0, 3], Int32Array.of(2, 0, 2, 0, 2, 1), [2, 4], 'int32');
    const sp_values = sp([0, 1, 2, 3, 4, 5], SPECIAL, [6], 'float32');
    const out = (await same('sparse_merge', { sp_ids, sp_values, vocab_size: 3, already_sorted: false }))
      .output as SparseData;
    expect(Array.from(out.indices)).toEqual([0, 1, 0, 2, 0, 2, 0, 2, 1, 0, 1, 0]);
    expect(bits(out.values)).toEqual(bits(Float32Array.of(0, NaN, Infinity, 1e-40, -0, -Infinity)));
    const empty = sp([], new Int32Array(0), [3, 0], 'int32');
    await same('sparse_merge', { sp_ids: empty, sp_values: empty, vocab_size: 5, already_sorted: false }, false);
  });

  it('delegates other value dtypes, shapes past 2^32 elements, and what js refuses', async () => {
    const sp_ids = sp([0, 0, 1, 0], Int32Array.of(1, 0), [2, 2], 'int32');
    const sp_values = sp([0, 1], Int32Array.of(5, 6), [2], 'int32');
    const strings = { ...sp_values, values: ['a', 'b'], dtype: 'string' as const };
    await delegates(
      'sparse_merge',
      { sp_ids, sp_values: strings, vocab_size: 2, already_sorted: false },
      REASONS.notComputed('string'),
    );
    await delegates(
      'sparse_merge',
      { sp_ids, sp_values, vocab_size: 2 ** 32, already_sorted: false },
      REASONS.wideKeys,
    );
    // 2^32 elements exactly: ids up to 2^32 - 1 sort on all 32 bits; an int32 -1 is out of range, not 2^32 - 1.
    const row = sp([0, 0, 0, 1, 0, 2], BigInt64Array.of(2n ** 32n - 1n, 0n, 7n), [1, 3], 'int64');
    const three = sp([0, 1, 2], Int32Array.of(1, 2, 3), [3], 'int32');
    await same('sparse_merge', { sp_ids: row, sp_values: three, vocab_size: 2 ** 32, already_sorted: false });
    const minus = { ...row, values: Int32Array.of(-1, 0, 7), dtype: 'int32' as const };
    await delegates(
      'sparse_merge',
      { sp_ids: minus, sp_values: three, vocab_size: 2 ** 32, already_sorted: false },
      REASONS.unchecked,
    );
    for (const bad of [
      { sp_ids: { ...sp_ids, values: Int32Array.of(1, 2) }, vocab_size: 2 },
      { sp_ids: { ...sp_ids, values: Int32Array.of(-1, 0) }, vocab_size: 2 },
      { sp_ids: { ...sp_ids, indices: Float64Array.of(0, 0, 2, 0) }, vocab_size: 2 },
      { sp_ids: [sp_ids], vocab_size: 2 },
      { sp_ids, vocab_size: [2] },
    ])
      await delegates('sparse_merge', { ...bad, sp_values, already_sorted: false }, REASONS.unchecked);
  });
});
