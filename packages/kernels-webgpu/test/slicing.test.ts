import { describe, expect, it } from 'vitest';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import { plain } from './compare.js';
import { randomSparse } from './random.js';
import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/index.js';

// sparse_slice, sparse_split, sparse_retain and sparse_concat on WebGPU (SwiftShader in CI) against the JS kernels:
// every output equal, indices by Object.is (-0 included), values by bits.

useBackend();

type Out = Record<string, SparseData | SparseData[]>;
const gpu = (op: string, args: Args) => onGpu<Out>(op, args);

/** Runs op on webgpu, which must not delegate, compares with js, and checks the submissions: 1, or 0 (nothing to move). */
async function same(op: string, args: Args, submits = 1): Promise<Out> {
  const before = backend.submissions();
  const { outputs, reason } = await gpu(op, args);
  expect(reason).toBeUndefined();
  expect(backend.submissions() - before).toBe(submits);
  const want = onJs<Out>(op, args);
  expect(Object.keys(outputs).sort()).toEqual(Object.keys(want).sort());
  for (const k of Object.keys(want)) expect(plain(outputs[k])).toEqual(plain(want[k]));
  return outputs;
}

/** Runs op on webgpu, which must delegate for `why`, and checks that the result is js's. */
async function delegates(op: string, args: Args, why: string): Promise<void> {
  const before = backend.submissions();
  const { outputs, reason } = await gpu(op, args);
  expect(reason).toBe(why);
  expect(backend.submissions() - before).toBe(0);
  const want = onJs<Out>(op, args);
  for (const k of Object.keys(want)) expect(plain(outputs[k])).toEqual(plain(want[k]));
}

const sparse = (indices: number[], vals: Float32Array | Int32Array, shape: number[]): SparseData => ({
  kind: 'sparse',
  indices: Float64Array.from(indices),
  values: vals,
  shape,
  dtype: vals instanceof Float32Array ? 'float32' : 'int32',
});

/**
 * float32 values that must move bit for bit: quiet nans with payloads, -0, infinities, subnormals. No signaling nan:
 * the JS kernels' copy quiets one while V8 interprets it and keeps it once optimized, so js itself has no one answer.
 */
function specials(n: number): Float32Array {
  const words = Uint32Array.from(
    { length: n },
    (_, i) => [0x7fc00001, 0xffc00123, 0x80000000, 0x7f800000, 0xff800000, 0x00000001, 0x3f800000][i % 7],
  );
  return new Float32Array(words.buffer);
}

const ordered = (sp: SparseData) => onJs<Out>('sparse_reorder', { sp_input: sp }).output as SparseData;

/** Shapes and entry counts: ranks 1 to 3, several scan tiles (1024 entries each), repeats where nnz passes the size. */
const CASES: [number[], number][] = [
  [[1000], 300],
  [[37, 23], 200],
  [[5, 7, 11], 90],
  [[300, 200], 5_000],
  [[3, 5], 60],
];

