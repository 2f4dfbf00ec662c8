import { describe, expect, it } from 'vitest';
import type { CsrData, DenseData, DType, Scalar, SparseData, Values } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import { REASONS } from '../src/index.js';

// The kernels that only move values (sort, gather, scatter, compact, copy) on WebGPU with float64, int64 and bool
// values against the JS kernels: float64 and int64 move as u32 word pairs, so every output must equal js's bit for
// bit (NaN payloads, -0, infinities, subnormals, the int64 extremes), with no delegation and one submission.

useBackend();

type Data = SparseData | DenseData | CsrData;
type Out = Record<string, Data | Data[]>;
type Wide = 'float64' | 'int64' | 'bool';
const WIDE: Wide[] = ['float64', 'int64', 'bool'];

/** A store's bytes as words (every bit: NaN payloads, -0), with its type; strings and bools as they are. */
function bits(v: Values | Float64Array | Int32Array): unknown {
  if (Array.isArray(v) || v instanceof Uint8Array)
    return { store: v.constructor.name, data: Array.from(v as ArrayLike<unknown>) };
  const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice();
  return { store: v.constructor.name, words: Array.from(new Uint32Array(bytes.buffer)) };
}

function plain(x: Data | Data[]): unknown {
  if (Array.isArray(x)) return x.map(plain);
  if (x.kind === 'sparse') return { ...x, indices: bits(x.indices), values: bits(x.values) };
  if (x.kind === 'dense') return { ...x, data: bits(x.data) };
  return {
    ...x,
    batchPointers: bits(x.batchPointers),
    rowPointers: bits(x.rowPointers),
    colIndices: bits(x.colIndices),
    values: bits(x.values),
  };
}

/** Runs op on webgpu, which must not delegate and must submit `submits` command buffers, and compares with js by bits. */
async function same(op: string, args: Args, submits = 1): Promise<Out> {
  const before = backend.submissions();
  const { outputs, reason } = await onGpu<Out>(op, args);
  expect(reason, op).toBeUndefined();
  expect(backend.submissions() - before, op).toBe(submits);
  const want = onJs<Out>(op, args);
  expect(Object.keys(outputs).sort()).toEqual(Object.keys(want).sort());
  for (const k of Object.keys(want)) expect(plain(outputs[k]), `${op} ${k}`).toEqual(plain(want[k]));
  return outputs;
}

/** A float64 from its two words (high, low): NaNs with payloads, which arithmetic would not make. */
function f64(hi: number, lo: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, hi);
  view.setUint32(4, lo);
  return view.getFloat64(0);
}

const F64_SPECIAL = [
  f64(0x7ff80000, 0x00000001), // quiet NaN, payload in the low word
  f64(0xfff80123, 0x456789ab), // negative NaN, payload in both words
  -0,
  Infinity,
  -Infinity,
  5e-324, // the least subnormal
  -2.2250738585072e-308, // a negative subnormal
  Number.MAX_VALUE,
  0.1,
  -1 / 3,
];
const I64_SPECIAL = [-(2n ** 63n), 2n ** 63n - 1n, -1n, 2n ** 32n, 2n ** 32n - 1n, -(2n ** 32n), 1n, 2n ** 53n + 1n];

/** `n` values of dtype: its specials first (as many as fit), then random ones; zeros too where `zeros`. */
function store(r: Rng, dtype: Wide, n: number, zeros = false): Values {
  const pick = () => zeros && r.int(3) === 0;
  if (dtype === 'float64')
    return Float64Array.from({ length: n }, (_, k) =>
      pick() ? 0 : k < F64_SPECIAL.length ? F64_SPECIAL[k] : (r.next() - 0.5) * 2 ** (r.int(200) - 100),
    );
  if (dtype === 'int64')
    return BigInt64Array.from({ length: n }, (_, k) =>
      pick()
        ? 0n
        : k < I64_SPECIAL.length
          ? I64_SPECIAL[k]
          : BigInt.asIntN(64, (BigInt(r.int(2 ** 32)) << 32n) | BigInt(r.int(2 ** 32))),
    );
  return Uint8Array.from({ length: n }, () => (zeros ? r.int(2) : 1));
}

