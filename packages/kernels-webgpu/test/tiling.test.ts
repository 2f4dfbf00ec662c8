import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDelegation, type DenseData, type DType, type SparseData } from '@sparse/kernel-abi';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { createWebGpuBackend, REASONS, type WebGpuBackend } from '../src/index.js';
import { plain } from './compare.js';
import { distinctSparse, randomCsr, randomValues } from './random.js';

// Calls past the binding limit are tiled: a backend whose bindings hold 1 KiB (the least it takes) runs calls whose
// buffers hold several KiB as many pieces, and must give what the same device gives the whole call, bit for bit.

const LIMIT = 1024;
let whole: WebGpuBackend;
let small: WebGpuBackend;

beforeAll(async () => {
  process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';
  whole = await createWebGpuBackend();
  small = await createWebGpuBackend({ device: whole.device, maxBindingBytes: LIMIT });
}, 60_000);
afterAll(() => whole?.destroy());

type Args = Record<string, unknown>;

const sparse = (r: Rng, shape: number[], nnz: number, dtype: DType = 'float32', shuffled = false): SparseData =>
  distinctSparse(r, shape, nnz, dtype, shuffled);

function dense(r: Rng, shape: number[], dtype: DType = 'float32'): DenseData {
  const n = shape.reduce((a, b) => a * b, 1);
  return { kind: 'dense', data: randomValues(r, dtype, n), shape, dtype };
}

const ROWS = 48;
const COLS = 40;

