import { describe, expect, it } from 'vitest';
import type { DenseData, Scalar, SparseData } from '@sparse/kernel-abi';
import { dataDiff } from '@sparse/test-kit/data-diff';
import { dense, scalar, sparse } from '@sparse/test-kit/plain-data';
import { createGpuBackend, DELEGATED_OPS, HAND_WRITTEN } from '../src/index.js';
import { expectCloseData, runGpu, runJs, valuesOf } from './against-js.js';
import { quarter, rng, rowsTensor } from './random.js';

const f32 = (v: number) => scalar('float32', v);

describe('softmax and the to-dense scatters on the GPU', async () => {
  const backend = await createGpuBackend();
  /** Runs op on the GPU (it must not delegate) and on the JS kernels; returns both results. */
  const both = (op: string, args: Record<string, unknown>) => {
    const got = runGpu(backend, op, args);
    expect(got.delegated, `${op} delegated: ${got.delegated}`).toBeUndefined();
    return { got: got.outputs.output, want: runJs(op, args).output };
  };

  it('are hand-written GPU kernels, not declared as delegated', () => {
    for (const op of ['sparse_softmax', 'sparse_tensor_to_dense', 'sparse_to_dense', 'sparse_tensor_dense_matmul']) {
      expect(HAND_WRITTEN[op], op).toBeDefined();
      expect(DELEGATED_OPS[op], op).toBeUndefined();
    }
  });

  it('softmax: rows of length 1 to > 256, equal to the JS kernel', () => {
    const r = rng(1);
    const lengths = [1, 3, 1, 300, 0, 2, 17, 1, 600, 64, 1];
    for (const [batches, value] of [
      [1, () => (r.next() - 0.5) * 40],
      [3, () => (r.next() - 0.5) * 4],
      // Large values: the row max keeps exp finite. Within 50 of each other, so that no exp(x − max) is subnormal.
      [2, () => 500 + r.next() * 50],
    ] as [number, () => number][]) {
      const sp = rowsTensor(r, batches, lengths, 700, value);
      const { got, want } = both('sparse_softmax', { sp_input: sp });
      expect(Array.from((got as SparseData).indices)).toEqual(Array.from(sp.indices));
      expectCloseData(got, want);
    }
    // Rank 2, one entry per row.
    const single = sparse(
      [
        [0, 4],
        [1, 0],
        [5, 2],
      ],
      [3, -7, 0.5],
      [6, 5],
      'float32',
    );
    const { got, want } = both('sparse_softmax', { sp_input: single });
    expectCloseData(got, want);
    expect(valuesOf(want)).toEqual([1, 1, 1]);
  });

  it('softmax: nothing stored gives nothing; float64 and inf delegate by the declared rules', () => {
    const empty = sparse(new Float64Array(0), new Float32Array(0), [2, 3], 'float32');
    expect(valuesOf(both('sparse_softmax', { sp_input: empty }).got)).toEqual([]);
    const f64 = sparse(
      [
        [0, 0],
        [0, 1],
      ],
      [1, 2],
      [1, 2],
      'float64',
    );
    expect(runGpu(backend, 'sparse_softmax', { sp_input: f64 }).delegated).toMatch(
      /float32 \(and int32 where float32 is exact\); float64/,
    );
    const inf = sparse(
      [
        [0, 0],
        [0, 1],
      ],
      [1, Infinity],
      [1, 2],
      'float32',
    );
    const r = runGpu(backend, 'sparse_softmax', { sp_input: inf });
    expect(r.delegated).toMatch(/inf, nan/);
    expect(valuesOf(r.outputs.output)).toEqual(valuesOf(runJs('sparse_softmax', { sp_input: inf }).output));
  });

  it('sparse_tensor_to_dense: default_value ≠ 0, canonical and unordered with repeats (the last write wins)', () => {
    const r = rng(2);
    const shape = [7, 9, 11];
    const ordered = rowsTensor(r, 7, [3, 0, 11, 1, 5, 2, 9, 4, 1], 11, quarter(r));
    const { got, want } = both('sparse_tensor_to_dense', {
      sp_input: ordered,
      default_value: f32(2.5),
      validate_indices: true,
    });
    expect(dataDiff(got, want)).toBeUndefined();
    expect((got as DenseData).shape).toEqual(shape);
    // Unordered, with repeats (each index drawn from only a few, so most repeat).
    const n = 400;
    const idx = Array.from({ length: n }, () => [r.int(3), r.int(2), r.int(5)]);
    const vals = Float32Array.from({ length: n }, () => (r.next() - 0.5) * 10);
    const repeated = sparse(idx, vals, shape, 'float32');
    const res = both('sparse_tensor_to_dense', {
      sp_input: repeated,
      default_value: f32(-1.75),
      validate_indices: false,
    });
    expect(dataDiff(res.got, res.want)).toBeUndefined();
    expect(valuesOf(res.want)).toContain(-1.75);
  });

  it('sparse_to_dense: matrix, vector and scalar indices, scalar-broadcast values, repeats', () => {
    const r = rng(3);
    const n = 300;
    const matrix = Int32Array.from({ length: 2 * n }, (_, i) => (i % 2 ? r.int(40) : r.int(9)));
    const vals = Float32Array.from({ length: n }, () => (r.next() - 0.5) * 100);
    const cases: Record<string, unknown>[] = [
      {
        sparse_indices: dense(matrix, [n, 2], 'int32'),
        output_shape: [9, 40],
        sparse_values: dense(vals, [n], 'float32'),
        default_value: f32(0.5),
        validate_indices: false,
      },
      {
        sparse_indices: dense(matrix, [n, 2], 'int32'),
        output_shape: [9, 40],
        sparse_values: dense(Float32Array.of(-3.25), [], 'float32'),
        default_value: f32(4),
        validate_indices: false,
      },
      {
        sparse_indices: dense(
          BigInt64Array.from({ length: n }, () => BigInt(r.int(1000))),
          [n],
          'int64',
        ),
        output_shape: [1000],
        sparse_values: dense(vals, [n], 'float32'),
        default_value: f32(-2),
        validate_indices: false,
      },
      {
        sparse_indices: dense(Int32Array.of(3), [], 'int32'),
        output_shape: [5],
        sparse_values: dense(Float32Array.of(7.5), [], 'float32'),
        default_value: f32(1),
        validate_indices: true,
      },
      {
        sparse_indices: dense(Int32Array.of(0, 2, 4), [3, 1], 'int32'),
        output_shape: [6],
        sparse_values: dense(Float32Array.of(1, 2, 3), [3], 'float32'),
        default_value: f32(9),
        validate_indices: true,
      },
    ];
    for (const args of cases) {
      const { got, want } = both('sparse_to_dense', args);
      expect(dataDiff(got, want)).toBeUndefined();
    }
  });

  it('the scatters delegate what a float texture cannot hold, by the declared rules', () => {
    const toDense = (sp_input: SparseData, default_value: Scalar) =>
      runGpu(backend, 'sparse_tensor_to_dense', { sp_input, default_value, validate_indices: true });
    const st = sparse([[0, 1]], [2], [2, 2], 'float32');
    expect(toDense(st, f32(1e39)).delegated).toMatch(/inf, nan/);
    expect(toDense(sparse([[0, 1]], [2], [2, 2], 'int64'), scalar('int64', 1)).delegated).toMatch(/int64/);
    const big = toDense(sparse([[0, 2 ** 24]], [2], [1, 2 ** 24 + 1], 'float32'), f32(0));
    expect(big.delegated).toMatch(/2\^24/);
    expect((big.outputs.output as { data: Float32Array }).data[2 ** 24]).toBe(2);
  });
});
