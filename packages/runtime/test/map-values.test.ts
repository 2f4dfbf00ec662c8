import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SparseTensor, createRuntime, sparse } from '../src/index.js';

const st = new SparseTensor(
  [
    [0, 1],
    [2, 0],
    [2, 3],
  ],
  [1.5, -2, 4],
  [3, 4],
  'float32',
);

describe('sparse.mapValues: a JS function of the stored values', () => {
  it('keeps the indices and dense shape, and hands fn a copy of the values only', () => {
    let seen: unknown;
    const out = sparse.mapValues(st, (v) => {
      seen = v;
      (v as Float32Array)[0] = 99; // a copy: the input does not change
      return (v as Float32Array).map((x) => x * 2);
    });
    expect(seen).toBeInstanceOf(Float32Array);
    expect(out.indices).toEqual(st.indices);
    expect(out.denseShape).toEqual([3, 4]);
    expect(Array.from(out.values as Float32Array)).toEqual([198, -4, 8]);
    expect(out.dtype).toBe('float32');
    expect(Array.from(st.values as Float32Array)).toEqual([1.5, -2, 4]);
  });

  it("takes the dtype of the typed array fn returns, as TensorFlow's map_values takes the op's result", () => {
    expect(sparse.mapValues(st, (v) => Float64Array.from(v as Float32Array, (x) => x / 3)).dtype).toBe('float64');
    const ints = sparse.mapValues(st, (v) => Int32Array.from(v as Float32Array, (x) => Math.trunc(x)));
    expect([ints.dtype, Array.from(ints.values as Int32Array)]).toEqual(['int32', [1, -2, 4]]);
    const big = sparse.mapValues(st, (v) => BigInt64Array.from(v as Float32Array, (x) => BigInt(Math.trunc(x)) << 40n));
    expect([big.dtype, (big.values as BigInt64Array)[2]]).toEqual(['int64', 4n << 40n]);
    const flags = sparse.mapValues(st, (v) => Uint8Array.from(v as Float32Array, (x) => (x > 0 ? 1 : 0)));
    expect([flags.dtype, Array.from(flags.values as Uint8Array)]).toEqual(['bool', [1, 0, 1]]);
  });

  it("keeps sp_input's dtype for a plain array, and converts to options.dtype", () => {
    const kept = sparse.mapValues(st, (v) => Array.from(v as Float32Array, (x) => x + 0.1));
    expect([kept.dtype, (kept.values as Float32Array)[0]]).toEqual(['float32', Math.fround(1.6)]);
    const words = sparse.mapValues(st, (v) => Array.from(v as Float32Array, (x) => `v${x}`), { dtype: 'string' });
    expect([words.dtype, words.values]).toEqual(['string', ['v1.5', 'v-2', 'v4']]);
    const wide = sparse.mapValues(st, (v) => v, { dtype: 'float64' });
    expect(wide.dtype).toBe('float64');
  });

  it('refuses what fn returns when it is not the values, naming the op', () => {
    const badKind = (r: unknown) => () => sparse.mapValues(st, () => r as number[]);
    expect(badKind(3)).toThrow(TypeError);
    expect(badKind(3)).toThrow(/sparse_map_values: the values fn returned must be an array or a typed array, got 3/);
    expect(badKind(undefined)).toThrow(/sparse_map_values: .*got undefined/);
    expect(badKind(Promise.resolve([1, 2, 3]))).toThrow(/sparse_map_values: .*got a Promise/);
    expect(badKind({ length: 3 })).toThrow(TypeError);
    const badLength = () => sparse.mapValues(st, (v) => (v as Float32Array).subarray(1));
    expect(badLength).toThrow(InvalidArgumentError);
    expect(badLength).toThrow(/sparse_map_values: fn returned 2 values for the 3 stored entries of sp_input/);
    // a value the dtype cannot hold: int32 keeps sp_input's dtype, and 0.5 is not an int32
    const ints = new SparseTensor([[0], [1]], [1, 2], [2], 'int32');
    expect(() => sparse.mapValues(ints, (v) => Array.from(v as Int32Array, (x) => x / 4))).toThrow(
      /sparse_map_values: the values fn returned\[0\]/,
    );
    expect(() => sparse.mapValues(st, (v) => Array.from(v as Float32Array, String))).toThrow(TypeError);
  });

  it('refuses a bad call, naming the op: not a SparseTensor, not a function, an unknown option or dtype', () => {
    expect(() => sparse.mapValues([1, 2] as never, (v) => v)).toThrow(
      /sparse_map_values: sp_input must be a SparseTensor/,
    );
    expect(() => sparse.mapValues(st, 'abs' as never)).toThrow(/sparse_map_values: fn must be a function/);
    expect(() => sparse.mapValues(st, (v) => v, { dtyp: 'float64' } as never)).toThrow(
      /sparse.mapValues: unknown option 'dtyp'/,
    );
    expect(() => sparse.mapValues(st, (v) => v, { dtype: 'float16' as never })).toThrow(
      /sparse_map_values: dtype: unknown dtype/,
    );
  });

  it('runs in JS on every runtime, with the same result, and on an empty tensor calls fn with no values', async () => {
    const f = (v: unknown) => Float32Array.from(v as Float32Array, Math.expm1);
    for (const backend of ['js', 'wasm']) {
      const rt = await createRuntime({ backend });
      expect(Array.from(rt.sparse.mapValues(st, f).values as Float32Array), backend).toEqual(
        Array.from(sparse.mapValues(st, f).values as Float32Array),
      );
      rt.dispose();
    }
    const empty = new SparseTensor([], [], [2, 2], 'float64');
    const out = sparse.mapValues(empty, (v) => {
      expect((v as Float64Array).length).toBe(0);
      return v;
    });
    expect([out.nnz, out.denseShape]).toEqual([0, [2, 2]]);
  });
});
