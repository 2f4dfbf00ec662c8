import { describe, expect, it } from 'vitest';
import { sparseSoftmax } from '../src/kernels/sparse_softmax.js';
import { sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

const softmax = (sp: ReturnType<typeof sparse>) => sparseSoftmax({ sp_input: sp }).output;

/** The reference: group by every dim but the last (any order), softmax in float64 with the max subtracted. */
function reference(tuples: number[][], values: number[]): number[] {
  const groups = new Map<string, number[]>();
  tuples.forEach((t, i) => {
    const key = t.slice(0, -1).join(',');
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const out = new Array<number>(values.length);
  for (const members of groups.values()) {
    const max = Math.max(...members.map((i) => values[i]));
    const sum = members.reduce((s, i) => s + Math.exp(values[i] - max), 0);
    for (const i of members) out[i] = Math.exp(values[i] - max) / sum;
  }
  return out;
}

describe('sparse_softmax kernel', () => {
  it('reproduces the seed 003 example', () => {
    const e = Math.E;
    const tuples = [
      [0, 0, 1],
      [0, 1, 0],
      [1, 0, 0],
      [1, 1, 0],
      [1, 1, 1],
    ];
    const out = softmax(sparse(tuples, [e, 1, e, e, e], [2, 2, 2], 'float64'));
    expect(rows(out)).toEqual(tuples);
    expect(out.shape).toEqual([2, 2, 2]);
    expect(list(out.values)).toEqual([1, 1, 1, 0.5, 0.5]);
  });

  it('starts a new row whenever any leading dim changes, even with the same last index', () => {
    // [0,1,2] and [1,1,2] share dims 1 and 2 but not dim 0: separate rows.
    const out = softmax(
      sparse(
        [
          [0, 1, 2],
          [1, 1, 2],
          [1, 2, 0],
          [1, 2, 1],
        ],
        [3, 4, 0, 0],
        [2, 3, 3],
        'float64',
      ),
    );
    expect(list(out.values)).toEqual([1, 1, 0.5, 0.5]);
  });

  it('stays finite for large values (the row max is subtracted)', () => {
    const out = softmax(
      sparse(
        [
          [0, 0],
          [0, 1],
          [1, 0],
        ],
        [1000, 1000, 1e308],
        [2, 2],
        'float64',
      ),
    );
    expect(list(out.values)).toEqual([0.5, 0.5, 1]);
    const f = softmax(
      sparse(
        [
          [0, 0],
          [0, 1],
        ],
        [1000, -1000],
        [1, 2],
        'float32',
      ),
    );
    expect(list(f.values)).toEqual([1, 0]);
  });

  it('computes float32 in float32 and returns a Float32Array', () => {
    const out = softmax(
      sparse(
        [
          [0, 0],
          [0, 1],
          [0, 2],
        ],
        [1, 2, 3],
        [1, 3],
        'float32',
      ),
    );
    expect(out.values).toBeInstanceOf(Float32Array);
    const e = [Math.fround(Math.exp(-2)), Math.fround(Math.exp(-1)), 1];
    const inv = Math.fround(1 / Math.fround(Math.fround(e[0] + e[1]) + e[2]));
    expect(list(out.values)).toEqual(e.map((x) => Math.fround(x * inv)));
  });

  it('propagates nan and gives nan for an inf maximum, row by row', () => {
    const out = softmax(
      sparse(
        [
          [0, 0],
          [0, 1],
          [1, 0],
          [1, 1],
          [2, 0],
        ],
        [NaN, 1, Infinity, 1, -Infinity],
        [3, 2],
        'float64',
      ),
    );
    const v = list(out.values) as number[];
    expect(v.slice(0, 4).every(Number.isNaN)).toBe(true);
    expect(Number.isNaN(v[4])).toBe(true); // -inf - -inf is nan, as in TensorFlow
  });

  it('groups by index tuples on shapes beyond 2^53 elements', () => {
    const shape = [4096, 4096, 4096, 4096, 4096, 4096];
    const top = [4095, 4095, 4095, 4095, 4095];
    // The linear offsets of the last two rows' entries would collide in a float; the tuples do not.
    const tuples = [
      [...top.slice(0, 4), 4094, 4095],
      [...top, 0],
      [...top, 4095],
    ];
    const out = softmax(sparse(tuples, [3, 7, 7], shape, 'float64'));
    expect(list(out.values)).toEqual([1, 0.5, 0.5]);
    expect(rows(out)).toEqual(tuples);
  });

  it('handles empty input and leaves the input untouched', () => {
    const empty = softmax(sparse([], [], [0, 3], 'float32'));
    expect(empty.values.length).toBe(0);
    expect(empty.shape).toEqual([0, 3]);
    const input = sparse(
      [
        [0, 0],
        [0, 1],
      ],
      [1, 1],
      [1, 2],
      'float64',
    );
    const out = softmax(input);
    expect(list(input.values)).toEqual([1, 1]);
    expect(out.indices).not.toBe(input.indices);
    expect(out.shape).not.toBe(input.shape);
  });

  it('matches a float64 reference on random ordered rank-3 input, in one linear pass', () => {
    const r = rng(3).next;
    const shape = [40, 50, 30];
    const tuples: number[][] = [];
    for (let a = 0; a < shape[0]; a++)
      for (let b = 0; b < shape[1]; b++) for (let c = 0; c < shape[2]; c++) if (r() < 0.3) tuples.push([a, b, c]);
    const values = tuples.map(() => (r() - 0.5) * 40);
    const out = softmax(sparse(tuples, values, shape, 'float64'));
    const want = reference(tuples, values);
    (list(out.values) as number[]).forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThan(1e-14));
  });

  it('runs a million entries', () => {
    const n = 1_000_000;
    const indices = new Float64Array(2 * n);
    const values = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      indices[2 * i] = Math.floor(i / 10);
      indices[2 * i + 1] = i % 10;
      values[i] = i % 7;
    }
    const out = sparseSoftmax({
      sp_input: { kind: 'sparse', indices, values, shape: [n / 10, 10], dtype: 'float32' },
    }).output;
    expect(out.values[0]).toBeCloseTo(
      Math.exp(-6) / [0, 1, 2, 3, 4, 5, 6, 0, 1, 2].reduce((s, x) => s + Math.exp(x - 6), 0),
      6,
    );
  });
});
