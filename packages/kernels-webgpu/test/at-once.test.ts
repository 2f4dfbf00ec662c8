import { describe, expect, it } from 'vitest';
import { isDelegation, markImmutable, type DenseData, type SparseData } from '@sparse/kernel-abi';
import { rng } from '@sparse/test-kit/seeded-random';
import { MAX_RECORDED_PASSES } from '../src/context.js';
import { REASONS } from '../src/delegation.js';
import { DeviceArray } from '../src/resident/device-array.js';
import { createWebGpuBackend, type WebGpuBackend } from '../src/index.js';
import { backend, onJs, useBackend } from './backend.js';
import { randomValues } from './random.js';

// The kernels that run at once (rt.run on webgpu): their work recorded on the GPU, their results left there as
// DeviceArrays with a buffer, read back bit for bit as js gives them; where the host cannot bound a call, the result
// is made on the JS kernels when read (no buffer).

useBackend();

type Args = Record<string, unknown>;

function sparse(seed: number, shape = [40, 24], nnz = 300): SparseData {
  const r = rng(seed);
  const size = shape[0] * shape[1];
  const offsets = [...new Set(Array.from({ length: nnz }, () => r.int(size)))].sort((a, b) => a - b);
  const indices = Float64Array.from(offsets.flatMap((o) => [Math.floor(o / shape[1]), o % shape[1]]));
  return { kind: 'sparse', indices, values: randomValues(r, 'float32', offsets.length), shape, dtype: 'float32' };
}

const dense = (seed: number, shape: number[]): DenseData => ({
  kind: 'dense',
  data: randomValues(rng(seed), 'float32', shape[0] * shape[1]),
  shape,
  dtype: 'float32',
});

/** The at-once kernel's output `name`, which must not be a delegation. */
function atOnce(op: string, args: Args, name = 'output'): SparseData | DenseData {
  const result = backend.synchronousKernels[op](args);
  expect(isDelegation(result)).toBe(false);
  return (result as Args)[name] as SparseData | DenseData;
}

/**
 * `f` on a backend of its own, made for it and destroyed after: the byte counts it checks then hold no result of
 * another test that the collector may let go of meanwhile.
 */
async function onOwnBackend(f: (b: WebGpuBackend) => Promise<void> | void): Promise<void> {
  const own = await createWebGpuBackend();
  try {
    await f(own);
  } finally {
    own.destroy();
  }
}

const stored = (t: SparseData | DenseData) => (t.kind === 'sparse' ? t.values : t.data) as unknown as DeviceArray;
const bits = (v: unknown) => Array.from(new Uint32Array(Float32Array.from(v as Float32Array).buffer));

const CALLS: Record<string, () => Args> = {
  sparse_square: () => ({ sp_input: sparse(1) }),
  sparse_dense_cwise_mul: () => ({ sp_input: sparse(2), dense: dense(3, [1, 24]) }),
  sparse_reduce_sum: () => ({ sp_input: sparse(4), axis: [1], keepdims: false }),
  sparse_reduce_max_sparse: () => ({ sp_input: sparse(5), axis: [0], keepdims: true }),
  sparse_tensor_dense_matmul: () => ({ sp_a: sparse(6), b: dense(7, [24, 6]), adjoint_a: false, adjoint_b: false }),
  'sparse_tensor_dense_matmul (dense × sparse)': () => ({
    sp_a: dense(8, [5, 40]),
    b: sparse(9),
    adjoint_a: false,
    adjoint_b: false,
  }),
};

describe('each at-once kernel records its work on the GPU and reads back what js gives', () => {
  for (const [name, make] of Object.entries(CALLS)) {
    it(name, async () => {
      const op = name.split(' ')[0];
      const args = make();
      const submitted = backend.submissions();
      const out = atOnce(op, args);
      const values = stored(out);
      expect(values).toBeInstanceOf(DeviceArray);
      expect(values.buffer, 'recorded on the GPU').toBeDefined();
      expect(backend.submissions()).toBe(submitted);
      const want = onJs<Record<string, SparseData | DenseData>>(op, args).output;
      const wantValues = want.kind === 'sparse' ? want.values : want.data;
      expect(bits(await values.read())).toEqual(bits(wantValues));
      expect(out.shape).toEqual(want.shape);
    });
  }
});