/** Each tiled op with a call whose buffers pass 1 KiB several times over. */
const CALLS: Record<string, (r: Rng) => Args> = {
  sparse_neg: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 700) }),
  sparse_square_grad: (r) => {
    const sp = sparse(r, [ROWS, COLS], 700);
    return { sp_input: sp, grad: dense(r, [sp.values.length]) };
  },
  sparse_dense_cwise_mul: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 700), dense: dense(r, [ROWS, COLS]) }),
  sparse_dense_cwise_add: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 700), dense: dense(r, [1, COLS]) }),
  sparse_dense_cwise_mul_grad: (r) => {
    const sp = sparse(r, [ROWS, COLS], 700);
    return { sp_input: sp, dense: dense(r, [ROWS, COLS]), grad: dense(r, [sp.values.length]) };
  },
  sparse_add: (r) => ({ a: sparse(r, [ROWS, COLS], 500), b: sparse(r, [ROWS, COLS], 500), thresh: 0 }),
  sparse_maximum: (r) => ({ sp_a: sparse(r, [ROWS, COLS], 500), sp_b: sparse(r, [ROWS, COLS], 500) }),
  sparse_reduce_sum: (r) => ({ sp_input: sparse(r, [ROWS, 6, COLS], 900), axis: [2], keepdims: false }),
  sparse_reduce_max_sparse: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 700), axis: [-1], keepdims: true }),
  'sparse_reduce_sum (over dim 0)': (r) => ({
    sp_input: sparse(r, [ROWS, 6, COLS], 900),
    axis: [0, 2],
    keepdims: false,
  }),
  'sparse_reduce_min_sparse (over dim 0)': (r) => ({
    sp_input: sparse(r, [6, ROWS, 8], 900),
    axis: [0],
    keepdims: true,
  }),
  'sparse_reduce_sum_grad (over dim 0)': (r) => ({
    sp_input: sparse(r, [ROWS, COLS], 700),
    axis: [0],
    keepdims: true,
    grad: dense(r, [1, COLS]),
  }),
  sparse_reduce_sum_grad: (r) => ({
    sp_input: sparse(r, [ROWS, COLS], 700),
    axis: [1],
    keepdims: false,
    grad: dense(r, [ROWS]),
  }),
  sparse_tensor_to_dense: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 300), default_value: 7, validate_indices: true }),
  sparse_reorder: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 600, 'float32', true) }),
  sparse_transpose: (r) => ({ sp_input: sparse(r, [ROWS, 5, 8], 600, 'int32', true), perm: [0, 2, 1] }),
  sparse_softmax: (r) => {
    const sp = sparse(r, [ROWS, COLS], 700);
    sp.values = sp.values.map((v) => v / 100);
    return { sp_input: sp };
  },
  sparse_fill_empty_rows: (r) => ({ sp_input: sparse(r, [ROWS * 4, COLS], 500), default_value: -1 }),
  sparse_to_indicator: (r) => {
    const sp = sparse(r, [ROWS, 8], 300, 'int32');
    sp.values = sp.values.map(() => r.int(30));
    return { sp_input: sp, vocab_size: 30 };
  },
  sparse_split: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 600), num_split: 3, axis: 1 }),
  sparse_concat: (r) => ({
    sp_inputs: [sparse(r, [ROWS, COLS], 400), sparse(r, [ROWS, 9], 200)],
    axis: 1,
    expand_nonconcat_dim: false,
  }),
  // b fits (1 KiB): the output's rows are cut.
  sparse_tensor_dense_matmul: (r) => ({
    sp_a: sparse(r, [ROWS * 2, 20], 400),
    b: dense(r, [20, 12]),
    adjoint_a: false,
    adjoint_b: false,
  }),
  // b is past the limit, or the output's rows are A's columns: the output's columns are cut.
  'sparse_tensor_dense_matmul (columns)': (r) => ({
    sp_a: sparse(r, [ROWS, COLS], 400),
    b: dense(r, [COLS, 30]),
    adjoint_a: false,
    adjoint_b: false,
  }),
  'sparse_tensor_dense_matmul (adjoint_a)': (r) => ({
    sp_a: sparse(r, [20, ROWS * 2], 400),
    b: dense(r, [20, 12]),
    adjoint_a: true,
    adjoint_b: false,
  }),
  'sparse_tensor_dense_matmul (adjoints)': (r) => ({
    sp_a: sparse(r, [COLS, ROWS], 400),
    b: dense(r, [30, COLS]),
    adjoint_a: true,
    adjoint_b: true,
  }),
  from_dense: (r) => {
    const d = dense(r, [ROWS, COLS]);
    (d.data as Float32Array).forEach((v, i, a) => (a[i] = v > 30 ? v : 0));
    return { tensor: d };
  },
  sparse_segment_sum: (r) => segmentCall(r, [30, 6], 400, null),
  'sparse_segment_mean (columns)': (r) => segmentCall(r, [30, 20], 60, 50),
  sparse_segment_sqrt_n: (r) => segmentCall(r, [30, 6], 200, 70),
  sparse_segment_sum_grad: (r) => ({
    ...segmentCall(r, [30, 1], 200, null),
    grad: dense(r, [40, 12]),
    output_dim0: 30,
  }),
  embedding_lookup_sparse: (r) => embeddingCall(r, 'params', 'sp_ids', 'sp_weights', [50, 4]),
  'embedding_lookup_sparse (columns)': (r) => embeddingCall(r, 'params', 'sp_ids', 'sp_weights', [50, 12]),
  safe_embedding_lookup_sparse: (r) => ({
    ...embeddingCall(r, 'embedding_weights', 'sparse_ids', 'sparse_weights', [50, 12]),
    default_id: 3,
  }),
  sparse_bincount: (r) => {
    const sp = sparse(r, [ROWS, COLS], 500, 'int32');
    sp.values = sp.values.map(() => r.int(25));
    const weights = { ...sp, values: Float32Array.from(sp.values, () => r.next()), dtype: 'float32' as const };
    return { values: sp, weights, axis: -1, minlength: null, maxlength: null, binary_output: false };
  },
  sparse_to_dense: (r) => {
    const sp = sparse(r, [ROWS, COLS], 300, 'float32', true);
    const n = sp.values.length;
    return {
      sparse_indices: { kind: 'dense', data: Int32Array.from(sp.indices), shape: [n, 2], dtype: 'int32' },
      output_shape: [ROWS, COLS],
      sparse_values: { kind: 'dense', data: sp.values, shape: [n], dtype: 'float32' },
      default_value: 2,
      validate_indices: false,
    };
  },
  dense_to_csr_sparse_matrix: (r) => {
    const d = dense(r, [ROWS, COLS]);
    const at: number[] = [];
    (d.data as Float32Array).forEach((v, i) => {
      if (v > 40) at.push(Math.floor(i / COLS), i % COLS);
    });
    const indices: DenseData = { kind: 'dense', data: Int32Array.from(at), shape: [at.length / 2, 2], dtype: 'int32' };
    return { dense_input: d, indices };
  },
  csr_sparse_matrix_to_dense: (r) => ({
    sparse_input: randomCsr(r, 1, ROWS, COLS, 0.2, false, 'float32', undefined, 0),
  }),
  'csr_sparse_matrix_to_dense (batch)': (r) => ({
    sparse_input: randomCsr(r, 6, 12, 10, 0.3, true, 'int32', undefined, 0),
  }),
  csr_sparse_matrix_to_sparse_tensor: (r) => ({
    sparse_matrix: randomCsr(r, 8, 12, 10, 0.3, true, 'float32', undefined, 0),
  }),
  sparse_tensor_to_csr_sparse_matrix: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 500) }),
  sparse_matrix_transpose: (r) => ({
    input: randomCsr(r, 6, 12, 10, 0.4, true, 'float32', undefined, 0),
    conjugate: false,
  }),
  sparse_matrix_mat_mul: (r) => ({
    a: randomCsr(r, 1, ROWS, 16, 0.3, false, 'float32', undefined, 0),
    b: dense(r, [16, 8]),
    ...matmulFlags(),
  }),
  'sparse_matrix_mat_mul (batch)': (r) => ({
    a: randomCsr(r, 4, 12, 8, 0.3, true, 'float32', undefined, 0),
    b: dense(r, [4, 8, 6]),
    ...matmulFlags(),
  }),
  sparse_matrix_sparse_mat_mul: (r) => ({
    a: randomCsr(r, 1, ROWS, 16, 0.2, false, 'float32', undefined, 0),
    b: randomCsr(r, 1, 16, 12, 0.3, false, 'float32', undefined, 0),
    transpose_a: false,
    transpose_b: false,
    adjoint_a: false,
    adjoint_b: false,
  }),
  sparse_slice: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 700), start: [3, 2], size: [40, 30] }),
  sparse_retain: (r) => {
    const sp = sparse(r, [ROWS, COLS], 700);
    const keep = Uint8Array.from(sp.values, () => (r.next() < 0.5 ? 1 : 0));
    return { sp_input: sp, to_retain: { kind: 'dense', data: keep, shape: [keep.length], dtype: 'bool' } };
  },
  sparse_reshape: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 700), shape: [COLS, 2, ROWS / 2] }),
  sparse_expand_dims: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 700), axis: 1 }),
  sparse_reset_shape: (r) => ({ sp_input: sparse(r, [ROWS, COLS], 700), new_shape: null }),
};

