import { beforeAll, describe, expect, it } from 'vitest';
import type { DType, SparseData } from '@sparse/kernel-abi';
import { dense, scalar, sparse } from '@sparse/test-kit/plain-data';
import { rng as seeded } from '@sparse/test-kit/seeded-random';
import { createWasmBackend, type WasmBackend } from '../dist/index.js';
import { againstJs, runWasm } from './against-js.js';

// The ops that rewrite, select or move index rows (reshape, slice, split, fill_empty_rows, to_indicator, retain,
// expand_dims, reset_shape, merge) in wasm against the JS reference kernels: random inputs (unordered where the op takes
// them), a large one each (>= 100k entries), and which calls run in wasm and which are delegated.

type Args = Record<string, unknown>;
const NUMERIC: DType[] = ['float32', 'float64', 'int32', 'int64'];

let wasm: WasmBackend;
beforeAll(async () => {
  wasm = await createWasmBackend();
});

/** The shared seeded generator, with an inclusive int range and a pick. */
function rng(seed: number) {
  const { next } = seeded(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)); // inclusive
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)];
  return { next, int, pick };
}
type Rng = ReturnType<typeof rng>;

function randomValues(r: Rng, dtype: DType, n: number): SparseData['values'] {
  switch (dtype) {
    case 'float32':
      return Float32Array.from({ length: n }, () => (r.next() - 0.5) * 1000);
    case 'float64':
      return Float64Array.from({ length: n }, () => (r.next() - 0.5) * 1e6);
    case 'int32':
      return Int32Array.from({ length: n }, () => r.int(-(2 ** 31), 2 ** 31 - 1));
    case 'int64':
      return BigInt64Array.from({ length: n }, () => BigInt(r.int(-(2 ** 40), 2 ** 40)) * 1000003n);
    case 'bool':
      return Uint8Array.from({ length: n }, () => r.int(0, 1));
    case 'string':
      return Array.from({ length: n }, () => `s${r.int(0, 99)}`);
  }
}

/** n entries at uniform random positions of `shape` (so unordered, repeats possible). */
function randomSparse(r: Rng, shape: number[], n: number, dtype: DType, lastBound?: number): SparseData {
  const rank = shape.length;
  const indices = new Float64Array(n * rank);
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < rank; d++)
      indices[i * rank + d] = r.int(0, (d === rank - 1 && lastBound !== undefined ? lastBound : shape[d]) - 1);
  }
  return sparse(indices, randomValues(r, dtype, n), shape, dtype);
}

function randomShape(r: Rng, rank: number, maxDim: number): number[] {
  return Array.from({ length: rank }, () => r.int(1, maxDim));
}

/** A bool mask of n entries as a dense argument. */
const mask = (bits: ArrayLike<number | boolean>) => dense(bits, [bits.length], 'bool');

/** Runs op on wasm and on the JS kernels; the outputs must be identical. Returns the wasm delegation reason. */
function check(op: string, args: Args): string | undefined {
  const { diff, delegated } = againstJs(wasm, op, args);
  if (diff) throw new Error(`${op}: wasm and js differ at ${diff}`);
  return delegated;
}

