import { describe, expect, it } from 'vitest';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import { plain } from './compare.js';
import { randomSparse, randomValues } from './random.js';
import type { DenseData, DType, SparseData } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/index.js';

// The structural kernels on WebGPU (SwiftShader in CI) against the JS kernels: every output equal, values by bits.

useBackend();

type Out = Record<string, SparseData | DenseData>;
const jsOf = (op: string) => (args: Args) => onJs<Out>(op, args);
const gpu = (op: string, args: Args) => onGpu<Out>(op, args);

/**
 * Runs op on the webgpu kernel (which must not delegate) and compares every output with js; `submits`: whether the
 * call needs the GPU (one submission) or none (nothing to move: no entries, a scalar).
 */
async function expectSameAsJs(op: string, args: Args, submits = true): Promise<Out> {
  const before = backend.submissions();
  const { outputs, reason } = await gpu(op, args);
  expect(reason).toBeUndefined();
  const want = jsOf(op)(args);
  expect(Object.keys(outputs).sort()).toEqual(Object.keys(want).sort());
  for (const k of Object.keys(want)) expect(plain(outputs[k])).toEqual(plain(want[k]));
  expect(backend.submissions() - before).toBe(submits ? 1 : 0);
  return outputs;
}

const CASES: [number[], number][] = [
  [[1000], 300],
  [[37, 23], 200],
  [[5, 7, 11], 90],
  [[300, 200], 20_000], // several workgroup tiles, 16-bit keys: four passes
  [[3, 5], 60], // more entries than elements: every index repeated
  [[65_536, 65_535], 5_000], // keys near 2^32: eight passes
];

describe('sparse_reorder and sparse_transpose on webgpu', () => {
  for (const dtype of ['float32', 'int32'] as const)
    for (const [shape, nnz] of CASES)
      it(`${dtype}, shape [${shape}], ${nnz} entries in random order`, async () => {
        const r = rng(shape.length * 1000 + nnz + (dtype === 'int32' ? 1 : 0));
        const sp_input = randomSparse(r, shape, nnz, dtype);
        await expectSameAsJs('sparse_reorder', { sp_input });
        await expectSameAsJs('sparse_transpose', { sp_input, perm: null });
        if (shape.length === 3) await expectSameAsJs('sparse_transpose', { sp_input, perm: [1, 2, 0] });
        // Already ordered: no pass, the identity.
        const ordered = (jsOf('sparse_reorder')({ sp_input }) as { output: SparseData }).output;
        await expectSameAsJs('sparse_reorder', { sp_input: ordered });
      });

  it('repeated indices keep their input order (stable), hand-checked', async () => {
    const sp_input: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([1, 1, 0, 0, 1, 1, 0, 0]),
      values: Int32Array.from([1, 2, 3, 4]),
      shape: [2, 2],
      dtype: 'int32',
    };
    const out = (await expectSameAsJs('sparse_reorder', { sp_input })).output as SparseData;
    expect(Array.from(out.values as Int32Array)).toEqual([2, 4, 1, 3]);
    // 20k entries over 8 indices: each index's run must keep input order across every tile.
    const r = rng(7);
    const many = randomSparse(r, [2, 4], 20_000, 'int32');
    many.values = Int32Array.from({ length: 20_000 }, (_, i) => i);
    await expectSameAsJs('sparse_reorder', { sp_input: many });
    await expectSameAsJs('sparse_transpose', { sp_input: many, perm: [1, 0] });
  });

  it('float32 specials move bit for bit; empty inputs and scalars', async () => {
    const special = Float32Array.from([Infinity, -Infinity, NaN, -0, 1e-40, -1.4e-45, 3.4e38]);
    const sp_input: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([6, 5, 4, 3, 2, 1, 0]),
      values: special,
      shape: [7],
      dtype: 'float32',
    };
    await expectSameAsJs('sparse_reorder', { sp_input });
    const empty: SparseData = {
      kind: 'sparse',
      indices: new Float64Array(0),
      values: new Float32Array(0),
      shape: [3, 0],
      dtype: 'float32',
    };
    await expectSameAsJs('sparse_reorder', { sp_input: empty }, false);
    await expectSameAsJs('sparse_transpose', { sp_input: empty, perm: null }, false);
    const scalar: SparseData = {
      kind: 'sparse',
      indices: new Float64Array(0),
      values: Int32Array.of(5),
      shape: [],
      dtype: 'int32',
    };
    await expectSameAsJs('sparse_reorder', { sp_input: scalar });
    await expectSameAsJs('sparse_transpose', { sp_input: scalar, perm: null });
  });

  it('delegates other dtypes, shapes past 2^32 elements and a perm that is not one, saying why', async () => {
    const strings: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([2, 0]),
      values: ['b', 'a'],
      shape: [3],
      dtype: 'string',
    };
    for (const op of ['sparse_reorder', 'sparse_transpose']) {
      const args = { sp_input: strings, perm: null };
      const { outputs, reason } = await gpu(op, args);
      expect(reason).toBe(REASONS.notComputed('string'));
      expect(plain(outputs.output)).toEqual(plain(jsOf(op)(args).output));
    }
    const huge: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([1, 5, 0, 7]),
      values: Int32Array.of(1, 2),
      shape: [2 ** 20, 2 ** 20],
      dtype: 'int32',
    };
    const { outputs, reason } = await gpu('sparse_reorder', { sp_input: huge });
    expect(reason).toBe(REASONS.wideKeys);
    expect(Array.from((outputs.output as SparseData).indices)).toEqual([0, 7, 1, 5]);
    const bad = await gpu('sparse_transpose', { sp_input: { ...huge, shape: [2, 8] }, perm: [0, 0] });
    expect(bad.reason).toBe(REASONS.unchecked);
  });
});