/** A SparseTensor of `nnz` entries of shape (random indices: unsorted, repeats allowed unless `unique`, then sorted). */
function sparse(r: Rng, shape: number[], nnz: number, dtype: DType, values: Values, unique = false): SparseData {
  let rows: number[][] = [];
  const seen = new Set<string>();
  while (rows.length < nnz) {
    const row = shape.map((d) => r.int(d));
    if (unique && seen.has(row.join())) continue;
    seen.add(row.join());
    rows.push(row);
  }
  if (unique) rows = rows.sort((a, b) => a.reduce((c, x, d) => c || x - b[d], 0));
  return { kind: 'sparse', indices: Float64Array.from(rows.flat()), values, shape, dtype };
}

const defaults: Record<Wide, Scalar[]> = {
  float64: [-0, f64(0x7ff80000, 0x0000beef), 5e-324, 0],
  int64: [-(2n ** 63n), 2n ** 40n + 3n, 0n],
  bool: [true, false],
};

describe('values that only move, as u32 word pairs on webgpu', () => {
  it('the comparison is by bits: two NaNs of other payloads, 0 and -0 differ', () => {
    expect(bits(Float64Array.of(F64_SPECIAL[0]))).not.toEqual(bits(Float64Array.of(NaN)));
    expect(bits(Float64Array.of(-0))).not.toEqual(bits(Float64Array.of(0)));
  });

  for (const dtype of WIDE)
    describe(dtype, () => {
      it('sparse_reorder and sparse_transpose: unsorted, repeated, several workgroups', async () => {
        const r = rng(1000 + WIDE.indexOf(dtype));
        const sp = sparse(r, [7, 9, 5], 300, dtype, store(r, dtype, 300));
        await same('sparse_reorder', { sp_input: sp });
        await same('sparse_transpose', { sp_input: sp, perm: [2, 0, 1] });
        await same('sparse_transpose', { sp_input: sparse(r, [40], 10, dtype, store(r, dtype, 10)), perm: null });
        await same('sparse_reorder', { sp_input: sparse(r, [3, 3], 0, dtype, store(r, dtype, 0)) }, 0);
      });

      it('sparse_concat, sparse_slice, sparse_split, sparse_retain', async () => {
        const r = rng(1100 + WIDE.indexOf(dtype));
        const a = sparse(r, [6, 4], 20, dtype, store(r, dtype, 20));
        const b = sparse(r, [6, 7], 90, dtype, store(r, dtype, 90));
        await same('sparse_concat', { sp_inputs: [a, b], axis: 1, expand_nonconcat_dim: false });
        await same('sparse_slice', { sp_input: b, start: [1, 2], size: [4, 4] });
        await same('sparse_split', { sp_input: b, axis: 1, num_split: 3 });
        const keep = Uint8Array.from({ length: 90 }, () => r.int(2));
        await same('sparse_retain', {
          sp_input: b,
          to_retain: { kind: 'dense', data: keep, shape: [90], dtype: 'bool' },
        });
      });

      it('sparse_fill_empty_rows: entries moved, the default written as js stores it', async () => {
        const r = rng(1200 + WIDE.indexOf(dtype));
        const sp = sparse(r, [40, 3], 30, dtype, store(r, dtype, 30));
        for (const default_value of defaults[dtype])
          await same('sparse_fill_empty_rows', { sp_input: sp, default_value });
      });

      it('sparse_tensor_to_dense and sparse_to_dense: the default, and the last of a repeated index', async () => {
        const r = rng(1300 + WIDE.indexOf(dtype));
        const sp = sparse(r, [5, 6], 60, dtype, store(r, dtype, 60)); // 60 draws of 30 places: repeats
        for (const default_value of defaults[dtype])
          await same('sparse_tensor_to_dense', { sp_input: sp, default_value, validate_indices: false });
        const n = 25;
        const idx = BigInt64Array.from({ length: n * 2 }, (_, k) => BigInt(r.int(k % 2 ? 6 : 5)));
        const sparse_indices = { kind: 'dense', data: idx, shape: [n, 2], dtype: 'int64' };
        const vals = store(r, dtype, n);
        for (const [sparse_values, default_value] of [
          [{ kind: 'dense', data: vals, shape: [n], dtype }, defaults[dtype][0]],
          [{ kind: 'dense', data: vals.slice(0, 1), shape: [], dtype }, defaults[dtype][1]],
        ])
          await same('sparse_to_dense', {
            sparse_indices,
            output_shape: [5, 6],
            sparse_values,
            default_value,
            validate_indices: false,
          });
      });

      it('from_dense: zeros (and -0) dropped, NaN kept', async () => {
        const r = rng(1400 + WIDE.indexOf(dtype));
        const data = store(r, dtype, 200, true);
        await same('from_dense', { tensor: { kind: 'dense', data, shape: [4, 50], dtype } });
        await same('from_dense', { tensor: { kind: 'dense', data: data.slice(0, 3), shape: [3], dtype } });
      });

      it('sparse_merge and sparse_eye', async () => {
        const r = rng(1500 + WIDE.indexOf(dtype));
        const ids = sparse(
          r,
          [6, 5],
          70,
          'int32',
          Int32Array.from({ length: 70 }, () => r.int(9)),
        );
        const sp_values = { ...ids, values: store(r, dtype, 70), dtype };
        await same('sparse_merge', { sp_ids: ids, sp_values, vocab_size: 9, already_sorted: false });
        await same('sparse_eye', { num_rows: 70, num_columns: 100, dtype });
      });

      it('sparse_reshape, sparse_expand_dims, sparse_reset_shape: indices on the GPU, values copied', async () => {
        const r = rng(1600 + WIDE.indexOf(dtype));
        const sp = sparse(r, [6, 10], 30, dtype, store(r, dtype, 30));
        await same('sparse_reshape', { sp_input: sp, shape: [3, -1, 4] });
        await same('sparse_expand_dims', { sp_input: sp, axis: 1 });
        await same('sparse_reset_shape', { sp_input: sp, new_shape: null });
      });
    });

  it('float64 CSR conversions and transpose, a batch of 3', async () => {
    const r = rng(1700);
    const sp = sparse(r, [3, 9, 70], 400, 'float64', store(r, 'float64', 400), true);
    const csr = (await same('sparse_tensor_to_csr_sparse_matrix', { sp_input: sp })).output as CsrData;
    await same('csr_sparse_matrix_to_sparse_tensor', { sparse_matrix: csr });
    await same('csr_sparse_matrix_to_dense', { sparse_input: csr });
    await same('sparse_matrix_transpose', { input: csr, conjugate: false });
    const positions = BigInt64Array.from(sp.indices, BigInt);
    const dense = onJs<{ output: DenseData }>('sparse_tensor_to_dense', { sp_input: sp, default_value: 0 }).output;
    await same('dense_to_csr_sparse_matrix', {
      dense_input: dense,
      indices: { kind: 'dense', data: positions, shape: [400, 3], dtype: 'int64' },
    });
  });

  it('strings still run on the JS kernels, saying so', async () => {
    const sp: SparseData = {
      kind: 'sparse',
      indices: Float64Array.of(2, 0),
      values: ['b', 'a'],
      shape: [3],
      dtype: 'string',
    };
    const { outputs, reason } = await onGpu<Out>('sparse_reorder', { sp_input: sp });
    expect(reason).toBe(REASONS.notComputed('string'));
    expect(plain(outputs.output)).toEqual(plain(onJs<Out>('sparse_reorder', { sp_input: sp }).output as SparseData));
  });
});