describe('index-row ops: wasm equals js', () => {
  it('sparse_reshape', () => {
    const r = rng(1);
    for (let t = 0; t < 300; t++) {
      const shape = randomShape(r, r.int(0, 4), 6);
      const size = shape.reduce((x, y) => x * y, 1);
      // a target: the size's factors in random dims, sometimes with a -1
      const target: number[] = [];
      let rest = size;
      while (rest > 1 && target.length < 4) {
        const divs = Array.from({ length: rest }, (_, i) => i + 1).filter((d) => rest % d === 0);
        const f = r.pick(divs);
        target.push(f);
        rest /= f;
      }
      if (rest > 1) target.push(rest);
      if (r.next() < 0.3) target.push(1);
      if (target.length > 0 && r.next() < 0.4) target[r.int(0, target.length - 1)] = -1;
      const dtype = r.pick([...NUMERIC, 'bool', 'string'] as DType[]);
      const sp = randomSparse(r, shape, shape.length === 0 ? r.int(0, 1) : r.int(0, 30), dtype);
      expect(check('sparse_reshape', { sp_input: sp, shape: target })).toBeUndefined();
    }
  });

  it('sparse_reshape: large, past 2^32 dense elements (u64 positions), and past 2^63 (delegated)', () => {
    const r = rng(2);
    expect(
      check('sparse_reshape', { sp_input: randomSparse(r, [1000, 1000], 200_000, 'float32'), shape: [100, -1, 100] }),
    ).toBeUndefined();
    expect(
      check('sparse_reshape', {
        sp_input: randomSparse(r, [100_000, 100_000], 100_000, 'int64'),
        shape: [10_000, 1_000_000],
      }),
    ).toBeUndefined();
    expect(
      check('sparse_reshape', {
        sp_input: randomSparse(r, [3, 2 ** 31 - 1, 7], 1000, 'float64'),
        shape: [7, 2 ** 31 - 1, 3],
      }),
    ).toBeUndefined();
    const huge = randomSparse(r, [2 ** 30, 2 ** 30, 2 ** 30], 100, 'float32');
    expect(check('sparse_reshape', { sp_input: huge, shape: [2 ** 30, 2 ** 30, 2 ** 15, 2 ** 15] })).toMatch(/2\^63/);
    expect(
      check('sparse_reshape', { sp_input: randomSparse(r, [2 ** 20, 2 ** 20], 100, 'float32'), shape: [2 ** 40] }),
    ).toMatch(/i32/);
  });

  it('sparse_slice', () => {
    const r = rng(3);
    for (let t = 0; t < 300; t++) {
      const shape = randomShape(r, r.int(0, 4), 8);
      const start = shape.map((d) => r.pick([0, r.int(0, d + 2), 2 ** 40]));
      const size = shape.map((d) => r.pick([0, r.int(0, d + 2), 2 ** 52]));
      const dtype = r.pick(NUMERIC);
      expect(
        check('sparse_slice', { sp_input: randomSparse(r, shape, r.int(0, 40), dtype), start, size }),
      ).toBeUndefined();
    }
    const big = randomSparse(r, [2000, 3000], 1_000_00 * 2, 'float64');
    expect(check('sparse_slice', { sp_input: big, start: [100, 500], size: [1500, 2000] })).toBeUndefined();
  });

  it('sparse_split', () => {
    const r = rng(4);
    for (let t = 0; t < 300; t++) {
      const shape = randomShape(r, r.int(1, 4), 9);
      const rank = shape.length;
      const axis = r.int(-rank, rank - 1);
      const ax = axis < 0 ? axis + rank : axis;
      const num_split = r.int(1, shape[ax]);
      const dtype = r.pick(NUMERIC);
      expect(
        check('sparse_split', { axis, num_split, sp_input: randomSparse(r, shape, r.int(0, 40), dtype) }),
      ).toBeUndefined();
    }
    const big = randomSparse(r, [100_000, 50], 300_000, 'int32');
    expect(check('sparse_split', { axis: 0, num_split: 7, sp_input: big })).toBeUndefined();
    expect(check('sparse_split', { axis: -1, num_split: 50, sp_input: big })).toBeUndefined();
  });

  it('sparse_fill_empty_rows', () => {
    const r = rng(5);
    for (let t = 0; t < 300; t++) {
      const shape = randomShape(r, r.int(1, 4), 9);
      const dtype = r.pick(NUMERIC);
      const default_value = scalar(
        dtype,
        dtype === 'int64'
          ? BigInt(r.int(-5, 5))
          : dtype === 'int32'
            ? r.pick([0, -7, 2 ** 31 - 1])
            : r.pick([0, -1.5, 7, 1e300]),
      );
      expect(
        check('sparse_fill_empty_rows', { sp_input: randomSparse(r, shape, r.int(0, 30), dtype), default_value }),
      ).toBeUndefined();
    }
    const big = randomSparse(r, [300_000, 10], 200_000, 'float32');
    expect(check('sparse_fill_empty_rows', { sp_input: big, default_value: scalar('float32', -1) })).toBeUndefined();
  });

  it('sparse_to_indicator', () => {
    const r = rng(6);
    for (let t = 0; t < 300; t++) {
      const shape = randomShape(r, r.int(1, 4), 6);
      const vocab = r.int(1, 20);
      const dtype = r.pick(['int32', 'int64'] as DType[]);
      const n = r.int(0, 30);
      const sp = randomSparse(r, shape, n, 'float64', r.pick([undefined, 2 ** 40]));
      const ids =
        dtype === 'int32'
          ? Int32Array.from({ length: n }, () => r.int(0, vocab - 1))
          : BigInt64Array.from({ length: n }, () => BigInt(r.int(0, vocab - 1)));
      const input = sparse(sp.indices, ids, sp.shape, dtype);
      expect(check('sparse_to_indicator', { sp_input: input, vocab_size: vocab })).toBeUndefined();
    }
    const big = randomSparse(r, [1000, 5000], 200_000, 'float64');
    const ids = BigInt64Array.from({ length: 200_000 }, () => BigInt(r.int(0, 999)));
    expect(
      check('sparse_to_indicator', {
        sp_input: sparse(big.indices, ids, big.shape, 'int64'),
        vocab_size: 1000,
      }),
    ).toBeUndefined();
  });

  it('sparse_retain', () => {
    const r = rng(7);
    for (let t = 0; t < 300; t++) {
      const shape = randomShape(r, r.int(0, 4), 8);
      const n = shape.length === 0 ? r.int(0, 1) : r.int(0, 40);
      const to_retain = mask(Uint8Array.from({ length: n }, () => (r.next() < 0.5 ? 1 : 0)));
      expect(
        check('sparse_retain', { sp_input: randomSparse(r, shape, n, r.pick(NUMERIC)), to_retain }),
      ).toBeUndefined();
    }
    const to_retain = mask(Uint8Array.from({ length: 300_000 }, () => (r.next() < 0.7 ? 1 : 0)));
    expect(
      check('sparse_retain', { sp_input: randomSparse(r, [1000, 1000, 10], 300_000, 'int64'), to_retain }),
    ).toBeUndefined();
  });

  it('sparse_expand_dims', () => {
    const r = rng(8);
    for (let t = 0; t < 300; t++) {
      const shape = randomShape(r, r.int(0, 4), 8);
      const rank = shape.length;
      const sp = randomSparse(
        r,
        shape,
        rank === 0 ? r.int(0, 1) : r.int(0, 40),
        r.pick([...NUMERIC, 'bool', 'string'] as DType[]),
      );
      expect(check('sparse_expand_dims', { sp_input: sp, axis: r.int(-rank - 1, rank) })).toBeUndefined();
    }
    expect(
      check('sparse_expand_dims', { sp_input: randomSparse(r, [1000, 1000], 200_000, 'float32'), axis: 1 }),
    ).toBeUndefined();
  });

  it('sparse_reset_shape', () => {
    const r = rng(9);
    for (let t = 0; t < 300; t++) {
      const shape = randomShape(r, r.int(0, 4), 8);
      const sp = randomSparse(
        r,
        shape,
        shape.length === 0 ? r.int(0, 1) : r.int(0, 40),
        r.pick([...NUMERIC, 'bool', 'string'] as DType[]),
      );
      const new_shape = r.next() < 0.5 ? null : shape.map((d) => d + r.int(0, 3));
      expect(check('sparse_reset_shape', { sp_input: sp, new_shape })).toBeUndefined();
    }
    expect(
      check('sparse_reset_shape', { sp_input: randomSparse(r, [1000, 1000], 200_000, 'float64'), new_shape: null }),
    ).toBeUndefined();
  });

  it('sparse_merge', () => {
    const r = rng(10);
    for (let t = 0; t < 300; t++) {
      const shape = randomShape(r, r.int(1, 3), 6);
      const n = r.int(0, 30);
      const m = r.int(1, 3);
      const single = m === 1 && r.next() < 0.5;
      const idDtype = r.pick(['int32', 'int64'] as DType[]);
      const vocab = Array.from({ length: m }, () => r.int(1, 8));
      const base = randomSparse(r, shape, n, 'float64', r.pick([undefined, 2 ** 40]));
      const ids = vocab.map((v, k) => {
        const data = Array.from({ length: n }, () => r.int(0, v - 1));
        const vals = idDtype === 'int32' ? Int32Array.from(data) : BigInt64Array.from(data, BigInt);
        return sparse(k === 0 ? base.indices : new Float64Array(n), vals, k === 0 ? base.shape : [n], idDtype);
      });
      const valueDtype = r.pick(NUMERIC);
      const sp_values = sparse(new Float64Array(n), randomValues(r, valueDtype, n), [n], valueDtype);
      const args = {
        sp_ids: single ? ids[0] : ids,
        sp_values,
        vocab_size: single ? vocab[0] : vocab,
        already_sorted: r.next() < 0.3,
      };
      expect(check('sparse_merge', args)).toBeUndefined();
    }
    const n = 200_000;
    const base = randomSparse(r, [50_000, 1], n, 'float64', 10);
    const ids = sparse(
      base.indices,
      Int32Array.from({ length: n }, () => r.int(0, 99)),
      [50_000, 1],
      'int32',
    );
    const ids2 = sparse(
      new Float64Array(n),
      BigInt64Array.from({ length: n }, () => BigInt(r.int(0, 2 ** 30))),
      [n],
      'int64',
    );
    const ids2b = sparse(new Float64Array(n), Int32Array.from(ids2.values as BigInt64Array, Number), [n], 'int32');
    const sp_values = sparse(new Float64Array(n), randomValues(r, 'float32', n), [n], 'float32');
    const merge = (args: Args) => check('sparse_merge', { already_sorted: false, ...args });
    expect(merge({ sp_ids: ids, sp_values, vocab_size: 100 })).toBeUndefined();
    expect(merge({ sp_ids: [ids, ids2b], sp_values, vocab_size: [100, 2 ** 30 + 1] })).toBeUndefined();
    // a dense size past 2^53 (JS compares rows there; wasm sorts exact i64 offsets)
    const wide = sparse(base.indices, ids.values, [2 ** 31 - 1, 1], 'int32');
    const ids3 = sparse(
      new Float64Array(n),
      Int32Array.from({ length: n }, () => r.int(0, 2 ** 20 - 1)),
      [n],
      'int32',
    );
    expect(merge({ sp_ids: [wide, ids3], sp_values, vocab_size: [100, 2 ** 20] })).toBeUndefined();
    // past 2^64 (the sort keys take two chunks of columns), unordered, repeated rows kept in input order: in wasm
    const few = 2000;
    const rowsOf = sparse(
      Float64Array.from({ length: few * 2 }, (_, i) => (i % 2 ? 0 : r.int(0, 2 ** 31 - 2))),
      Int32Array.from({ length: few }, () => r.int(0, 2)),
      [2 ** 31 - 1, 1],
      'int32',
    );
    const big = sparse(
      new Float64Array(few),
      Int32Array.from({ length: few }, () => r.int(0, 2 ** 31 - 2)),
      [few],
      'int32',
    );
    const vals = sparse(new Float64Array(few), randomValues(r, 'int64', few), [few], 'int64');
    expect(merge({ sp_ids: [rowsOf, big, rowsOf], sp_values: vals, vocab_size: [3, 2 ** 31 - 1, 3] })).toBeUndefined();
  });
});