describe('from_dense on webgpu', () => {
  const dense = (data: Float32Array | Int32Array, shape: number[]): DenseData => ({
    kind: 'dense',
    data,
    shape,
    dtype: data instanceof Float32Array ? 'float32' : 'int32',
  });
  for (const dtype of ['float32', 'int32'] as const)
    for (const shape of [[7], [1000], [37, 23], [5, 7, 11], [150, 150], [40, 30, 25]])
      it(`${dtype}, shape [${shape}], a third nonzero`, async () => {
        const r = rng(shape.reduce((a, b) => a * b, 1) + (dtype === 'int32' ? 1 : 0));
        const size = shape.reduce((a, b) => a * b, 1);
        const data = randomValues(r, dtype, size);
        for (let i = 0; i < size; i++) if (r.next() < 0.67) data[i] = 0;
        data[size - 1] = 7; // at least one kept
        await expectSameAsJs('from_dense', { tensor: dense(data, shape) });
      });

  it('-0 is dropped, nan and subnormals kept, bit for bit; all zero, scalars and empty shapes', async () => {
    const special = Float32Array.from([0, -0, NaN, 1e-40, -1.4e-45, Infinity, -Infinity, 0, 3.4e38, -0]);
    const out = (await expectSameAsJs('from_dense', { tensor: dense(special, [2, 5]) })).output as SparseData;
    expect(out.values.length).toBe(6);
    await expectSameAsJs('from_dense', { tensor: dense(new Int32Array(12), [3, 4]) }, false);
    await expectSameAsJs('from_dense', { tensor: dense(Int32Array.of(-(2 ** 31), 0, 2 ** 31 - 1), [3]) });
    await expectSameAsJs('from_dense', { tensor: dense(Float32Array.of(2.5), []) }, false);
    await expectSameAsJs('from_dense', { tensor: dense(Float32Array.of(-0), []) }, false);
    await expectSameAsJs('from_dense', { tensor: dense(new Float32Array(0), [0, 4]) }, false);
  });

  it('delegates strings, saying so', async () => {
    const args = { tensor: { kind: 'dense', data: ['', 'x'], shape: [2], dtype: 'string' } };
    const { outputs, reason } = await gpu('from_dense', args);
    expect(reason).toBe(REASONS.notComputed('string'));
    expect(plain(outputs.output)).toEqual(plain(jsOf('from_dense')(args).output));
  });
});

