import { describe, expect, it } from 'vitest';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import type { DenseData, DType, SparseData } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/index.js';

// sparse_tensor_dense_matmul and its gradient on WebGPU (SwiftShader in CI), against the JS kernels.

type Outputs = Record<string, DenseData>;

useBackend();

/** The GPU kernel's outputs, and its delegation reason if it handed the call to the JS kernels. */
const gpu = (op: string, args: Args) => onGpu<Outputs>(op, args);

const js = (op: string, args: Args) => onJs<Outputs>(op, args);

/** Where `got` differs from `want`: exact for int32, 1e-6 + 1e-5·|want| for float32; undefined where it does not. */
function mismatch(got: DenseData, want: DenseData): string | undefined {
  if (got.dtype !== want.dtype) return `dtype ${got.dtype} vs ${want.dtype}`;
  if (got.shape.join() !== want.shape.join()) return `shape [${got.shape}] vs [${want.shape}]`;
  if (got.data.constructor !== want.data.constructor) return `store ${got.data.constructor.name}`;
  const [g, w] = [got.data as Float32Array, want.data as Float32Array];
  if (g.length !== w.length) return `length ${g.length} vs ${w.length}`;
  for (let i = 0; i < w.length; i++) {
    const ok = got.dtype === 'int32' ? g[i] === w[i] : Math.abs(g[i] - w[i]) <= 1e-6 + 1e-5 * Math.abs(w[i]);
    if (!ok) return `[${i}]: ${g[i]} vs ${w[i]}`;
  }
  return undefined;
}

/** Runs op on the GPU (which must not delegate: a delegated call equals js whatever the shader does) and on js. */
async function expectGpuMatchesJs(op: string, args: Args): Promise<Outputs> {
  const before = backend.submissions();
  const { outputs, reason } = await gpu(op, args);
  expect(reason).toBeUndefined();
  const want = js(op, args);
  for (const name of Object.keys(want)) expect(mismatch(outputs[name], want[name]), name).toBeUndefined();
  expect(Object.keys(outputs).sort()).toEqual(Object.keys(want).sort());
  // A non-empty product is one submission (nothing is computed on the host).
  const empty = Object.values(want).every((o) => o.data.length === 0);
  expect(backend.submissions() - before).toBe(empty ? 0 : 1);
  return outputs;
}

function values(r: Rng, dtype: DType, n: number): Float32Array | Int32Array {
  if (dtype === 'int32') {
    // The whole int32 range: products and sums wrap.
    const v = new Int32Array(n);
    for (let i = 0; i < n; i++) v[i] = (r.next() * 2 ** 32) | 0;
    return v;
  }
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = r.next() * 2 - 1;
  return v;
}

/** A rows × cols SparseTensor of nnz random entries in random order, some indices repeated. */
function randomSparse(r: Rng, rows: number, cols: number, nnz: number, dtype: DType): SparseData {
  const indices = new Float64Array(2 * nnz);
  for (let e = 0; e < nnz; e++) {
    const repeat = e > 0 && r.next() < 0.05;
    const src = repeat ? r.int(e) : e;
    indices[2 * e] = repeat ? indices[2 * src] : r.int(rows);
    indices[2 * e + 1] = repeat ? indices[2 * src + 1] : r.int(cols);
  }
  return { kind: 'sparse', indices, values: values(r, dtype, nnz), shape: [rows, cols], dtype };
}

function randomDense(r: Rng, rows: number, cols: number, dtype: DType): DenseData {
  return { kind: 'dense', data: values(r, dtype, rows * cols), shape: [rows, cols], dtype };
}

function isUnordered(sp: SparseData): boolean {
  for (let e = 1; e < sp.values.length; e++) {
    const [a, b] = [
      sp.indices[2 * e - 2] * sp.shape[1] + sp.indices[2 * e - 1],
      sp.indices[2 * e] * sp.shape[1] + sp.indices[2 * e + 1],
    ];
    if (b < a) return true;
  }
  return false;
}

const PAIRS = [
  [false, false],
  [true, false],
  [false, true],
  [true, true],
] as const;

/** Operands of op(A)·op(B) = [m × k]·[k × n], the sparse one first or second, as the flags lay them out. */
function operands(
  r: Rng,
  dtype: DType,
  sparseFirst: boolean,
  adjA: boolean,
  adjB: boolean,
  m: number,
  k: number,
  n: number,
  nnz: number,
) {
  const aShape = adjA ? [k, m] : [m, k];
  const bShape = adjB ? [n, k] : [k, n];
  const sp_a = sparseFirst
    ? randomSparse(r, aShape[0], aShape[1], nnz, dtype)
    : randomDense(r, aShape[0], aShape[1], dtype);
  const b = sparseFirst
    ? randomDense(r, bShape[0], bShape[1], dtype)
    : randomSparse(r, bShape[0], bShape[1], nnz, dtype);
  return { sp_a, b, adjoint_a: adjA, adjoint_b: adjB };
}

const OP = 'sparse_tensor_dense_matmul';
const GRAD = 'sparse_tensor_dense_matmul_grad';