describe('index-row ops: what runs in wasm and what is delegated', () => {
  const st = (dtype: DType, values: (number | boolean | string)[]) =>
    sparse(
      [
        [1, 0],
        [0, 1],
      ],
      values,
      [2, 2],
      dtype,
    );
  const num = () => st('float32', [1, 2]);
  const str = () => st('string', ['a', 'b']);
  const bool = () => st('bool', [true, false]);
  const report = (op: string, args: Args) => runWasm(wasm, op, args).delegated;

  it('delegates bool and string values where wasm moves the values', () => {
    const to_retain = mask([true, false]);
    const cases: [string, (sp: SparseData) => Args][] = [
      ['sparse_slice', (sp) => ({ sp_input: sp, start: [0, 0], size: [1, 2] })],
      ['sparse_split', (sp) => ({ axis: 0, num_split: 2, sp_input: sp })],
      ['sparse_retain', (sp) => ({ sp_input: sp, to_retain })],
      [
        'sparse_fill_empty_rows',
        (sp) => ({
          sp_input: sp,
          default_value: scalar(sp.dtype, sp.dtype === 'string' ? 'z' : sp.dtype === 'bool' ? false : 0),
        }),
      ],
      [
        'sparse_merge',
        (sp) => ({
          sp_ids: sparse(
            [
              [0, 0],
              [1, 0],
            ],
            [1, 0],
            [2, 1],
            'int32',
          ),
          sp_values: sp,
          vocab_size: 2,
          already_sorted: false,
        }),
      ],
    ];
    for (const [op, args] of cases) {
      expect(report(op, args(num())), op).toBeUndefined();
      expect(report(op, args(str())), op).toMatch(/bool and string/);
      expect(report(op, args(bool())), op).toMatch(/bool and string/);
    }
  });

  it('runs any dtype in wasm where the values stay in JS (reshape, expand_dims, reset_shape)', () => {
    for (const sp of [num(), str(), bool()]) {
      expect(report('sparse_reshape', { sp_input: sp, shape: [4] })).toBeUndefined();
      expect(report('sparse_expand_dims', { sp_input: sp, axis: 0 })).toBeUndefined();
      expect(report('sparse_reset_shape', { sp_input: sp, new_shape: null })).toBeUndefined();
    }
  });

  it('runs int32 and int64 ids of sparse_to_indicator in wasm', () => {
    for (const dtype of ['int32', 'int64'] as DType[]) {
      expect(report('sparse_to_indicator', { sp_input: st(dtype, [1, 0]), vocab_size: 3 })).toBeUndefined();
    }
  });

  it('delegates dims beyond i32, with the same result', () => {
    const wide = sparse([[0, 2 ** 40]], [3], [2, 2 ** 41], 'float64');
    expect(check('sparse_slice', { sp_input: wide, start: [0, 2 ** 39], size: [1, 2 ** 41] })).toMatch(/i32/);
    expect(check('sparse_reshape', { sp_input: wide, shape: [2 ** 42] })).toMatch(/i32/);
    expect(check('sparse_split', { axis: 0, num_split: 2, sp_input: wide })).toMatch(/i32/);
    expect(check('sparse_fill_empty_rows', { sp_input: wide, default_value: scalar('float64', 0) })).toMatch(/i32/);
    const ids = sparse([[0, 5]], [2 ** 40], [2, 1], 'int64');
    expect(check('sparse_merge', { sp_ids: ids, sp_values: wide, vocab_size: 2 ** 41, already_sorted: false })).toMatch(
      /i32/,
    );
    const empty = sparse(new Float64Array(0), new Int32Array(0), [0, 3], 'int32');
    expect(check('sparse_to_indicator', { sp_input: empty, vocab_size: 2 ** 40 })).toMatch(/i32/);
  });

  it('runs expand_dims, reset_shape and retain in wasm for any dim: their indices stay f64, moved or compared, never converted', () => {
    const wide = sparse(
      [
        [0, 2 ** 40],
        [1, 2 ** 53 - 2],
        [1, 3],
      ],
      [3, 4, 5],
      [2, 2 ** 53 - 1],
      'float64',
    );
    expect(check('sparse_expand_dims', { sp_input: wide, axis: 1 })).toBeUndefined();
    expect(check('sparse_expand_dims', { sp_input: wide, axis: -1 })).toBeUndefined();
    expect(check('sparse_reset_shape', { sp_input: wide, new_shape: null })).toBeUndefined();
    expect(check('sparse_reset_shape', { sp_input: wide, new_shape: [3, 2 ** 53 - 1] })).toBeUndefined();
    expect(check('sparse_retain', { sp_input: wide, to_retain: mask([true, false, true]) })).toBeUndefined();
    const r = rng(11);
    for (const rank of [1, 2, 3, 5]) {
      const sp = randomSparse(r, randomShape(r, rank, 2 ** 45), 1001, 'int32');
      expect(check('sparse_reset_shape', { sp_input: sp, new_shape: null })).toBeUndefined();
      expect(check('sparse_expand_dims', { sp_input: sp, axis: r.int(-rank - 1, rank) })).toBeUndefined();
      const to_retain = mask(Uint8Array.from({ length: 1001 }, () => r.int(0, 1)));
      expect(check('sparse_retain', { sp_input: sp, to_retain })).toBeUndefined();
    }
  });
});