describe("SpMM's gradient records both of its outputs on the GPU and reads back what js gives", () => {
  const grads: Record<string, () => Args> = {
    'sparse × dense': () => ({
      sp_a: sparse(20),
      b: dense(21, [24, 6]),
      grad: dense(22, [40, 6]),
      adjoint_a: false,
      adjoint_b: false,
    }),
    'sparse × dense, both adjoint': () => ({
      sp_a: sparse(23),
      b: dense(24, [6, 40]),
      grad: dense(25, [24, 6]),
      adjoint_a: true,
      adjoint_b: true,
    }),
    'dense × sparse': () => ({
      sp_a: dense(26, [5, 40]),
      b: sparse(27),
      grad: dense(28, [5, 24]),
      adjoint_a: false,
      adjoint_b: false,
    }),
  };
  for (const [name, make] of Object.entries(grads)) {
    it(name, async () => {
      const args = make();
      const submitted = backend.submissions();
      const result = backend.synchronousKernels.sparse_tensor_dense_matmul_grad(args);
      expect(isDelegation(result)).toBe(false);
      expect(backend.submissions()).toBe(submitted);
      const want = onJs<Record<string, DenseData>>('sparse_tensor_dense_matmul_grad', args);
      for (const out of ['sp_a_grad', 'b_grad']) {
        const got = (result as Args)[out] as DenseData;
        expect(stored(got).buffer, out).toBeDefined();
        expect(got.shape).toEqual(want[out].shape);
        expect(bits(await stored(got).read()), out).toEqual(bits(want[out].data));
      }
    });
  }

  it("takes the forward product's result on the GPU as its grad", async () => {
    const sp = sparse(29);
    const b = dense(30, [24, 6]);
    const product = atOnce('sparse_tensor_dense_matmul', { sp_a: sp, b, adjoint_a: false, adjoint_b: false });
    const args = { sp_a: sp, b, grad: product, adjoint_a: false, adjoint_b: false };
    const result = backend.synchronousKernels.sparse_tensor_dense_matmul_grad(args) as Args;
    const host = onJs<{ output: DenseData }>('sparse_tensor_dense_matmul', { ...args, grad: undefined }).output;
    const want = onJs<Record<string, DenseData>>('sparse_tensor_dense_matmul_grad', { ...args, grad: host });
    expect(stored(result.b_grad as DenseData).buffer).toBeDefined();
    expect(bits(await stored(result.b_grad as DenseData).read())).toEqual(bits(want.b_grad.data));
    expect(bits(await stored(result.sp_a_grad as DenseData).read())).toEqual(bits(want.sp_a_grad.data));
  });
});

it('SpMM groups a matrix it sees again once: its structure stays on the GPU until the tensor goes', () =>
  onOwnBackend(async (backend) => {
    const atOnce = (op: string, args: Args) => (backend.synchronousKernels[op](args) as Args).output as DenseData;
    const sp = sparse(31);
    const b = dense(32, [24, 6]);
    markImmutable(sp.indices as object, sp.values as object);
    backend.prepare(sp);
    backend.prepare(b);
    const args = { sp_a: sp, b, adjoint_a: false, adjoint_b: false };
    const want = bits(onJs<{ output: DenseData }>('sparse_tensor_dense_matmul', args).output.data);
    const held = backend.residentBytes();
    const first = atOnce('sparse_tensor_dense_matmul', args);
    const grouping = 4 * (40 + 1 + 2 * sp.values.length);
    expect(backend.residentBytes() - held).toBe(grouping + 4 * 40 * 6);
    const uploaded = backend.uploadedBytes();
    const again = atOnce('sparse_tensor_dense_matmul', args);
    // Only the kernels' parameters went up: not the row offsets, columns or order of its entries.
    expect(backend.uploadedBytes() - uploaded).toBeLessThan(64);
    expect(bits(await stored(first).read())).toEqual(want);
    expect(bits(await stored(again).read())).toEqual(want);
    expect(backend.residentBytes() - held).toBe(grouping);
    backend.forget([sp.indices as object, sp.values as object, b.data as object]);
    expect(backend.residentBytes()).toBe(held - 4 * (sp.values.length + 24 * 6));
  }));