describe('sparse_tensor_dense_matmul on webgpu', () => {
  for (const dtype of ['float32', 'int32'] as const)
    for (const sparseFirst of [true, false])
      for (const [adjA, adjB] of PAIRS)
        it(`${dtype}, ${sparseFirst ? 'sparse × dense' : 'dense × sparse'}, adjoint_a ${adjA}, adjoint_b ${adjB}`, async () => {
          const r = rng(1000 + (dtype === 'int32' ? 100 : 0) + (sparseFirst ? 10 : 0) + 2 * +adjA + +adjB);
          // Non-square everywhere, so a swapped stride or dimension reads the wrong element (or out of range).
          const args = operands(r, dtype, sparseFirst, adjA, adjB, 37, 23, 19, 160);
          expect(isUnordered((sparseFirst ? args.sp_a : args.b) as SparseData)).toBe(true);
          await expectGpuMatchesJs(OP, args);
        });

  it('a 300 × 300 sparse matrix (2% dense) times a 300 × 64 matrix, float32', async () => {
    const r = rng(7);
    await expectGpuMatchesJs(OP, operands(r, 'float32', true, false, false, 300, 300, 64, 1800));
  });

  it('a row longer than the rest (one row holds a third of the entries), int32', async () => {
    const r = rng(8);
    const args = operands(r, 'int32', true, false, true, 50, 40, 30, 300);
    const sp = args.sp_a as SparseData;
    for (let e = 0; e < 100; e++) sp.indices[2 * e] = 17;
    await expectGpuMatchesJs(OP, args);
  });

  it('hand-computed: unordered and repeated indices add up, non-square, adjoint_b', async () => {
    // A [2 × 3] = [[0, 2, 0], [4, 0, 1]] stored out of order with (1, 0) split in two; B stored as Bᵀ [4 × 3].
    const sp_a: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([1, 2, 0, 1, 1, 0, 1, 0]),
      values: Float32Array.from([1, 2, 3, 1]),
      shape: [2, 3],
      dtype: 'float32',
    };
    const bT = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]; // B = Bᵀᵀ is [3 × 4]: B[k][j] = bT[j·3 + k]
    const b: DenseData = { kind: 'dense', data: Float32Array.from(bT), shape: [4, 3], dtype: 'float32' };
    const { outputs, reason } = await gpu(OP, { sp_a, b, adjoint_a: false, adjoint_b: true });
    expect(reason).toBeUndefined();
    const B = (k: number, j: number) => bT[j * 3 + k];
    const want = [0, 1, 2, 3].map((j) => 2 * B(1, j)).concat([0, 1, 2, 3].map((j) => 4 * B(0, j) + B(2, j)));
    expect(outputs.output.shape).toEqual([2, 4]);
    expect(Array.from(outputs.output.data as Float32Array)).toEqual(want);
  });

  it('int32 products and sums wrap as two’s complement int32 does', async () => {
    const sp_a: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 0, 0, 1, 1, 1]),
      values: Int32Array.from([65536, 3, 2 ** 31 - 1]),
      shape: [2, 2],
      dtype: 'int32',
    };
    const b: DenseData = {
      kind: 'dense',
      data: Int32Array.from([65537, -7, 1, 2 ** 30]),
      shape: [2, 2],
      dtype: 'int32',
    };
    const { outputs, reason } = await gpu(OP, { sp_a, b, adjoint_a: false, adjoint_b: false });
    expect(reason).toBeUndefined();
    // 65536·65537 + 3 = 2^32 + 65539 → 65539; 65536·(−7) + 3·2^30 = −458752 + 3·2^30 → wraps; (2^31 − 1)·2^30 → wraps.
    const want = [
      65539,
      (Math.imul(65536, -7) + Math.imul(3, 2 ** 30)) | 0,
      Math.imul(2 ** 31 - 1, 1),
      Math.imul(2 ** 31 - 1, 2 ** 30),
    ];
    expect(Array.from(outputs.output.data as Int32Array)).toEqual(want);
    expect(want[1]).not.toBe(-458752 + 3 * 2 ** 30); // the wrap is exercised
    await expectGpuMatchesJs(OP, operands(rng(9), 'int32', false, true, true, 40, 60, 30, 400));
  });

  it('empty: no entries, no rows, a zero inner dimension, no columns', async () => {
    const r = rng(10);
    await expectGpuMatchesJs(OP, operands(r, 'float32', true, false, false, 5, 4, 3, 0));
    await expectGpuMatchesJs(OP, operands(r, 'int32', true, true, false, 0, 4, 3, 0));
    await expectGpuMatchesJs(OP, operands(r, 'float32', false, false, false, 2, 0, 3, 0));
    await expectGpuMatchesJs(OP, operands(r, 'int32', false, false, true, 3, 4, 0, 0));
  });

  it('float64 and int64 run on the JS kernels, saying so', async () => {
    const args = operands(rng(11), 'float32', true, false, false, 3, 4, 2, 5);
    const f64 = {
      ...args,
      sp_a: {
        ...(args.sp_a as SparseData),
        values: Float64Array.from((args.sp_a as SparseData).values as Float32Array),
        dtype: 'float64',
      },
      b: {
        ...(args.b as DenseData),
        data: Float64Array.from((args.b as DenseData).data as Float32Array),
        dtype: 'float64',
      },
    };
    const { outputs, reason } = await gpu(OP, f64);
    expect(reason).toBe(REASONS.notComputed('float64'));
    expect(outputs.output.data).toEqual(js(OP, f64).output.data);
  });

  it('float32 inf, nan or subnormal inputs, and a product that overflows, run on the JS kernels', async () => {
    const sp_a: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 0]),
      values: Float32Array.from([3e38]),
      shape: [1, 1],
      dtype: 'float32',
    };
    const b = (x: number): DenseData => ({
      kind: 'dense',
      data: Float32Array.from([x]),
      shape: [1, 1],
      dtype: 'float32',
    });
    for (const x of [NaN, Infinity, 1e-40])
      expect((await gpu(OP, { sp_a, b: b(x), adjoint_a: false, adjoint_b: false })).reason).toBe(REASONS.nonFinite);
    const over = await gpu(OP, { sp_a, b: b(4), adjoint_a: false, adjoint_b: false });
    expect(over.reason).toBe(REASONS.nonFiniteResult);
    expect(over.outputs.output.data[0]).toBe(Infinity);
  });

  it('the comparison catches a wrong element (so a shader bug fails these tests), and calls compile nothing new', async () => {
    const args = operands(rng(12), 'float32', true, true, true, 9, 7, 5, 20);
    const got = (await expectGpuMatchesJs(OP, args)).output;
    const off = { ...got, data: Float32Array.from(got.data as Float32Array) };
    (off.data as Float32Array)[13] += 1e-3;
    expect(mismatch(off, js(OP, args).output)).toMatch(/^\[13\]/);
    const compiled = backend.pipelinesCompiled();
    await expectGpuMatchesJs(OP, operands(rng(13), 'float32', true, true, true, 11, 6, 4, 20));
    expect(backend.pipelinesCompiled()).toBe(compiled);
  });
});