describe('sparse_slice on webgpu', () => {
  for (const dtype of ['float32', 'int32'] as const)
    for (const [shape, nnz] of CASES)
      it(`${dtype}, shape [${shape}], ${nnz} entries in random order`, async () => {
        const r = rng(shape.length * 1000 + nnz + (dtype === 'int32' ? 1 : 0));
        const sp_input = randomSparse(r, shape, nnz, dtype);
        // A box around a random entry, so that something is kept.
        const e = r.int(nnz);
        const start = shape.map((_, d) => r.int(sp_input.indices[e * shape.length + d] + 1));
        const size = shape.map((dim, d) => sp_input.indices[e * shape.length + d] - start[d] + 1 + r.int(dim));
        await same('sparse_slice', { sp_input, start, size });
        // The whole tensor and beyond its end: everything kept.
        await same('sparse_slice', { sp_input, start: shape.map(() => 0), size: shape.map((d) => d + 5) });
        await same('sparse_slice', { sp_input: ordered(sp_input), start, size });
      });

  it('hand-checked; float32 specials bit for bit; a box reaching past 2^32', async () => {
    const sp_input = sparse([0, 0, 0, 2, 1, 1, 1, 3, 2, 0, 3, 1], specials(6), [4, 6]);
    const out = (await same('sparse_slice', { sp_input, start: [1, 1], size: [2, 3] })).output as SparseData;
    expect(Array.from(out.indices)).toEqual([0, 0, 0, 2]);
    expect(out.shape).toEqual([2, 3]);
    await same('sparse_slice', { sp_input, start: [0, 0], size: [4, 6] });
    await same('sparse_slice', { sp_input, start: [1, 0], size: [2 ** 40, 2 ** 60] });
    const wide = sparse([3, 2 ** 32 - 1, 0, 5], Int32Array.of(7, 8), [2, 2 ** 40]);
    await same('sparse_slice', { sp_input: wide, start: [0, 1], size: [2, 2 ** 50] });
  });

  it('no entries, nothing inside, a start past the end, rank 0: no GPU', async () => {
    const empty = sparse([], new Float32Array(0), [3, 0]);
    await same('sparse_slice', { sp_input: empty, start: [1, 0], size: [1, 1] }, 0);
    const sp_input = sparse([0, 0, 2, 3], Int32Array.of(1, 2), [3, 4]);
    await same('sparse_slice', { sp_input, start: [1, 0], size: [1, 4] }, 0);
    await same('sparse_slice', { sp_input, start: [5, 9], size: [2, 2] }, 0);
    await same('sparse_slice', { sp_input, start: [0, 0], size: [0, 4] }, 0);
    await same('sparse_slice', { sp_input: sparse([], Float32Array.of(2.5), []), start: [], size: [] });
  });

  it('delegates other dtypes, indices past 2^32 - 1, -0 indices and a bad box, saying why', async () => {
    const strings: SparseData = {
      ...sparse([1, 2], Int32Array.of(1, 2), [4]),
      values: ['a', 'b'],
      dtype: 'string',
    };
    await delegates('sparse_slice', { sp_input: strings, start: [0], size: [4] }, REASONS.notComputed('string'));
    const wide = sparse([0, 2 ** 33], Int32Array.of(1), [1, 2 ** 40]);
    await delegates('sparse_slice', { sp_input: wide, start: [0, 0], size: [1, 2 ** 40] }, REASONS.wideIndex);
    const negZero = sparse([-0, 1], Float32Array.of(1), [2, 2]);
    await delegates('sparse_slice', { sp_input: negZero, start: [0, 0], size: [2, 2] }, REASONS.unchecked);
    const sp_input = sparse([0, 1], Int32Array.of(1), [2, 2]);
    await delegates('sparse_slice', { sp_input, start: [0], size: [2, 2] }, REASONS.unchecked);
    await delegates('sparse_slice', { sp_input, start: [0, 0.5], size: [2, 2] }, REASONS.unchecked);
  });
});

