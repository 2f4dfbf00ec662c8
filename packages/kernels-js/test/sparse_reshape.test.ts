import { describe, expect, it } from 'vitest';
import { sparseReshape } from '../src/kernels/sparse_reshape.js';
import type { DType, SparseData } from '@sparse/kernel-abi';
import { sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

const reshape = (sp_input: SparseData, shape: number[]) => sparseReshape({ sp_input, shape }).output;

/** The reference: BigInt row-major position, always. */
function moved(t: number[], from: number[], to: number[]): number[] {
  let pos = 0n;
  t.forEach((x, d) => {
    pos = pos * BigInt(from[d]) + BigInt(x);
  });
  const out = new Array<number>(to.length);
  for (let d = to.length - 1; d >= 0; d--) {
    out[d] = Number(pos % BigInt(to[d]));
    pos /= BigInt(to[d]);
  }
  return out;
}

describe('sparse_reshape kernel', () => {
  it('reshapes the seed 003 example to [9, -1]', () => {
    const sp = sparse(
      [
        [0, 0, 0],
        [0, 0, 1],
        [0, 1, 0],
        [1, 0, 0],
        [1, 2, 3],
      ],
      ['a', 'b', 'c', 'd', 'e'],
      [2, 3, 6],
      'string',
    );
    const out = reshape(sp, [9, -1]);
    expect(out.shape).toEqual([9, 4]);
    expect(rows(out)).toEqual([
      [0, 0],
      [0, 1],
      [1, 2],
      [4, 2],
      [8, 1],
    ]);
    expect(out.values).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('matches a BigInt reference on random shapes, ranks 0 to 4, every dtype, order kept', () => {
    const r = rng(12).next;
    const dtypes: DType[] = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'];
    const shapesOf12 = [[12], [3, 4], [2, 6], [2, 2, 3], [1, 12, 1], [2, 3, 2, 1], [4, 3]];
    for (let trial = 0; trial < 60; trial++) {
      const from = shapesOf12[trial % shapesOf12.length];
      const to = [...shapesOf12[Math.floor(r() * shapesOf12.length)]];
      if (r() < 0.5) to[Math.floor(r() * to.length)] = -1;
      const tuples = Array.from({ length: Math.floor(r() * 8) }, () => from.map((d) => Math.floor(r() * d)));
      const dtype = dtypes[trial % dtypes.length];
      const ids = tuples.map((_, i) => (dtype === 'bool' ? i % 2 === 1 : dtype === 'string' ? `${i}` : i));
      const out = reshape(sparse(tuples, ids, from, dtype), to);
      const resolved = to.map((d) => (d === -1 ? 12 / to.filter((x) => x !== -1).reduce((a, b) => a * b, 1) : d));
      expect(out.shape).toEqual(resolved);
      expect(rows(out)).toEqual(tuples.map((t) => moved(t, from, resolved)));
      const stored = (i: number) => (dtype === 'bool' ? (ids[i] ? 1 : 0) : dtype === 'int64' ? BigInt(i) : ids[i]);
      expect(list(out.values)).toEqual(tuples.map((_, i) => stored(i)));
    }
    const scalar = reshape(sparse([[]], [5], [], 'int32'), [1, -1, 1]);
    expect(rows(scalar)).toEqual([[0, 0, 0]]);
    const back = reshape(sparse([[0, 0]], [5], [1, 1], 'int32'), []);
    expect(back.shape).toEqual([]);
    expect(list(back.values)).toEqual([5]);
  });

  it('is exact on both sides of 2^53 elements', () => {
    for (const from of [
      [2 ** 26, 2 ** 27 - 1],
      [2 ** 26, 2 ** 27],
      [2 ** 27, 2 ** 27],
      [2 ** 27 + 1, 2 ** 27 - 1],
    ]) {
      const last = [from[0] - 1, from[1] - 1];
      const tuples = [last, [last[0], last[1] - 1], [last[0] - 1, last[1]], [0, 1], [1, 3]];
      const to = [from[1], from[0]];
      const out = reshape(sparse(tuples, [0, 1, 2, 3, 4], from, 'float64'), to);
      expect(rows(out)).toEqual(tuples.map((t) => moved(t, from, to)));
      // The last two positions of the whole tensor stay distinct (a float path would merge them past 2^53).
      expect(rows(out)[0]).toEqual([from[1] - 1, from[0] - 1]);
      expect(rows(out)[1]).toEqual([from[1] - 1, from[0] - 2]);
    }
  });

  it('reshapes [4096]*6 (2^72 elements) exactly', () => {
    const shape = [4096, 4096, 4096, 4096, 4096, 4096];
    const tuples = [
      [4095, 4095, 4095, 4095, 4095, 4095],
      [4095, 4095, 4095, 4095, 4095, 4094],
      [1, 0, 0, 0, 0, 0],
      [0, 0, 0, 1, 0, 0],
      [17, 3, 4095, 0, 9, 1],
    ];
    const to = [2 ** 36, 2 ** 24, 2 ** 12];
    const out = reshape(sparse(tuples, [1, 2, 3, 4, 5], shape, 'int64'), [2 ** 36, -1, 2 ** 12]);
    expect(out.shape).toEqual(to);
    expect(rows(out)).toEqual(tuples.map((t) => moved(t, shape, to)));
    expect(rows(out)[0]).toEqual([2 ** 36 - 1, 2 ** 24 - 1, 4095]);
    expect(rows(out)[1]).toEqual([2 ** 36 - 1, 2 ** 24 - 1, 4094]);
    expect(list(out.values)).toEqual([1n, 2n, 3n, 4n, 5n]);
  });

  it('handles empty input and zero-sized shapes', () => {
    const out = reshape(sparse([], [], [0, 4], 'float32'), [-1, 2]);
    expect(out.shape).toEqual([0, 2]);
    expect(out.indices.length).toBe(0);
    expect(reshape(sparse([], [], [3, 4], 'string'), [2, 6]).shape).toEqual([2, 6]);
  });

  it('reshapes 200k entries of a huge shape', () => {
    const r = rng(2).next;
    const shape = [4096, 4096, 4096, 4096, 4096, 4096];
    const tuples = Array.from({ length: 200_000 }, () => shape.map((d) => Math.floor(r() * d)));
    const sp = sparse(
      tuples,
      tuples.map((_, i) => i),
      shape,
      'int32',
    );
    const out = reshape(sp, [2 ** 24, 2 ** 24, 2 ** 24]);
    expect(rows(out).slice(0, 100)).toEqual(
      tuples.slice(0, 100).map((t) => moved(t, shape, [2 ** 24, 2 ** 24, 2 ** 24])),
    );
  });
});