describe('sparse_to_dense on webgpu', () => {
  /** nnz distinct random offsets of shape as an [nnz × rank] index matrix (in order, or shuffled with repeats). */
  function indexArgs(r: Rng, shape: number[], nnz: number, dtype: DType, ordered: boolean, int64 = false): Args {
    const size = shape.reduce((a, b) => a * b, 1);
    const set = new Set<number>();
    while (set.size < Math.min(nnz, size)) set.add(r.int(size));
    const list = [...set].sort((a, b) => a - b);
    if (!ordered) {
      for (let k = 0; k < nnz / 3; k++) list.push(list[r.int(list.length)]);
      for (let i = list.length - 1; i > 0; i--) {
        const j = r.int(i + 1);
        [list[i], list[j]] = [list[j], list[i]];
      }
    }
    const rank = shape.length;
    const idx: number[] = [];
    for (let off of list) {
      const row = new Array<number>(rank);
      for (let a = rank - 1; a >= 0; a--) {
        row[a] = off % shape[a];
        off = Math.floor(off / shape[a]);
      }
      idx.push(...row);
    }
    const sparse_indices: DenseData = int64
      ? { kind: 'dense', data: BigInt64Array.from(idx.map(BigInt)), shape: [list.length, rank], dtype: 'int64' }
      : { kind: 'dense', data: Int32Array.from(idx), shape: [list.length, rank], dtype: 'int32' };
    const vals = randomValues(r, dtype, list.length);
    return {
      sparse_indices,
      output_shape: shape,
      sparse_values: { kind: 'dense', data: vals, shape: [list.length], dtype },
      default_value: dtype === 'int32' ? -3 : 0.5,
      validate_indices: ordered,
    };
  }
  for (const dtype of ['float32', 'int32'] as const)
    for (const [shape, nnz] of [
      [[1000], 100],
      [[37, 23], 200],
      [[5, 7, 11], 90],
      [[300, 300], 4000],
    ] as [number[], number][])
      it(`${dtype}, shape [${shape}], ${nnz} indices, ordered and not`, async () => {
        const r = rng(nnz + shape.length + (dtype === 'int32' ? 1 : 0));
        await expectSameAsJs('sparse_to_dense', indexArgs(r, shape, nnz, dtype, true));
        await expectSameAsJs('sparse_to_dense', indexArgs(r, shape, nnz, dtype, false, true));
        await expectSameAsJs('sparse_to_dense', { ...indexArgs(r, shape, nnz, dtype, true), default_value: 0 });
      });

  it('scalar and vector indices, a scalar value for every index, no indices', async () => {
    const i32 = (data: number[], shape: number[]): DenseData => ({
      kind: 'dense',
      data: Int32Array.from(data),
      shape,
      dtype: 'int32',
    });
    const f32 = (data: number[], shape: number[]): DenseData => ({
      kind: 'dense',
      data: Float32Array.from(data),
      shape,
      dtype: 'float32',
    });
    const base = { default_value: 0, validate_indices: true };
    const one = await expectSameAsJs('sparse_to_dense', {
      ...base,
      sparse_indices: i32([2], []),
      output_shape: [5],
      sparse_values: i32([7], []),
    });
    expect(Array.from((one.output as DenseData).data as Int32Array)).toEqual([0, 0, 7, 0, 0]);
    await expectSameAsJs('sparse_to_dense', {
      ...base,
      sparse_indices: i32([1, 3], [2]),
      output_shape: [5],
      sparse_values: f32([10.5, NaN], [2]),
      default_value: -1,
    });
    await expectSameAsJs('sparse_to_dense', {
      ...base,
      sparse_indices: i32([0, 0, 1, 1, 2, 2], [3, 2]),
      output_shape: [3, 3],
      sparse_values: f32([1], []),
    });
    await expectSameAsJs('sparse_to_dense', {
      ...base,
      validate_indices: false,
      sparse_indices: i32([3, 1, 3], [3]),
      output_shape: [4],
      sparse_values: i32([9], []),
    });
    await expectSameAsJs('sparse_to_dense', {
      ...base,
      sparse_indices: i32([], [0, 2]),
      output_shape: [2, 2],
      sparse_values: f32([], [0]),
      default_value: 0.5,
    });
    await expectSameAsJs(
      'sparse_to_dense',
      { ...base, sparse_indices: i32([], [0, 2]), output_shape: [0, 2], sparse_values: f32([], [0]) },
      false,
    );
  });

  it('delegates string values, saying so', async () => {
    const args = {
      sparse_indices: { kind: 'dense', data: Int32Array.of(1), shape: [1], dtype: 'int32' },
      output_shape: [3],
      sparse_values: { kind: 'dense', data: ['x'], shape: [1], dtype: 'string' },
      default_value: '',
      validate_indices: true,
    };
    const { outputs, reason } = await gpu('sparse_to_dense', args);
    expect(reason).toBe(REASONS.notComputed('string'));
    expect(plain(outputs.output)).toEqual(plain(jsOf('sparse_to_dense')(args).output));
  });
});

