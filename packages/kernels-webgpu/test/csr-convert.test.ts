import { describe, expect, it } from 'vitest';
import { onGpu, onJs, useBackend, type Args } from './backend.js';
import { expectOutputMatchesJs } from './compare.js';
import { randomCsr as randomCsrOf, type CsrShapeArgs } from './random.js';
import type { CsrData, DenseData, SparseData } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/index.js';

// The CSR conversions and transpose on WebGPU (SwiftShader in CI), against the JS kernels, bit for bit.

useBackend();

type Data = CsrData | DenseData | SparseData;
type Out = { output: Data };

const words = (v: ArrayLike<number>) =>
  v instanceof Float32Array || v instanceof Int32Array
    ? Array.from(new Uint32Array(v.buffer, v.byteOffset, v.length))
    : Array.from(v);

/** Where two results differ: every array exactly (float32 and int32 values by their bits), and its store type. */
function mismatch(got: Data, want: Data): string | undefined {
  if (got.kind !== want.kind || got.dtype !== want.dtype)
    return `${got.kind} ${got.dtype} vs ${want.kind} ${want.dtype}`;
  if (got.shape.join() !== want.shape.join()) return `shape [${got.shape}] vs [${want.shape}]`;
  const parts = (d: Data): Record<string, ArrayLike<number>> =>
    d.kind === 'csr'
      ? { bp: d.batchPointers, rp: d.rowPointers, ci: d.colIndices, v: d.values as Float32Array }
      : d.kind === 'sparse'
        ? { i: d.indices, v: d.values as Float32Array }
        : { v: d.data as Float32Array };
  const [g, w] = [parts(got), parts(want)];
  for (const key of Object.keys(w)) {
    if (g[key].constructor !== w[key].constructor)
      return `${key}: ${g[key].constructor.name} vs ${w[key].constructor.name}`;
    if (words(g[key]).join() !== words(w[key]).join()) return `${key} differ`;
  }
  return undefined;
}

const expectGpuMatchesJs = (op: string, args: Args, submits = 1) => expectOutputMatchesJs(op, args, mismatch, submits);

async function expectDelegated(op: string, args: Args, reason: string): Promise<void> {
  const got = await onGpu<Out>(op, args);
  expect(got.reason).toBe(reason);
}

type DType = 'float32' | 'int32' | 'float64';

function store(dtype: DType, values: number[]): Float32Array | Int32Array | Float64Array {
  return dtype === 'float32'
    ? Float32Array.from(values)
    : dtype === 'int32'
      ? Int32Array.from(values)
      : Float64Array.from(values);
}

function value(r: Rng, dtype: DType): number {
  return dtype === 'int32' ? r.int(2 ** 31) - 2 ** 30 : r.next() * 2 - 1;
}

/** A random CSR batch (random.ts) with this file's values: sorted columns unless `shuffle` (a direct call). */
function randomCsr(...[r, batch, rows, cols, density, rank3, dtype = 'float32', shuffle = false]: CsrArgs): CsrData {
  return randomCsrOf(r, batch, rows, cols, density, rank3, dtype, (q) => value(q, dtype), shuffle ? 0.5 : 0);
}
type CsrArgs = [...CsrShapeArgs, dtype?: DType, shuffle?: boolean];

/** The float32 values nothing may change: nan, ±inf, -0, subnormals. */
const SPECIAL = [NaN, Infinity, -Infinity, -0, 1e-40, -1.4e-45, 3.4e38];

function withSpecials(m: CsrData): CsrData {
  const v = (m.values as Float32Array).slice();
  SPECIAL.forEach((x, i) => i < v.length && (v[i] = x));
  return { ...m, values: v };
}

const CASES: [string, number, number, number, boolean][] = [
  ['rank 2', 1, 37, 23, false],
  ['a batch of 3', 3, 13, 11, true],
  ['a rank-3 batch of 1', 1, 9, 8, true],
  ['several workgroups, 2 batches of 150 × 120', 2, 150, 120, true],
];

