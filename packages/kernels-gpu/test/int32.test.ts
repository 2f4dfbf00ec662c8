import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SparseData } from '@sparse/kernel-abi';
import { dataDiff } from '@sparse/test-kit/data-diff';
import { dense as denseData, scalar, sparse } from '@sparse/test-kit/plain-data';
import { createGpuBackend, REASONS } from '../src/index.js';
import { runGpu, runJs } from './against-js.js';

const E = 2 ** 24;
type Args = Record<string, unknown>;

const sp = (indices: number[][], values: number[], shape: number[]) => sparse(indices, values, shape, 'int32');
const dense = (values: number[], shape: number[]) => denseData(values, shape, 'int32');
const int32 = (v: number) => scalar('int32', v);

describe('int32 on the gpu backend: exact where float32 is, delegated (and declared) where not', async () => {
  const backend = await createGpuBackend();

  /**
   * Runs op on the GPU backend and on the JS kernels; the outputs must be identical, storage class included (the
   * GPU's int32 results must come back as an Int32Array). Returns why it was delegated.
   */
  const run = (op: string, args: Args): string | undefined => {
    const got = runGpu(backend, op, args);
    const want = runJs(op, args);
    expect(Object.keys(got.outputs).sort(), op).toEqual(Object.keys(want).sort());
    for (const k of Object.keys(want)) expect(dataDiff(got.outputs[k], want[k], k), op).toBeUndefined();
    return got.delegated;
  };

  const st = sp(
    [
      [0, 0],
      [0, 2],
      [1, 1],
      [2, 0],
    ],
    [3, -2, 7, 4096],
    [3, 3],
  );
  const other = sp(
    [
      [0, 0],
      [1, 2],
      [2, 0],
    ],
    [5, -1, -4096],
    [3, 3],
  );

  it('runs the int32 family ops and the matmul on the GPU, equal to the JS kernels exactly', () => {
    const cases: [string, Args][] = [
      ['sparse_abs', { sp_input: st }],
      ['sparse_neg', { sp_input: st }],
      ['sparse_sign', { sp_input: st }],
      ['sparse_square', { sp_input: st }],
      ['sparse_dense_cwise_mul', { sp_input: st, dense: dense([2, 5, -1], [3, 1]) }],
      ['sparse_dense_cwise_add', { sp_input: st, dense: dense([1, -2, 3], [3]) }],
      ['sparse_add', { a: st, b: other, thresh: int32(0) }],
      // thresh 5 drops the sums below it in magnitude (3 + 5 = 8 stays, 4096 − 4096 = 0 goes).
      ['sparse_add', { a: st, b: other, thresh: int32(5) }],
      ['sparse_add', { a: st, b: dense([-4, -3, -2, -1, 0, 1, 2, 3, 4], [3, 3]), thresh: int32(0) }],
      ['sparse_maximum', { sp_a: st, sp_b: other }],
      ['sparse_minimum', { sp_a: st, sp_b: other }],
      ['sparse_reduce_sum', { sp_input: st, axis: [1], keepdims: false }],
      ['sparse_reduce_sum', { sp_input: st, axis: null, keepdims: false }],
      ['sparse_reduce_sum_sparse', { sp_input: st, axis: [0], keepdims: false }],
      ['sparse_reduce_max', { sp_input: st, axis: [0], keepdims: true }],
      ['sparse_reduce_min_sparse', { sp_input: st, axis: [1], keepdims: false }],
      ['sparse_reduce_prod', { sp_input: st, axis: [1], keepdims: false }],
      [
        'sparse_tensor_dense_matmul',
        {
          sp_a: st,
          b: dense(
            Array.from({ length: 12 }, (_, i) => i - 5),
            [3, 4],
          ),
          adjoint_a: false,
          adjoint_b: false,
        },
      ],
      [
        'sparse_tensor_dense_matmul',
        {
          sp_a: st,
          b: dense(
            Array.from({ length: 12 }, (_, i) => 7 - i),
            [4, 3],
          ),
          adjoint_a: true,
          adjoint_b: true,
        },
      ],
      [
        'sparse_tensor_dense_matmul',
        { sp_a: dense([1, -2, 3, 0, 5, 6], [2, 3]), b: st, adjoint_a: false, adjoint_b: false },
      ],
    ];
    for (const [op, args] of cases) expect(run(op, args), op).toBeUndefined();
  });

  it('delegates int32 just past the bound, saying so, with the JS results (which wrap as int32 does)', () => {
    // [op, args within the bound, args just past it, args far past it (the JS kernels wrap)]
    const pairs: [string, (v: number) => Args, number, number, number][] = [
      // every value must itself be exact
      ['sparse_abs', (v) => ({ sp_input: sp([[1]], [-v], [2]) }), E, E + 1, 2 ** 31 - 1],
      [
        'sparse_reduce_max',
        (v) => ({ sp_input: sp([[0], [1]], [-v, 3], [2]), axis: null, keepdims: false }),
        E,
        E + 1,
        2 ** 31,
      ],
      // x·x ≤ 2^24 ⇔ |x| ≤ 4096
      ['sparse_square', (v) => ({ sp_input: sp([[0], [2]], [v, -3], [3]) }), 4096, 4097, 50_000],
      [
        'sparse_dense_cwise_mul',
        (v) => ({ sp_input: sp([[0], [1]], [v, 2], [2]), dense: dense([4096, 5], [2]) }),
        4096,
        4097,
        2 ** 20,
      ],
      [
        'sparse_add',
        (v) => ({ a: sp([[0]], [v], [2]), b: sp([[0], [1]], [2 ** 23, 1], [2]), thresh: int32(0) }),
        2 ** 23,
        2 ** 23 + 1,
        2 ** 31 - 1,
      ],
      // a sum over the longest group: 2^23 + v
      [
        'sparse_reduce_sum',
        (v) => ({
          sp_input: sp(
            [
              [0, 0],
              [0, 1],
              [1, 0],
            ],
            [2 ** 23, v, 1],
            [2, 2],
          ),
          axis: [1],
          keepdims: false,
        }),
        2 ** 23,
        2 ** 23 + 1,
        2 ** 31 - 1,
      ],
      [
        'sparse_reduce_prod',
        (v) => ({ sp_input: sp([[0], [1]], [4096, v], [2]), axis: null, keepdims: false }),
        4096,
        4097,
        2 ** 20,
      ],
      // Σ|a| over a row (2048 + 2048) · max|b|
      [
        'sparse_tensor_dense_matmul',
        (v) => ({
          sp_a: sp(
            [
              [0, 0],
              [0, 1],
            ],
            [2048, -2048],
            [1, 2],
          ),
          b: dense([v, 1, -3, 2], [2, 2]),
          adjoint_a: false,
          adjoint_b: false,
        }),
        4096,
        4097,
        2 ** 20,
      ],
    ];
    for (const [op, args, within, past, far] of pairs) {
      expect(run(op, args(within)), `${op} at ${within}`).toBeUndefined();
      expect(run(op, args(past)), `${op} at ${past}`).toBe(REASONS.int32Range);
      expect(run(op, args(far)), `${op} at ${far}`).toBe(REASONS.int32Range);
    }
    // The far cases really wrap on the JS kernels: 50000² mod 2^32, as int32.
    const wrapped = runJs('sparse_square', { sp_input: sp([[0]], [50_000], [1]) }).output as SparseData;
    expect(Array.from(wrapped.values as Int32Array)).toEqual([(50_000 * 50_000) | 0]);
  });

  it('runs the int32 to-dense scatters on the GPU within 2^24, and delegates past it', () => {
    const repeated = sp(
      [
        [2, 1],
        [0, 0],
        [2, 1],
        [1, 2],
      ],
      [-E, 9, E, 1],
      [3, 3],
    );
    expect(
      run('sparse_tensor_to_dense', { sp_input: repeated, default_value: int32(-7), validate_indices: false }),
    ).toBeUndefined();
    expect(run('sparse_tensor_to_dense', { sp_input: st, default_value: int32(E + 1), validate_indices: true })).toBe(
      REASONS.int32Range,
    );
    expect(
      run('sparse_tensor_to_dense', {
        sp_input: sp([[1, 1]], [-E - 1], [3, 3]),
        default_value: int32(0),
        validate_indices: true,
      }),
    ).toBe(REASONS.int32Range);
    const indices = dense([0, 0, 0, 2, 1, 1], [3, 2]);
    expect(
      run('sparse_to_dense', {
        sparse_indices: indices,
        output_shape: [2, 3],
        sparse_values: dense([4, -5, 6], [3]),
        default_value: int32(1),
        validate_indices: true,
      }),
    ).toBeUndefined();
    expect(
      run('sparse_to_dense', {
        sparse_indices: indices,
        output_shape: [2, 3],
        sparse_values: dense([E], []),
        default_value: int32(0),
        validate_indices: false,
      }),
    ).toBeUndefined();
    expect(
      run('sparse_to_dense', {
        sparse_indices: indices,
        output_shape: [2, 3],
        sparse_values: dense([2 ** 30, 1, 2], [3]),
        default_value: int32(0),
        validate_indices: true,
      }),
    ).toBe(REASONS.int32Range);
  });

  it('delegates int32 division and pow, which are not float arithmetic, saying which', () => {
    const d = dense([2, -3, 5], [3, 1]);
    expect(run('sparse_dense_cwise_div', { sp_input: st, dense: d })).toBe(
      REASONS.int32NotArithmetic('division (it truncates toward zero)'),
    );
    expect(run('sparse_dense_cwise_pow', { sp_input: st, dense: dense([2, 3, 1], [3, 1]) })).toMatch(
      /^int32 pow .* not float arithmetic/,
    );
  });

  it('a scalar float32 cannot hold as given keeps the call off the GPU', () => {
    // thresh 16777217 reads as 2^24 in float32: it would keep a sum of 2^24 that the JS kernel drops.
    const a = sp([[0]], [2 ** 23], [1]);
    expect(run('sparse_add', { a, b: a, thresh: int32(E + 1) })).toBe(REASONS.int32Range);
    expect(run('sparse_add', { a, b: a, thresh: int32(E) })).toBeUndefined();
  });

  it('property: random int32 calls give the JS results exactly, on the GPU or declared delegated', () => {
    const value = fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: -60, max: 60 }) },
      { weight: 1, arbitrary: fc.integer({ min: -(2 ** 25), max: 2 ** 25 }) },
      { weight: 1, arbitrary: fc.constantFrom(4096, -4096, 4097, 2 ** 23, E, -E, E + 1, 2 ** 31 - 1, -(2 ** 31)) },
    );
    // A 2-D int32 SparseTensor: each position stored or not, in canonical order.
    const sparseOf = (rows: number, cols: number) =>
      fc
        .array(fc.option(value, { nil: undefined, freq: 2 }), { minLength: rows * cols, maxLength: rows * cols })
        .map((cells) => {
          const idx: number[][] = [];
          const vals: number[] = [];
          cells.forEach((v, p) => v !== undefined && (idx.push([Math.floor(p / cols), p % cols]), vals.push(v)));
          return sp(idx, vals, [rows, cols]);
        });
    const denseOf = (rows: number, cols: number) =>
      fc.array(value, { minLength: rows * cols, maxLength: rows * cols }).map((v) => dense(v, [rows, cols]));
    const call = fc
      .record({
        rows: fc.integer({ min: 1, max: 5 }),
        cols: fc.integer({ min: 1, max: 5 }),
        k: fc.integer({ min: 1, max: 4 }),
      })
      .chain(({ rows, cols, k }) =>
        fc.oneof(
          fc
            .tuple(fc.constantFrom('sparse_abs', 'sparse_neg', 'sparse_sign', 'sparse_square'), sparseOf(rows, cols))
            .map(([op, s]): [string, Args] => [op, { sp_input: s }]),
          fc
            .tuple(
              fc.constantFrom(
                'sparse_reduce_sum',
                'sparse_reduce_max',
                'sparse_reduce_min_sparse',
                'sparse_reduce_prod',
              ),
              sparseOf(rows, cols),
              fc.constantFrom(null, [0], [1], [0, 1]),
            )
            .map(([op, s, axis]): [string, Args] => [op, { sp_input: s, axis, keepdims: false }]),
          fc
            .tuple(fc.constantFrom('sparse_maximum', 'sparse_minimum'), sparseOf(rows, cols), sparseOf(rows, cols))
            .map(([op, a, b]): [string, Args] => [op, { sp_a: a, sp_b: b }]),
          fc
            .tuple(sparseOf(rows, cols), sparseOf(rows, cols), fc.integer({ min: 0, max: 100 }))
            .map(([a, b, thresh]): [string, Args] => ['sparse_add', { a, b, thresh: int32(thresh) }]),
          fc
            .tuple(sparseOf(rows, cols), denseOf(rows, cols))
            .map(([a, b]): [string, Args] => ['sparse_add', { a, b, thresh: int32(0) }]),
          fc
            .tuple(
              fc.constantFrom('sparse_dense_cwise_mul', 'sparse_dense_cwise_add'),
              sparseOf(rows, cols),
              denseOf(rows, cols),
            )
            .map(([op, s, d]): [string, Args] => [op, { sp_input: s, dense: d }]),
          fc
            .tuple(sparseOf(rows, cols), denseOf(cols, k))
            .map(([a, b]): [string, Args] => [
              'sparse_tensor_dense_matmul',
              { sp_a: a, b, adjoint_a: false, adjoint_b: false },
            ]),
        ),
      );
    const seen = { gpu: 0, delegated: 0 };
    fc.assert(
      fc.property(call, ([op, args]) => {
        const why = run(op, args);
        if (why === undefined) seen.gpu++;
        else {
          expect(why).toBe(REASONS.int32Range);
          seen.delegated++;
        }
      }),
      { numRuns: 300 },
    );
    // Both routes were taken: the test can tell a GPU that computes from one that delegates everything.
    expect(seen.gpu).toBeGreaterThan(50);
    expect(seen.delegated).toBeGreaterThan(10);
  });
});