const matmulFlags = () => ({
  transpose_a: false,
  transpose_b: false,
  adjoint_a: false,
  adjoint_b: false,
  transpose_output: false,
  conjugate_output: false,
});

/** A segment reduction of `data` rows over `n` entries (ids sorted, each below 40). */
function segmentCall(r: Rng, dataShape: number[], n: number, numSegments: number | null): Args {
  const ids = Int32Array.from({ length: n }, () => r.int(40)).sort();
  const indices = Int32Array.from({ length: n }, () => r.int(dataShape[0]));
  const int = (data: Int32Array): DenseData => ({ kind: 'dense', data, shape: [n], dtype: 'int32' });
  return { data: dense(r, dataShape), indices: int(indices), segment_ids: int(ids), num_segments: numSegments };
}

/** An embedding lookup of a table of `shape` by ids [80 × 8], weighted, combined by mean. */
function embeddingCall(r: Rng, table: string, ids: string, weights: string, shape: number[]): Args {
  const sp = sparse(r, [80, 8], 400, 'int32');
  sp.values = sp.values.map(() => r.int(shape[0]));
  const w = { ...sp, values: Float32Array.from(sp.values, () => r.next() + 0.5), dtype: 'float32' as const };
  return { [table]: dense(r, shape), [ids]: sp, [weights]: w, combiner: 'mean', max_norm: null };
}

async function run(backend: WebGpuBackend, op: string, args: Args) {
  const before = backend.submissions();
  const result = await backend.kernels[op](args);
  const submissions = backend.submissions() - before;
  return isDelegation(result)
    ? { outputs: result.outputs, reason: result.reason, submissions }
    : { outputs: result, reason: undefined, submissions };
}

/** Outputs as comparable plain data: sparse and dense by compare.ts's plain, CSR's arrays as lists of their words. */
const comparable = (outputs: Args) =>
  Object.fromEntries(
    Object.entries(outputs).map(([k, v]) => {
      const x = v as { kind?: string } & Record<string, unknown>;
      if (x.kind !== 'csr') return [k, plain(v as Parameters<typeof plain>[0])];
      const words = (a: unknown) =>
        ArrayBuffer.isView(a) ? Array.from(new Uint32Array((a as Int32Array).slice().buffer)) : a;
      return [k, Object.fromEntries(Object.entries(x).map(([f, a]) => [f, words(a)]))];
    }),
  );

describe('a call past the binding limit runs in pieces that fit, as the whole call runs', () => {
  for (const [name, make] of Object.entries(CALLS)) {
    const op = name.split(' ')[0];
    it(name, async () => {
      for (const seed of [1, 2]) {
        const args = make(rng(seed * 7919 + op.length));
        const want = await run(whole, op, args);
        expect(want.reason, `${op} runs on the GPU whole`).toBeUndefined();
        const got = await run(small, op, args);
        expect(got.reason, `${op} tiled`).toBeUndefined();
        expect(got.submissions, `${op} ran in pieces`).toBeGreaterThan(1);
        expect(comparable(got.outputs)).toEqual(comparable(want.outputs));
      }
    });
  }
});

it('a call its op cannot cut (a reduction over every dim) runs on the JS kernels, saying why', async () => {
  const args = { sp_input: sparse(rng(5), [ROWS, COLS], 700), axis: null, keepdims: false };
  const got = await run(small, 'sparse_reduce_sum', args);
  expect(got.reason).toBe(REASONS.bindingLimit(LIMIT));
  expect(comparable(got.outputs)).toEqual(comparable(jsKernels.sparse_reduce_sum(args as never) as unknown as Args));
});

it('maxBindingBytes below 1 KiB, or not a whole number, is refused', async () => {
  await expect(createWebGpuBackend({ device: whole.device, maxBindingBytes: 512 })).rejects.toThrow(
    /maxBindingBytes must be a whole number of bytes >= 1024, got 512/,
  );
  await expect(createWebGpuBackend({ device: whole.device, maxBindingBytes: 2048.5 })).rejects.toThrow(TypeError);
});