describe('sparse_matrix_transpose on webgpu', () => {
  const OP = 'sparse_matrix_transpose';
  CASES.forEach(([name, batch, rows, cols, rank3], i) =>
    it(`${name}: float32 (specials bit for bit), int32, unsorted rows`, async () => {
      const r = rng(100 + i);
      await expectGpuMatchesJs(OP, {
        input: withSpecials(randomCsr(r, batch, rows, cols, 0.2, rank3)),
        conjugate: true,
      });
      await expectGpuMatchesJs(OP, { input: randomCsr(r, batch, rows, cols, 0.3, rank3, 'int32'), conjugate: false });
      await expectGpuMatchesJs(OP, {
        input: randomCsr(r, batch, rows, cols, 0.3, rank3, 'float32', true),
        conjugate: false,
      });
    }),
  );

  it('past 16 columns: a wide matrix, more sort passes; empty inputs', async () => {
    await expectGpuMatchesJs(OP, { input: randomCsr(rng(110), 2, 3, 5000, 0.01, true), conjugate: false });
    await expectGpuMatchesJs(OP, { input: randomCsr(rng(111), 2, 5, 4, 0, true), conjugate: false }, 0);
    await expectGpuMatchesJs(OP, { input: randomCsr(rng(112), 1, 0, 4, 0.5, false), conjugate: false }, 0);
    await expectGpuMatchesJs(OP, { input: randomCsr(rng(113), 3, 4, 0, 0.5, true), conjugate: false }, 0);
  });

  it('float64 moves as word pairs; invalid input runs on the JS kernels', async () => {
    await expectGpuMatchesJs(OP, { input: randomCsr(rng(120), 1, 4, 5, 0.5, false, 'float64'), conjugate: false });
    const m = randomCsr(rng(121), 1, 4, 5, 0.5, false);
    await expectDelegated(
      OP,
      { input: { ...m, colIndices: m.colIndices.map(() => 9) }, conjugate: false },
      REASONS.unchecked,
    );
  });
});

describe('csr_sparse_matrix_to_dense on webgpu', () => {
  const OP = 'csr_sparse_matrix_to_dense';
  CASES.forEach(([name, batch, rows, cols, rank3], i) =>
    it(`${name}: float32 (specials bit for bit) and int32`, async () => {
      const r = rng(200 + i);
      await expectGpuMatchesJs(OP, { sparse_input: withSpecials(randomCsr(r, batch, rows, cols, 0.2, rank3)) });
      await expectGpuMatchesJs(OP, { sparse_input: randomCsr(r, batch, rows, cols, 0.3, rank3, 'int32') });
    }),
  );

  it('empty inputs need no GPU; float64 on it; repeated or unsorted columns run on the JS kernels', async () => {
    await expectGpuMatchesJs(OP, { sparse_input: randomCsr(rng(210), 2, 5, 4, 0, true) }, 0);
    await expectGpuMatchesJs(OP, { sparse_input: randomCsr(rng(211), 1, 3, 0, 0.5, false) }, 0);
    const m = randomCsr(rng(212), 1, 6, 6, 0.6, false);
    await expectDelegated(OP, { sparse_input: { ...m, colIndices: m.colIndices.map(() => 2) } }, REASONS.unchecked);
    await expectDelegated(
      OP,
      { sparse_input: randomCsr(rng(213), 1, 6, 6, 0.6, false, 'float32', true) },
      REASONS.unchecked,
    );
    await expectGpuMatchesJs(OP, { sparse_input: randomCsr(rng(214), 1, 4, 4, 0.6, false, 'float64') });
  });
});

describe('csr_sparse_matrix_to_sparse_tensor on webgpu', () => {
  const OP = 'csr_sparse_matrix_to_sparse_tensor';
  CASES.forEach(([name, batch, rows, cols, rank3], i) =>
    it(`${name}: float32 (specials bit for bit) and int32`, async () => {
      const r = rng(300 + i);
      const out = await expectGpuMatchesJs(OP, {
        sparse_matrix: withSpecials(randomCsr(r, batch, rows, cols, 0.2, rank3)),
      });
      expect((out as SparseData).indices).toBeInstanceOf(Float64Array);
      await expectGpuMatchesJs(OP, { sparse_matrix: randomCsr(r, batch, rows, cols, 0.3, rank3, 'int32') });
    }),
  );

  it('empty inputs need no GPU; float64 on it; invalid input runs on the JS kernels', async () => {
    await expectGpuMatchesJs(OP, { sparse_matrix: randomCsr(rng(310), 2, 5, 4, 0, true) }, 0);
    await expectGpuMatchesJs(OP, { sparse_matrix: randomCsr(rng(311), 1, 4, 4, 0.6, false, 'float64') });
    const m = randomCsr(rng(312), 1, 4, 4, 0.6, false);
    await expectDelegated(
      OP,
      { sparse_matrix: { ...m, rowPointers: m.rowPointers.map((x) => x + 1) } },
      REASONS.unchecked,
    );
  });
});