it('a reduction groups a tensor it sees again once: the second call uploads only its parameters', async () => {
  const sp = sparse(33);
  markImmutable(sp.indices as object, sp.values as object);
  backend.prepare(sp);
  const args = { sp_input: sp, axis: [1], keepdims: false };
  const want = bits(onJs<{ output: DenseData }>('sparse_reduce_sum', args).output.data);
  const first = atOnce('sparse_reduce_sum', args);
  const uploaded = backend.uploadedBytes();
  const again = atOnce('sparse_reduce_sum', args);
  expect(backend.uploadedBytes() - uploaded).toBeLessThan(64);
  expect(bits(await stored(first).read())).toEqual(want);
  expect(bits(await stored(again).read())).toEqual(want);
  backend.forget([sp.indices as object, sp.values as object]);
});

it('a result on the GPU feeds the next op there; one read submits both', async () => {
  const sq = atOnce('sparse_square', { sp_input: sparse(10) }) as SparseData;
  const sum = atOnce('sparse_reduce_sum', { sp_input: sq, axis: [1], keepdims: false });
  expect(stored(sum).buffer).toBeDefined();
  const [submitted, read] = [backend.submissions(), backend.readbacks()];
  const want = onJs<{ output: DenseData }>('sparse_reduce_sum', {
    sp_input: onJs<{ output: SparseData }>('sparse_square', { sp_input: sparse(10) }).output,
    axis: [1],
    keepdims: false,
  }).output;
  expect(bits(await stored(sum).read())).toEqual(bits(want.data));
  expect([backend.submissions() - submitted, backend.readbacks() - read]).toEqual([1, 1]);
});

it('a call the host cannot bound, given a result on the GPU, is made on the JS kernels when read', async () => {
  const tiny: DenseData = { kind: 'dense', data: new Float32Array(24).fill(1e-20), shape: [1, 24], dtype: 'float32' };
  const args = { sp_input: sparse(11), dense: tiny };
  const scaled = atOnce('sparse_dense_cwise_mul', args) as SparseData;
  expect(stored(scaled).buffer).toBeDefined();
  // Squares near 1e-40 are subnormal: the host's bound cannot rule them out, so square runs on js, at read.
  const out = backend.synchronousKernels.sparse_square({ sp_input: scaled }) as Args;
  const values = stored(out.output as SparseData);
  expect(values.buffer).toBeUndefined();
  const want = onJs<{ output: SparseData }>('sparse_square', {
    sp_input: onJs<{ output: SparseData }>('sparse_dense_cwise_mul', args).output,
  }).output;
  expect(bits(await values.read())).toEqual(bits(want.values));
});

it('a call on host values the GPU cannot take runs on the JS kernels now, saying so', () => {
  const sp = sparse(12);
  (sp.values as Float32Array)[0] = Infinity;
  const result = backend.synchronousKernels.sparse_neg({ sp_input: sp });
  expect(isDelegation(result)).toBe(true);
});

it('an inf the GPU computes sets its flag: read, the values are made again on the JS kernels', async () => {
  const sp: SparseData = { ...sparse(13), values: Float32Array.of(3e38, -2), indices: Float64Array.of(0, 0, 1, 1) };
  const sq = atOnce('sparse_square', { sp_input: sp }) as SparseData;
  expect(stored(sq).buffer, 'the host bound lets it run on the GPU').toBeDefined();
  const neg = atOnce('sparse_neg', { sp_input: sq }) as SparseData;
  expect(Array.from(await stored(neg).read())).toEqual([-Infinity, -4]);
});

