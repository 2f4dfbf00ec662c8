import { describe, expect, it } from 'vitest';
import { Runtime, SparseTensor, createRuntime, tensor } from '@sparse/runtime';
import { createGpuBackend, DELEGATED_OPS, HAND_WRITTEN } from '../src/index.js';
import { quarter, rng, rowsTensor } from './random.js';

type Outputs = { outputs: Record<string, unknown>; delegated?: string };
const valuesOf = (t: unknown) =>
  Array.from(((t as SparseTensor).values ?? (t as { data: Float32Array }).data) as Float32Array);
const close = (got: ArrayLike<number>, want: ArrayLike<number>) => {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++)
    expect(Math.abs(got[i] - want[i]), `[${i}] ${got[i]} vs ${want[i]}`).toBeLessThanOrEqual(
      1e-6 + 1e-5 * Math.abs(want[i]),
    );
};

describe('softmax and the to-dense scatters on the GPU', async () => {
  const backend = await createGpuBackend();
  const gpu = new Runtime(backend as never);
  const js = await createRuntime({ backend: 'js' });
  /** Runs op on the GPU (it must not delegate) and on the JS backend; returns both results. */
  const both = (op: string, args: Record<string, unknown>) => {
    const got = gpu.runWithReport(op, args) as Outputs;
    expect(got.delegated, `${op} delegated: ${got.delegated}`).toBeUndefined();
    return { got: got.outputs.output, want: (js.runWithReport(op, args) as Outputs).outputs.output };
  };

  it('are hand-written GPU kernels, no longer declared as delegated', () => {
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
      [2, () => 500 + r.next() * 100], // large values: the row max keeps exp finite
    ] as [number, () => number][]) {
      const sp = rowsTensor(r, batches, lengths, 700, value);
      const { got, want } = both('sparse_softmax', { sp_input: sp });
      expect(Array.from((got as SparseTensor).indexData)).toEqual(Array.from(sp.indexData));
      close(valuesOf(got), valuesOf(want));
    }
    // Rank 2, one entry per row.
    const single = new SparseTensor(
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
    close(valuesOf(got), valuesOf(want));
    expect(valuesOf(want)).toEqual([1, 1, 1]);
  });

  it('softmax: nothing stored gives nothing; float64 and inf delegate by the declared rules', () => {
    const empty = new SparseTensor(new Float64Array(0), new Float32Array(0), [2, 3], 'float32');
    expect(valuesOf(both('sparse_softmax', { sp_input: empty }).got)).toEqual([]);
    const f64 = new SparseTensor(
      [
        [0, 0],
        [0, 1],
      ],
      [1, 2],
      [1, 2],
      'float64',
    );
    expect(gpu.runWithReport('sparse_softmax', { sp_input: f64 }).delegated).toMatch(
      /float32 \(and int32 where float32 is exact\); float64/,
    );
    const inf = new SparseTensor(
      [
        [0, 0],
        [0, 1],
      ],
      [1, Infinity],
      [1, 2],
      'float32',
    );
    const r = gpu.runWithReport('sparse_softmax', { sp_input: inf });
    expect(r.delegated).toMatch(/inf, nan/);
    expect(valuesOf(r.outputs.output)).toEqual(valuesOf(js.run('sparse_softmax', { sp_input: inf }).output));
  });

  it('sparse_tensor_to_dense: default_value ≠ 0, canonical and unordered with repeats (the last write wins)', () => {
    const r = rng(2);
    const shape = [7, 9, 11];
    const ordered = rowsTensor(r, 7, [3, 0, 11, 1, 5, 2, 9, 4, 1], 11, quarter(r));
    const { got, want } = both('sparse_tensor_to_dense', { sp_input: ordered, default_value: 2.5 });
    expect(valuesOf(got)).toEqual(valuesOf(want));
    expect((got as { shape: number[] }).shape).toEqual(shape);
    // Unordered, with repeats (each index drawn from only a few, so most repeat).
    const n = 400;
    const idx = Array.from({ length: n }, () => [r.int(3), r.int(2), r.int(5)]);
    const vals = Float32Array.from({ length: n }, () => (r.next() - 0.5) * 10);
    const repeated = new SparseTensor(idx, vals, shape, 'float32');
    const res = both('sparse_tensor_to_dense', { sp_input: repeated, default_value: -1.75, validate_indices: false });
    expect(valuesOf(res.got)).toEqual(valuesOf(res.want));
    expect(valuesOf(res.want)).toContain(-1.75);
  });

  it('sparse_to_dense: matrix, vector and scalar indices, scalar-broadcast values, repeats', () => {
    const r = rng(3);
    const n = 300;
    const matrix = Int32Array.from({ length: 2 * n }, (_, i) => (i % 2 ? r.int(40) : r.int(9)));
    const vals = Float32Array.from({ length: n }, () => (r.next() - 0.5) * 100);
    const cases: Record<string, unknown>[] = [
      {
        sparse_indices: tensor(matrix, 'int32', [n, 2]),
        output_shape: [9, 40],
        sparse_values: tensor(vals, 'float32', [n]),
        default_value: 0.5,
        validate_indices: false,
      },
      {
        sparse_indices: tensor(matrix, 'int32', [n, 2]),
        output_shape: [9, 40],
        sparse_values: tensor(Float32Array.of(-3.25), 'float32', []),
        default_value: 4,
        validate_indices: false,
      },
      {
        sparse_indices: tensor(
          BigInt64Array.from({ length: n }, () => BigInt(r.int(1000))),
          'int64',
          [n],
        ),
        output_shape: [1000],
        sparse_values: tensor(vals, 'float32', [n]),
        default_value: -2,
        validate_indices: false,
      },
      {
        sparse_indices: tensor(Int32Array.of(3), 'int32', []),
        output_shape: [5],
        sparse_values: tensor(Float32Array.of(7.5), 'float32', []),
        default_value: 1,
      },
      {
        sparse_indices: tensor(Int32Array.of(0, 2, 4), 'int32', [3, 1]),
        output_shape: [6],
        sparse_values: tensor(Float32Array.of(1, 2, 3), 'float32', [3]),
        default_value: 9,
      },
    ];
    for (const args of cases) {
      const { got, want } = both('sparse_to_dense', args);
      expect(valuesOf(got)).toEqual(valuesOf(want));
    }
  });

  it('the scatters delegate what a float texture cannot hold, by the declared rules', () => {
    const st = new SparseTensor([[0, 1]], [2], [2, 2], 'float32');
    expect(gpu.runWithReport('sparse_tensor_to_dense', { sp_input: st, default_value: 1e39 }).delegated).toMatch(
      /inf, nan/,
    );
    expect(
      gpu.runWithReport('sparse_tensor_to_dense', {
        sp_input: new SparseTensor([[0, 1]], [2], [2, 2], 'int64'),
        default_value: 1,
      }).delegated,
    ).toMatch(/int64/);
    const big = gpu.runWithReport('sparse_tensor_to_dense', {
      sp_input: new SparseTensor([[0, 2 ** 24]], [2], [1, 2 ** 24 + 1], 'float32'),
      default_value: 0,
    });
    expect(big.delegated).toMatch(/2\^24/);
    expect((big.outputs.output as { data: Float32Array }).data[2 ** 24]).toBe(2);
  });
});
