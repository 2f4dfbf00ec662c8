import { describe, expect, it } from 'vitest';
import { sparseConcat } from '../src/kernels/sparse_concat.js';
import type { DType, SparseData } from '@sparse/kernel-abi';
import { sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

const concat = (axis: number, sp_inputs: SparseData[], expand_nonconcat_dim = false) =>
  sparseConcat({ axis, sp_inputs, expand_nonconcat_dim }).output;

/** The reference: every entry shifted along the axis, then a stable sort of the tuples. */
function reference(
  axis: number,
  inputs: { tuples: number[][]; shape: number[] }[],
): { tuples: number[][]; from: [number, number][] } {
  const all: { t: number[]; from: [number, number] }[] = [];
  let offset = 0;
  inputs.forEach((inp, k) => {
    inp.tuples.forEach((t, i) => all.push({ t: t.map((x, d) => (d === axis ? x + offset : x)), from: [k, i] }));
    offset += inp.shape[axis];
  });
  all.sort((x, y) => {
    for (let d = 0; d < x.t.length; d++) if (x.t[d] !== y.t[d]) return x.t[d] - y.t[d];
    return 0; // Array.prototype.sort is stable: equal tuples keep input order
  });
  return { tuples: all.map((e) => e.t), from: all.map((e) => e.from) };
}

describe('sparse_concat kernel', () => {
  it('concatenates the seed 003 example along axis 1', () => {
    const out = concat(1, [
      sparse(
        [
          [0, 2],
          [1, 0],
          [1, 1],
        ],
        ['a', 'b', 'c'],
        [2, 3],
        'string',
      ),
      sparse(
        [
          [0, 1],
          [0, 2],
        ],
        ['d', 'e'],
        [2, 4],
        'string',
      ),
    ]);
    expect(rows(out)).toEqual([
      [0, 2],
      [0, 4],
      [0, 5],
      [1, 0],
      [1, 1],
    ]);
    expect(out.values).toEqual(['a', 'd', 'e', 'b', 'c']);
    expect(out.shape).toEqual([2, 7]);
  });

  it('takes the largest non-concat dims with expand_nonconcat_dim (seed 003)', () => {
    const a = sparse(
      [
        [0, 2],
        [1, 0],
        [2, 1],
      ],
      ['a', 'b', 'c'],
      [3, 3],
      'string',
    );
    const b = sparse(
      [
        [0, 1],
        [0, 2],
      ],
      ['d', 'e'],
      [2, 4],
      'string',
    );
    const out = concat(1, [a, b], true);
    expect(out.shape).toEqual([3, 7]);
    expect(rows(out)).toEqual([
      [0, 2],
      [0, 4],
      [0, 5],
      [1, 0],
      [2, 1],
    ]);
    expect(out.values).toEqual(['a', 'd', 'e', 'b', 'c']);
    expect(concat(-1, [b, a], true).shape).toEqual([3, 7]);
    expect(concat(0, [b, a], true).shape).toEqual([5, 4]);
  });

  it('matches a shift-then-stable-sort reference on random rank-3 input, every axis, every dtype', () => {
    const r = rng(3).next;
    const dtypes: DType[] = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'];
    for (let trial = 0; trial < 60; trial++) {
      const axis = trial % 3;
      const base = [1 + Math.floor(r() * 4), 1 + Math.floor(r() * 4), 1 + Math.floor(r() * 4)];
      const inputs = Array.from({ length: 1 + Math.floor(r() * 4) }, () => {
        const shape = base.map((d, j) => (j === axis ? Math.floor(r() * 4) : d));
        const n = shape.includes(0) ? 0 : Math.floor(r() * 6);
        // Any order, as TensorFlow's kernel sorts each input; no repeats.
        const seen = new Set<string>();
        const tuples: number[][] = [];
        for (let i = 0; i < n; i++) {
          const t = shape.map((d) => Math.floor(r() * d));
          if (!seen.has(t.join())) {
            tuples.push(t);
            seen.add(t.join());
          }
        }
        return { tuples, shape };
      });
      const want = reference(axis, inputs);
      const dtype = dtypes[trial % dtypes.length];
      const value = (k: number, i: number) =>
        dtype === 'bool' ? (k + i) % 2 === 0 : dtype === 'string' ? `${k}:${i}` : k * 100 + i;
      const data = inputs.map((inp, k) =>
        sparse(
          inp.tuples,
          inp.tuples.map((_, i) => value(k, i)),
          inp.shape,
          dtype,
        ),
      );
      const out = concat(axis - (trial % 2 === 0 ? 0 : 3), data);
      if (inputs.length === 1) {
        expect(rows(out)).toEqual(inputs[0].tuples); // one input: unchanged, as tf.sparse.concat returns it
        continue;
      }
      expect(rows(out)).toEqual(want.tuples);
      const stored = (v: unknown) => (dtype === 'bool' ? (v ? 1 : 0) : dtype === 'int64' ? BigInt(v as number) : v);
      expect(list(out.values)).toEqual(want.from.map(([k, i]) => stored(value(k, i))));
      expect(out.shape).toEqual(
        base.map((d, j) => (j === axis ? inputs.reduce((s, inp) => s + inp.shape[axis], 0) : d)),
      );
    }
  });

  it('orders shapes of more than 2^53 elements by tuple, not by an overflowing offset', () => {
    const shape = [4096, 4096, 4096, 4096, 4096, 4096];
    const top = [4095, 4095, 4095, 4095, 4095];
    const a = sparse(
      [
        [...top, 4094],
        [...top, 4095],
      ],
      [1, 2],
      shape,
      'int64',
    );
    const b = sparse(
      [
        [...top.slice(0, 4), 4094, 0],
        [...top, 0],
        [...top, 1],
      ],
      [3, 4, 5],
      [...shape.slice(0, 5), 2],
      'int64',
    );
    const out = concat(5, [a, b]);
    expect(out.shape).toEqual([...shape.slice(0, 5), 4098]);
    // Flat offsets of the last four rows differ by 1 near 2^72: as floats they would all be equal.
    expect(rows(out)).toEqual([
      [...top.slice(0, 4), 4094, 4096],
      [...top, 4094],
      [...top, 4095],
      [...top, 4096],
      [...top, 4097],
    ]);
    expect(list(out.values)).toEqual([3n, 1n, 2n, 4n, 5n]);
  });

  it('handles empty inputs, an empty result and a single input without aliasing it', () => {
    const out = concat(1, [
      sparse([], [], [2, 0], 'float32'),
      sparse([[1, 2]], [7], [2, 3], 'float32'),
      sparse([], [], [2, 5], 'float32'),
    ]);
    expect(out.shape).toEqual([2, 8]);
    expect(rows(out)).toEqual([[1, 2]]);
    const none = concat(0, [sparse([], [], [0, 3], 'string'), sparse([], [], [2, 3], 'string')]);
    expect(none.values).toEqual([]);
    expect(none.indices.length).toBe(0);
    expect(none.shape).toEqual([2, 3]);
    const one = sparse(
      [
        [1, 0],
        [0, 1],
      ],
      [1, 2],
      [2, 2],
      'int32',
    );
    const same = concat(1, [one]);
    expect(rows(same)).toEqual([
      [1, 0],
      [0, 1],
    ]);
    same.indices[0] = 9;
    expect(one.indices[0]).toBe(1);
  });

  it('concatenates 200k entries along a middle axis', () => {
    const r = rng(5).next;
    const make = (n: number, shape: number[]) => {
      const t = Array.from({ length: n }, () => shape.map((d) => Math.floor(r() * d)));
      t.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
      return sparse(
        t,
        t.map((_, i) => i),
        shape,
        'float64',
      );
    };
    const a = make(100_000, [1000, 50, 1000]);
    const b = make(100_000, [1000, 70, 1000]);
    const out = concat(1, [a, b]);
    expect(out.shape).toEqual([1000, 120, 1000]);
    for (let i = 1; i < out.values.length; i++) {
      const p = (i - 1) * 3;
      const q = i * 3;
      const c =
        out.indices[p] - out.indices[q] ||
        out.indices[p + 1] - out.indices[q + 1] ||
        out.indices[p + 2] - out.indices[q + 2];
      if (c > 0) throw new Error(`out of order at ${i}`);
    }
  });
});