describe('a loop that never reads', () => {
  it('submits what it records every MAX_RECORDED_PASSES passes, not all of it at the first read', async () => {
    const sp = sparse(14);
    const calls = 3 * MAX_RECORDED_PASSES;
    // An asynchronous call submits whatever is recorded first: the counts below start from an empty encoder.
    await backend.kernels.sparse_neg({ sp_input: sparse(15) });
    const submitted = backend.submissions();
    let last: SparseData | undefined;
    for (let i = 0; i < calls; i++) last = atOnce('sparse_neg', { sp_input: sp }) as SparseData;
    // A float32 neg records two passes: the kernel and the screen of its result.
    expect(backend.submissions() - submitted).toBe(Math.floor((2 * calls) / MAX_RECORDED_PASSES));
    const want = onJs<{ output: SparseData }>('sparse_neg', { sp_input: sp }).output;
    expect(bits(await stored(last!).read())).toEqual(bits(want.values));
  });

  it('keeps what the GPU holds within the limit: past it, results are made on the JS kernels, saying so', () =>
    onOwnBackend(async (backend) => {
      const atOnce = (op: string, args: Args) => (backend.synchronousKernels[op](args) as Args).output as SparseData;
      const sp = sparse(16);
      const bytes = 4 * sp.values.length;
      const held = backend.residentBytes();
      backend.limitResident(held + 5 * bytes);
      try {
        const results: Args[] = [];
        for (let i = 0; i < 20; i++) {
          results.push(backend.synchronousKernels.sparse_square({ sp_input: sp }) as Args);
          expect(backend.residentBytes() - held).toBeLessThanOrEqual(6 * bytes);
        }
        const kept = results.filter((r) => !isDelegation(r));
        expect(kept.length).toBe(6);
        const past = results.filter(isDelegation);
        expect(past.length).toBe(14);
        expect(past[0].reason).toBe(REASONS.deviceBudget(held + 6 * bytes));
        const want = bits(onJs<{ output: SparseData }>('sparse_square', { sp_input: sp }).output.values);
        for (const r of past) expect(bits((r.outputs as { output: SparseData }).output.values)).toEqual(want);
        for (const r of kept) {
          const values = stored(r.output as SparseData);
          expect(bits(await values.read())).toEqual(want);
        }
        // Read, they are let go: the next result stays on the GPU again.
        expect(backend.residentBytes()).toBe(held);
        expect(stored(atOnce('sparse_square', { sp_input: sp })).buffer).toBeDefined();
      } finally {
        backend.limitResident(Infinity);
      }
    }));

  it('a result past the limit, made from values on the GPU, is made on the JS kernels when read', async () => {
    const sp = sparse(17);
    const first = atOnce('sparse_neg', { sp_input: sp }) as SparseData;
    backend.limitResident(0);
    try {
      const out = backend.synchronousKernels.sparse_abs({ sp_input: first }) as Args;
      const values = stored(out.output as SparseData);
      expect(values.buffer).toBeUndefined();
      const want = onJs<{ output: SparseData }>('sparse_abs', { sp_input: sp }).output;
      expect(bits(await values.read())).toEqual(bits(want.values));
    } finally {
      backend.limitResident(Infinity);
    }
  });

  it('prepares no tensor past the limit', () =>
    onOwnBackend((backend) => {
      const sp = sparse(18);
      const held = backend.residentBytes();
      backend.limitResident(held + 4 * sp.values.length - 4);
      try {
        backend.prepare(sp);
        expect(backend.residentBytes()).toBe(held);
        backend.limitResident(held + 4 * sp.values.length);
        backend.prepare(sp);
        expect(backend.residentBytes()).toBe(held + 4 * sp.values.length);
      } finally {
        backend.forget([sp.values]);
        backend.limitResident(Infinity);
      }
    }));
});