describe('sparse_fill_empty_rows on webgpu', () => {
  for (const dtype of ['float32', 'int32'] as const)
    for (const [shape, nnz] of [
      [[50], 20],
      [[40, 7], 25],
      [[30, 4, 5], 60],
      [[5000, 3], 20_000], // several tiles, repeats within rows, some rows empty
      [[8_000, 2], 2_000], // most rows empty
    ] as [number[], number][])
      it(`${dtype}, shape [${shape}], ${nnz} entries, unordered and ordered`, async () => {
        const r = rng(nnz * 7 + shape.length + (dtype === 'int32' ? 1 : 0));
        const sp_input = randomSparse(r, shape, nnz, dtype);
        const default_value = dtype === 'int32' ? -9 : 2.5;
        await expectSameAsJs('sparse_fill_empty_rows', { sp_input, default_value });
        const ordered = (jsOf('sparse_reorder')({ sp_input }) as { output: SparseData }).output;
        await expectSameAsJs('sparse_fill_empty_rows', { sp_input: ordered, default_value: 0 });
      });

  it('keeps the input order within a row (hand-checked), all rows empty, no rows', async () => {
    const sp_input: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([2, 1, 0, 3, 2, 0, 0, 1]),
      values: Int32Array.from([1, 2, 3, 4]),
      shape: [4, 4],
      dtype: 'int32',
    };
    const out = await expectSameAsJs('sparse_fill_empty_rows', { sp_input, default_value: -1 });
    expect(Array.from((out.output as SparseData).values as Int32Array)).toEqual([2, 4, -1, 1, 3, -1]);
    expect(Array.from((out.output as SparseData).indices)).toEqual([0, 3, 0, 1, 1, 0, 2, 1, 2, 0, 3, 0]);
    const none: SparseData = {
      kind: 'sparse',
      indices: new Float64Array(0),
      values: new Float32Array(0),
      shape: [3, 2],
      dtype: 'float32',
    };
    await expectSameAsJs('sparse_fill_empty_rows', { sp_input: none, default_value: NaN });
    await expectSameAsJs('sparse_fill_empty_rows', { sp_input: { ...none, shape: [0, 3] }, default_value: 1 }, false);
    const wide: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([2, 4294967295, 536870911]),
      values: Float32Array.of(-0),
      shape: [3, 4294967296, 536870912],
      dtype: 'float32',
    };
    await expectSameAsJs('sparse_fill_empty_rows', { sp_input: wide, default_value: 1e-40 });
  });

  it('delegates strings, saying so', async () => {
    const args = {
      sp_input: {
        kind: 'sparse',
        indices: Float64Array.of(2),
        values: ['x'],
        shape: [4],
        dtype: 'string',
      },
      default_value: 'y',
    };
    const { outputs, reason } = await gpu('sparse_fill_empty_rows', args);
    expect(reason).toBe(REASONS.notComputed('string'));
    const want = jsOf('sparse_fill_empty_rows')(args);
    expect(plain(outputs.output)).toEqual(plain(want.output));
    expect(plain(outputs.empty_row_indicator)).toEqual(plain(want.empty_row_indicator));
  });
});