describe('sparse_tensor_dense_matmul_grad on webgpu', () => {
  for (const sparseFirst of [true, false])
    for (const [adjA, adjB] of PAIRS)
      it(`float32, ${sparseFirst ? 'sparse × dense' : 'dense × sparse'}, adjoint_a ${adjA}, adjoint_b ${adjB}`, async () => {
        const r = rng(2000 + (sparseFirst ? 10 : 0) + 2 * +adjA + +adjB);
        const args = operands(r, 'float32', sparseFirst, adjA, adjB, 31, 17, 13, 120);
        const grad = randomDense(r, 31, 13, 'float32');
        await expectGpuMatchesJs(GRAD, { ...args, grad });
      });

  it('hand-computed: a repeated index gets the same gradient at each entry', async () => {
    const sp_a: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 1, 0, 1]),
      values: Float32Array.from([1, 2]),
      shape: [1, 2],
      dtype: 'float32',
    };
    const b: DenseData = { kind: 'dense', data: Float32Array.from([1, 3]), shape: [2, 1], dtype: 'float32' };
    const grad: DenseData = { kind: 'dense', data: Float32Array.from([2]), shape: [1, 1], dtype: 'float32' };
    const { outputs, reason } = await gpu(GRAD, { sp_a, b, grad, adjoint_a: false, adjoint_b: false });
    expect(reason).toBeUndefined();
    expect(Array.from(outputs.sp_a_grad.data as Float32Array)).toEqual([6, 6]);
    expect(Array.from(outputs.b_grad.data as Float32Array)).toEqual([0, 6]);
  });

  it('no entries, and an empty dense operand', async () => {
    const r = rng(14);
    const args = operands(r, 'float32', true, false, false, 4, 3, 2, 0);
    await expectGpuMatchesJs(GRAD, { ...args, grad: randomDense(r, 4, 2, 'float32') });
    const none = operands(r, 'float32', false, true, false, 3, 5, 0, 0);
    await expectGpuMatchesJs(GRAD, { ...none, grad: randomDense(r, 3, 0, 'float32') });
  });

  it('float64 runs on the JS kernels, saying so', async () => {
    const sp_a: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 0]),
      values: Float64Array.from([2]),
      shape: [1, 1],
      dtype: 'float64',
    };
    const b: DenseData = { kind: 'dense', data: Float64Array.from([3]), shape: [1, 1], dtype: 'float64' };
    const grad: DenseData = { kind: 'dense', data: Float64Array.from([5]), shape: [1, 1], dtype: 'float64' };
    const { outputs, reason } = await gpu(GRAD, { sp_a, b, grad, adjoint_a: false, adjoint_b: false });
    expect(reason).toBe(REASONS.notComputed('float64'));
    expect(Array.from(outputs.sp_a_grad.data as Float64Array)).toEqual([15]);
    expect(Array.from(outputs.b_grad.data as Float64Array)).toEqual([10]);
  });
});