describe('sparse_retain on webgpu', () => {
  const mask = (flags: boolean[] | Uint8Array): DenseData => ({
    kind: 'dense',
    data: Uint8Array.from(flags as ArrayLike<number>, Number),
    shape: [flags.length],
    dtype: 'bool',
  });
  for (const dtype of ['float32', 'int32'] as const)
    for (const [shape, nnz] of CASES)
      it(`${dtype}, shape [${shape}], ${nnz} entries, half kept`, async () => {
        const r = rng(shape.length * 77 + nnz + (dtype === 'int32' ? 1 : 0));
        const sp_input = randomSparse(r, shape, nnz, dtype);
        const flags = Array.from({ length: nnz }, () => r.next() < 0.5);
        await same('sparse_retain', { sp_input, to_retain: mask(flags) });
        await same('sparse_retain', { sp_input, to_retain: mask(flags.map(() => true)) });
      });

  it('indices move bit for bit (past 2^32, -0), mask bytes other than 1, specials; none kept and no entries: no GPU', async () => {
    const sp_input = sparse([2 ** 50, -0, 3, 2 ** 32 + 1, 0, 2 ** 53 - 1, 1, 1], specials(4), [2 ** 53, 2 ** 53]);
    const keep: DenseData = { kind: 'dense', data: Uint8Array.of(7, 0, 255, 1), shape: [4], dtype: 'bool' };
    const out = (await same('sparse_retain', { sp_input, to_retain: keep })).output as SparseData;
    expect(Object.is(out.indices[1], -0)).toBe(true);
    await same('sparse_retain', { sp_input, to_retain: mask([false, false, false, false]) }, 0);
    const empty = sparse([], new Int32Array(0), [3, 0]);
    await same('sparse_retain', { sp_input: empty, to_retain: mask([]) }, 0);
    const rank1 = sparse([5, 1, 3], Float32Array.of(1.5, 2.5, -3.25), [6]);
    await same('sparse_retain', { sp_input: rank1, to_retain: mask([true, false, true]) });
  });

  it('delegates other dtypes and a mask of another length, saying why', async () => {
    const strings: SparseData = {
      ...sparse([1, 2], Int32Array.of(1, 2), [4]),
      values: ['a', 'b'],
      dtype: 'string',
    };
    await delegates(
      'sparse_retain',
      { sp_input: strings, to_retain: mask([true, false]) },
      REASONS.notComputed('string'),
    );
    const sp_input = sparse([1, 2, 3], Int32Array.of(1, 2, 3), [4]);
    await delegates('sparse_retain', { sp_input, to_retain: mask([true, false]) }, REASONS.unchecked);
  });
});

describe('sparse_split on webgpu', () => {
  const SPLITS: [number[], number, number, number][] = [
    // shape, nnz, axis, num_split
    [[1000], 300, 0, 7],
    [[37, 23], 200, 1, 5],
    [[37, 23], 200, -2, 37],
    [[5, 7, 11], 90, 2, 3],
    [[300, 200], 5_000, 0, 300], // pieces past 256: three radix passes
    [[300, 200], 5_000, 1, 1],
    [[3, 5], 60, 1, 2],
  ];
  for (const dtype of ['float32', 'int32'] as const)
    for (const [shape, nnz, axis, num_split] of SPLITS)
      it(`${dtype}, shape [${shape}], ${nnz} entries, axis ${axis}, ${num_split} pieces`, async () => {
        const r = rng(shape.length * 31 + nnz + num_split + (dtype === 'int32' ? 1 : 0));
        const sp_input = randomSparse(r, shape, nnz, dtype);
        const out = await same('sparse_split', { sp_input, axis, num_split });
        expect((out.output as SparseData[]).length).toBe(num_split);
        // In order: the pieces too (no sort pass along axis 0).
        await same('sparse_split', { sp_input: ordered(sp_input), axis, num_split });
      });

  it('hand-checked, float32 specials bit for bit; no entries: no GPU', async () => {
    const sp_input = sparse([1, 3, 0, 0, 1, 0, 0, 2], specials(4), [2, 4]);
    const out = (await same('sparse_split', { sp_input, axis: 1, num_split: 2 })).output as SparseData[];
    expect(Array.from(out[0].indices)).toEqual([0, 0, 1, 0]);
    expect(Array.from(out[1].indices)).toEqual([1, 1, 0, 0]);
    const empty = sparse([], new Int32Array(0), [3, 2]);
    await same('sparse_split', { sp_input: empty, axis: 0, num_split: 3 }, 0);
  });

  it('delegates other dtypes, wide indices, -0 and a num_split out of range, saying why', async () => {
    const strings: SparseData = {
      ...sparse([1, 2], Int32Array.of(1, 2), [4]),
      values: ['a', 'b'],
      dtype: 'string',
    };
    await delegates('sparse_split', { sp_input: strings, axis: 0, num_split: 2 }, REASONS.notComputed('string'));
    const wide = sparse([0, 2 ** 33], Int32Array.of(1), [2, 2 ** 40]);
    await delegates('sparse_split', { sp_input: wide, axis: 0, num_split: 2 }, REASONS.wideIndex);
    await delegates('sparse_split', { sp_input: wide, axis: 1, num_split: 2 }, REASONS.wideIndex);
    const negZero = sparse([1, -0], Float32Array.of(1), [2, 2]);
    await delegates('sparse_split', { sp_input: negZero, axis: 0, num_split: 2 }, REASONS.unchecked);
    const sp_input = sparse([0, 1], Int32Array.of(1), [2, 2]);
    await delegates('sparse_split', { sp_input, axis: 0, num_split: 3 }, REASONS.unchecked);
  });
});