/** A random CSR batch's entries (randomCsr's arguments) as a SparseTensor in canonical order (via the JS kernel). */
function randomSparse(...args: CsrArgs): SparseData {
  const m = randomCsr(...args);
  return onJs<{ output: SparseData }>('csr_sparse_matrix_to_sparse_tensor', {
    sparse_matrix: m.dtype === 'float32' ? withSpecials(m) : m,
  }).output;
}

describe('sparse_tensor_to_csr_sparse_matrix on webgpu', () => {
  const OP = 'sparse_tensor_to_csr_sparse_matrix';
  CASES.forEach(([name, batch, rows, cols, rank3], i) =>
    it(`${name}: float32 (specials bit for bit) and int32`, async () => {
      const r = rng(400 + i);
      await expectGpuMatchesJs(OP, { sp_input: randomSparse(r, batch, rows, cols, 0.2, rank3) });
      await expectGpuMatchesJs(OP, { sp_input: randomSparse(r, batch, rows, cols, 0.3, rank3, 'int32') });
    }),
  );

  it('empty inputs need no GPU; float64 on it; rank 1 and indices out of range run on the JS kernels', async () => {
    await expectGpuMatchesJs(OP, { sp_input: randomSparse(rng(410), 2, 5, 4, 0, true) }, 0);
    await expectGpuMatchesJs(OP, { sp_input: randomSparse(rng(411), 1, 4, 4, 0.6, false, 'float64') });
    const sp = randomSparse(rng(412), 1, 4, 4, 0.6, false);
    await expectDelegated(OP, { sp_input: { ...sp, indices: sp.indices.map(() => 4) } }, REASONS.unchecked);
    const rank1: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([1]),
      values: Float32Array.from([2]),
      shape: [3],
      dtype: 'float32',
    };
    await expectDelegated(OP, { sp_input: rank1 }, REASONS.unchecked);
  });
});

describe('dense_to_csr_sparse_matrix on webgpu', () => {
  const OP = 'dense_to_csr_sparse_matrix';
  /** A random dense batch and about `density` of its positions, canonical order, as int64. */
  function denseArgs(
    r: Rng,
    batch: number,
    rows: number,
    cols: number,
    density: number,
    rank3: boolean,
    dtype: DType = 'float32',
  ): Args {
    const shape = rank3 ? [batch, rows, cols] : [rows, cols];
    const size = batch * rows * cols;
    const data = store(
      dtype,
      Array.from({ length: size }, () => value(r, dtype)),
    );
    if (dtype === 'float32') SPECIAL.forEach((x, i) => i < size && (data[i] = x));
    const pos: bigint[] = [];
    for (let b = 0; b < batch; b++)
      for (let i = 0; i < rows; i++)
        for (let c = 0; c < cols; c++) if (r.next() < density) pos.push(...(rank3 ? [b, i, c] : [i, c]).map(BigInt));
    const rank = shape.length;
    return {
      dense_input: { kind: 'dense', data, shape, dtype },
      indices: { kind: 'dense', data: BigInt64Array.from(pos), shape: [pos.length / rank, rank], dtype: 'int64' },
    };
  }
  CASES.forEach(([name, batch, rows, cols, rank3], i) =>
    it(`${name}: float32 (specials bit for bit) and int32`, async () => {
      const r = rng(500 + i);
      await expectGpuMatchesJs(OP, denseArgs(r, batch, rows, cols, 0.3, rank3));
      await expectGpuMatchesJs(OP, denseArgs(r, batch, rows, cols, 0.3, rank3, 'int32'));
    }),
  );

  it('no positions need no GPU; float64 on it; positions outside run on the JS kernels', async () => {
    await expectGpuMatchesJs(OP, denseArgs(rng(510), 2, 4, 3, 0, true), 0);
    await expectGpuMatchesJs(OP, denseArgs(rng(511), 1, 4, 3, 0.5, false, 'float64'));
    const args = denseArgs(rng(512), 1, 4, 3, 0.5, false);
    const idx = args.indices as DenseData;
    await expectDelegated(
      OP,
      { ...args, indices: { ...idx, data: (idx.data as BigInt64Array).map(() => 7n) } },
      REASONS.unchecked,
    );
  });
});
