import { describe, expect, it } from 'vitest';
import { sparseAdd } from '../src/generated/kernels/sparse_add.js';
import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

const add = (a: SparseData | DenseData, b: SparseData | DenseData, thresh: number | bigint = 0) =>
  sparseAdd({ a, b, thresh }).output;
const asSparse = (x: SparseData | DenseData) => {
  expect(x.kind).toBe('sparse');
  return x as SparseData;
};

describe('sparse_add kernel, sparse + sparse', () => {
  // Seed 003: the logical sum [[_, 2], [.1, 0], [6, -.2]], both operands holding all five entries.
  const idx = [
    [0, 1],
    [1, 0],
    [1, 1],
    [2, 0],
    [2, 1],
  ];
  const a = sparse(idx, [1, 0.05, 1, 4, -0.1], [3, 2], 'float32');
  const b = sparse(idx, [1, 0.05, -1, 2, -0.1], [3, 2], 'float32');

  it('keeps every sum at thresh 0, including an exact zero', () => {
    const out = asSparse(add(a, b, 0));
    expect(rows(out)).toEqual(idx);
    expect(out.values).toBeInstanceOf(Float32Array);
    expect(list(out.values)).toEqual([2, 0.1, 0, 6, -0.2].map(Math.fround));
  });

  it('drops sums below thresh (0.11 keeps 3, 0.21 keeps 2)', () => {
    const t11 = asSparse(add(a, b, 0.11));
    expect(rows(t11)).toEqual([
      [0, 1],
      [2, 0],
      [2, 1],
    ]);
    expect(list(t11.values)).toEqual([2, 6, Math.fround(-0.2)]);
    const t21 = asSparse(add(a, b, 0.21));
    expect(rows(t21)).toEqual([
      [0, 1],
      [2, 0],
    ]);
    // The float32 sum is compared, not the double one: float32(0.1) + float32(0.1) is float32(0.2), above 0.2.
    const f = asSparse(
      add(sparse([[0]], [0.1], [1], 'float32'), sparse([[0]], [0.1], [1], 'float32'), Math.fround(0.2)),
    );
    expect(list(f.values)).toEqual([Math.fround(0.2)]);
    const above = asSparse(
      add(sparse([[0]], [0.1], [1], 'float32'), sparse([[0]], [0.1], [1], 'float32'), Math.fround(0.2) + 2 ** -26),
    );
    expect(above.values.length).toBe(0);
  });

  it('keeps an entry of only one operand whatever thresh is', () => {
    const out = asSparse(
      add(
        sparse(
          [
            [0, 0],
            [1, 1],
          ],
          [0.01, 5],
          [2, 3],
          'float64',
        ),
        sparse(
          [
            [0, 2],
            [1, 1],
          ],
          [-0.02, -4.999],
          [2, 3],
          'float64',
        ),
        0.5,
      ),
    );
    expect(rows(out)).toEqual([
      [0, 0],
      [0, 2],
    ]);
    expect(list(out.values)).toEqual([0.01, -0.02]);
  });

  it('drops a NaN sum even at thresh 0 (thresh <= |NaN| is false), keeps a lone NaN', () => {
    const out = asSparse(
      add(
        sparse([[0], [1]], [NaN, Infinity], [3], 'float64'),
        sparse([[0], [1], [2]], [1, -Infinity, NaN], [3], 'float64'),
      ),
    );
    expect(rows(out)).toEqual([[2]]);
    expect(list(out.values)).toEqual([NaN]);
  });

  it('merges disjoint and overlapping index sets in canonical order (rank 3)', () => {
    const x = sparse(
      [
        [0, 0, 1],
        [0, 2, 0],
        [1, 0, 0],
        [1, 1, 1],
      ],
      [1, 2, 3, 4],
      [2, 3, 2],
      'int32',
    );
    const y = sparse(
      [
        [0, 0, 0],
        [0, 2, 0],
        [1, 0, 1],
        [1, 2, 1],
      ],
      [10, 20, 30, 40],
      [2, 3, 2],
      'int32',
    );
    const out = asSparse(add(x, y));
    expect(rows(out)).toEqual([
      [0, 0, 0],
      [0, 0, 1],
      [0, 2, 0],
      [1, 0, 0],
      [1, 0, 1],
      [1, 1, 1],
      [1, 2, 1],
    ]);
    expect(list(out.values)).toEqual([10, 1, 22, 3, 30, 4, 40]);
  });

  it('wraps int32 and int64 sums, and thresholds the wrapped sum', () => {
    const i32 = asSparse(
      add(sparse([[0], [1]], [2 ** 31 - 1, -5], [2], 'int32'), sparse([[0], [1]], [2, 3], [2], 'int32'), 3),
    );
    expect(list(i32.values)).toEqual([-(2 ** 31) + 1]);
    // |INT_MIN| wraps to INT_MIN as C++'s std::abs does on TensorFlow's CPUs, so `thresh <= |sum|` fails even at 0.
    const min = asSparse(add(sparse([[0]], [2 ** 31 - 1], [1], 'int32'), sparse([[0]], [1], [1], 'int32'), 0));
    expect(min.values.length).toBe(0);
    const max = 2n ** 63n - 1n;
    const i64 = asSparse(
      add(sparse([[0], [1]], [max, 2n ** 53n], [2], 'int64'), sparse([[0], [1]], [2n, 1n], [2], 'int64'), 0n),
    );
    expect(list(i64.values)).toEqual([-(2n ** 63n) + 1n, 2n ** 53n + 1n]);
    const t64 = asSparse(add(sparse([[0]], [5n], [1], 'int64'), sparse([[0]], [-2n], [1], 'int64'), 4n));
    expect(t64.values.length).toBe(0);
  });

  it('rounds float32 sums', () => {
    const out = asSparse(add(sparse([[0]], [16777216], [1], 'float32'), sparse([[0]], [1], [1], 'float32')));
    expect(list(out.values)).toEqual([16777216]);
  });

  it('handles empty operands', () => {
    const e = sparse([], [], [2, 2], 'float32');
    const one = sparse([[1, 0]], [2.5], [2, 2], 'float32');
    expect(rows(asSparse(add(e, one)))).toEqual([[1, 0]]);
    expect(rows(asSparse(add(one, e)))).toEqual([[1, 0]]);
    expect(asSparse(add(e, e)).values.length).toBe(0);
  });

  it('matches a dense oracle on random operands', () => {
    const r = rng(3).next;
    const shape = [13, 17];
    const pick = () => {
      const cells = [...Array(13 * 17).keys()].filter(() => r() < 0.3);
      return { cells, vals: cells.map(() => Math.round(r() * 20) - 10) };
    };
    const A = pick();
    const B = pick();
    const toSparse = (p: { cells: number[]; vals: number[] }) =>
      sparse(
        p.cells.map((c) => [Math.floor(c / 17), c % 17]),
        p.vals,
        shape,
        'int32',
      );
    const out = asSparse(add(toSparse(A), toSparse(B), 3));
    const want = new Map<number, number>();
    const inA = new Map(A.cells.map((c, i) => [c, A.vals[i]]));
    const inB = new Map(B.cells.map((c, i) => [c, B.vals[i]]));
    for (const c of [...new Set([...A.cells, ...B.cells])].sort((x, y) => x - y)) {
      if (inA.has(c) && inB.has(c)) {
        const s = inA.get(c)! + inB.get(c)!;
        if (Math.abs(s) >= 3) want.set(c, s);
      } else want.set(c, (inA.get(c) ?? inB.get(c))!);
    }
    expect(rows(out).map(([i, j]) => i * 17 + j)).toEqual([...want.keys()]);
    expect(list(out.values)).toEqual([...want.values()]);
  });
});