describe('sparse_concat on webgpu', () => {
  const CONCATS: [number[][], number, boolean][] = [
    // shapes, axis, expand_nonconcat_dim
    [[[1000], [20], [300]], 0, false],
    [
      [
        [37, 23],
        [37, 5],
      ],
      1,
      false,
    ],
    [
      [
        [37, 23],
        [4, 23],
        [10, 23],
      ],
      -2,
      false,
    ],
    [
      [
        [5, 7, 11],
        [5, 2, 11],
        [5, 9, 11],
      ],
      1,
      false,
    ],
    [
      [
        [5, 7, 3],
        [4, 7, 11],
      ],
      2,
      true,
    ],
    [
      [
        [300, 200],
        [300, 100],
      ],
      1,
      false,
    ],
  ];
  for (const dtype of ['float32', 'int32'] as const)
    for (const [shapes, axis, expand_nonconcat_dim] of CONCATS)
      it(`${dtype}, shapes ${JSON.stringify(shapes)}, axis ${axis}`, async () => {
        const r = rng(shapes.length * 13 + shapes[0][0] + axis + (dtype === 'int32' ? 1 : 0));
        const sp_inputs = shapes.map((s) => randomSparse(r, s, Math.ceil(s.reduce((a, b) => a * b, 1) / 12), dtype));
        await same('sparse_concat', { sp_inputs, axis, expand_nonconcat_dim });
        await same('sparse_concat', { sp_inputs: sp_inputs.map(ordered), axis, expand_nonconcat_dim });
      });

  it('repeats keep their input order; specials bit for bit; single input and no entries: no GPU', async () => {
    const a = sparse([1, 0, 0, 1, 1, 0], specials(3), [2, 2]);
    const b = sparse([0, 0, 0, 0], specials(4).subarray(1, 3), [1, 2]);
    const out = (await same('sparse_concat', { sp_inputs: [a, b], axis: 0, expand_nonconcat_dim: false }))
      .output as SparseData;
    expect(Array.from(out.indices)).toEqual([0, 1, 1, 0, 1, 0, 2, 0, 2, 0]);
    await same('sparse_concat', { sp_inputs: [a], axis: 1, expand_nonconcat_dim: false }, 0);
    const empty = [sparse([], new Float32Array(0), [2, 0]), sparse([], new Float32Array(0), [2, 3])];
    await same('sparse_concat', { sp_inputs: empty, axis: 1, expand_nonconcat_dim: false }, 0);
  });

  it('delegates other dtypes, results past 2^32 elements and -0 off the axis, saying why', async () => {
    const strings: SparseData = {
      ...sparse([1, 2], Int32Array.of(1, 2), [4]),
      values: ['a', 'b'],
      dtype: 'string',
    };
    const args = { sp_inputs: [strings, strings], axis: 0, expand_nonconcat_dim: false };
    await delegates('sparse_concat', args, REASONS.notComputed('string'));
    const huge = sparse([1, 5, 0, 7], Int32Array.of(1, 2), [2 ** 20, 2 ** 20]);
    await delegates(
      'sparse_concat',
      { sp_inputs: [huge, huge], axis: 1, expand_nonconcat_dim: false },
      REASONS.wideKeys,
    );
    const negZero = sparse([1, -0], Float32Array.of(1), [2, 2]);
    await delegates(
      'sparse_concat',
      { sp_inputs: [negZero, negZero], axis: 0, expand_nonconcat_dim: false },
      REASONS.unchecked,
    );
  });
});
