import { describe, expect, it } from 'vitest';
import { backend, onGpu, useBackend } from './backend.js';
import type { DenseData, DType, Scalar, SparseData } from '@sparse/kernel-abi';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { rng } from '@sparse/test-kit/seeded-random';
import { distinctSparse } from './random.js';
import { REASONS } from '../src/index.js';

// sparse_tensor_to_dense on WebGPU (SwiftShader in CI), against the JS kernel: bit for bit, values move as words.

useBackend();

const OP = 'sparse_tensor_to_dense';

interface Args {
  sp_input: SparseData;
  default_value: Scalar;
  validate_indices: boolean;
}

async function gpu(args: Args): Promise<{ output: DenseData; reason?: string }> {
  const { outputs, reason } = await onGpu<{ output: DenseData }>(OP, args as unknown as Record<string, unknown>);
  return { output: outputs.output, reason };
}

const js = (args: Args): DenseData => jsKernels.sparse_tensor_to_dense(args).output;

/** The words of a float32 or int32 store: equal words are equal values, nan, -0 and subnormals included. */
const words = (d: DenseData) => Array.from(new Uint32Array((d.data as Float32Array).slice().buffer));

/** Runs on the GPU (which must not delegate, or js would answer for it) and compares every bit with js. */
async function expectSameAsJs(args: Args): Promise<DenseData> {
  const before = backend.submissions();
  const { output, reason } = await gpu(args);
  expect(reason).toBeUndefined();
  const want = js(args);
  expect(output.dtype).toBe(want.dtype);
  expect(output.shape).toEqual(want.shape);
  expect(output.data.constructor).toBe(want.data.constructor);
  expect(words(output)).toEqual(words(want));
  expect(backend.submissions() - before).toBe(want.data.length ? 1 : 0);
  return output;
}

describe('sparse_tensor_to_dense on webgpu', () => {
  for (const dtype of ['float32', 'int32'] as const)
    for (const [shape, nnz] of [
      [[1000], 100],
      [[37, 23], 200],
      [[5, 7, 11], 90],
      [[300, 300], 4000],
    ] as [number[], number][])
      it(`${dtype}, shape [${shape}], ${nnz} entries, default 0 and not`, async () => {
        const r = rng(shape.length * 100 + nnz + (dtype === 'int32' ? 1 : 0));
        const sp_input = distinctSparse(r, shape, nnz, dtype);
        await expectSameAsJs({ sp_input, default_value: 0, validate_indices: true });
        await expectSameAsJs({ sp_input, default_value: dtype === 'int32' ? -7 : -1.5, validate_indices: true });
      });

  it('unordered and repeated indices (validate_indices false): the last entry of a repeat wins, as in js', async () => {
    for (const dtype of ['float32', 'int32'] as const) {
      const r = rng(dtype === 'int32' ? 21 : 22);
      await expectSameAsJs({
        sp_input: distinctSparse(r, [41, 29], 300, dtype, true, 150),
        default_value: 3,
        validate_indices: false,
      });
    }
    // TensorFlow's example: [[0, 1], [1, 0], [0, 1]] with 5, 6, 7 gives [[0, 7], [6, 0]].
    const sp_input: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 1, 1, 0, 0, 1]),
      values: Int32Array.from([5, 6, 7]),
      shape: [2, 2],
      dtype: 'int32',
    };
    const out = await expectSameAsJs({ sp_input, default_value: 0, validate_indices: false });
    expect(Array.from(out.data as Int32Array)).toEqual([0, 7, 6, 0]);
  });

  it('hand-computed: a rank-3 tensor with a default (so a wrong offset or a missed fill shows)', async () => {
    const sp_input: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 0, 1, 0, 2, 0, 1, 1, 1]),
      values: Float32Array.from([1, 2, 3]),
      shape: [2, 3, 2],
      dtype: 'float32',
    };
    const out = await expectSameAsJs({ sp_input, default_value: 0.5, validate_indices: true });
    expect(Array.from(out.data as Float32Array)).toEqual([0.5, 1, 0.5, 0.5, 2, 0.5, 0.5, 0.5, 0.5, 3, 0.5, 0.5]);
  });

  it('float32 inf, nan, -0 and subnormals, and int32 extremes, arrive bit for bit (no screening needed)', async () => {
    const special = Float32Array.from([Infinity, -Infinity, NaN, -0, 1e-40, -1.4e-45, 3.4e38]);
    const sp: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from(special.map((_, i) => 2 * i)),
      values: special,
      shape: [14],
      dtype: 'float32',
    };
    for (const default_value of [0, -0, NaN, 1e-42])
      await expectSameAsJs({ sp_input: sp, default_value, validate_indices: true });
    const ints: SparseData = {
      ...sp,
      values: Int32Array.from([-(2 ** 31), 2 ** 31 - 1, -1, 0, 1, 7, -7]),
      dtype: 'int32',
    };
    await expectSameAsJs({ sp_input: ints, default_value: -(2 ** 31), validate_indices: true });
  });

  it('no entries, a scalar, and a shape with no elements', async () => {
    await expectSameAsJs({
      sp_input: distinctSparse(rng(3), [4, 6], 0, 'float32'),
      default_value: 2.25,
      validate_indices: true,
    });
    const scalar: SparseData = {
      kind: 'sparse',
      indices: new Float64Array(0),
      values: Int32Array.from([9]),
      shape: [],
      dtype: 'int32',
    };
    const one = await expectSameAsJs({ sp_input: scalar, default_value: 0, validate_indices: true });
    expect(Array.from(one.data as Int32Array)).toEqual([9]);
    await expectSameAsJs({
      sp_input: distinctSparse(rng(4), [0, 4], 0, 'int32'),
      default_value: 1,
      validate_indices: true,
    });
  });

  it('strings run on the JS kernel, saying so (float64, int64, bool: wide-values.test.ts)', async () => {
    const indices = Float64Array.from([0, 2]);
    const cases: [DType, SparseData['values'], Scalar][] = [['string', ['a', 'b'], 'x']];
    for (const [dtype, vals, default_value] of cases) {
      const args = {
        sp_input: { kind: 'sparse', indices, values: vals, shape: [3], dtype } as SparseData,
        default_value,
        validate_indices: true,
      };
      const { output, reason } = await gpu(args);
      expect(reason).toBe(REASONS.notComputed(dtype));
      expect(output).toEqual(js(args));
    }
  });

  it('a wrong element would fail (the comparison is by bits), and calls compile nothing new', async () => {
    const args = {
      sp_input: distinctSparse(rng(5), [20, 20], 50, 'float32'),
      default_value: 1,
      validate_indices: true,
    };
    const got = await expectSameAsJs(args);
    const off = Float32Array.from(got.data as Float32Array);
    off[3] = Math.fround(off[3] * (1 + 2 ** -20));
    expect(words({ ...got, data: off })).not.toEqual(words(js(args)));
    const compiled = backend.pipelinesCompiled();
    await expectSameAsJs({ ...args, sp_input: distinctSparse(rng(6), [9, 9], 20, 'int32'), default_value: 4 });
    expect(backend.pipelinesCompiled()).toBe(compiled);
  });
});