describe('sparse_add kernel, with a dense operand', () => {
  it('adds sparse values into the dense tensor in either order, ignoring thresh', () => {
    const sp = sparse(
      [
        [0, 0],
        [1, 2],
      ],
      [1, 2],
      [2, 3],
      'float32',
    );
    const dn = dense([10, 20, 30, 40, 50, 60], [2, 3], 'float32');
    for (const out of [add(sp, dn, 100), add(dn, sp, 100)]) {
      expect(out.kind).toBe('dense');
      expect(out.shape).toEqual([2, 3]);
      expect(list((out as DenseData).data)).toEqual([11, 20, 30, 40, 50, 62]);
    }
    expect(list(dn.data)).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('adds repeated indices up, wrapping integers', () => {
    const sp = sparse([[1], [1], [0]], [2 ** 31 - 1, 1, 5], [2], 'int32');
    const out = add(dense([1, 0], [2], 'int32'), sp) as DenseData;
    expect(out.data).toBeInstanceOf(Int32Array);
    expect(list(out.data)).toEqual([6, -(2 ** 31)]);
    const big = add(sparse([[1]], [2n ** 53n], [2], 'int64'), dense([7n, 1n], [2], 'int64')) as DenseData;
    expect(list(big.data)).toEqual([7n, 2n ** 53n + 1n]);
  });

  it('rounds each float32 partial sum', () => {
    const out = add(sparse([[0], [0]], [1, 1], [1], 'float32'), dense([16777216], [1], 'float32')) as DenseData;
    expect(list(out.data)).toEqual([16777216]);
    const f64 = add(sparse([[0], [0]], [1, 1], [1], 'float64'), dense([16777216], [1], 'float64')) as DenseData;
    expect(list(f64.data)).toEqual([16777218]);
  });

  it('works for rank 0 and for empty sparse operands', () => {
    const s0 = add(sparse([[]], [2.5], [], 'float64'), dense([1], [], 'float64')) as DenseData;
    expect(s0.shape).toEqual([]);
    expect(list(s0.data)).toEqual([3.5]);
    const e = add(dense([1, 2], [2], 'int32'), sparse([], [], [2], 'int32')) as DenseData;
    expect(list(e.data)).toEqual([1, 2]);
  });
});
