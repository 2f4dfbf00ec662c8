import { beforeAll, describe, expect, it } from 'vitest';
import type { SparseData } from '@sparse/kernel-abi';
import { dense, scalar, sparse, type Plain } from '@sparse/test-kit/plain-data';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { createWasmBackend, type WasmBackend } from '../dist/index.js';
import { compileKernels, instantiateKernels } from '../dist/wasm-module.js';
import { WasmContext } from '../dist/wasm-context.js';
import { againstJs, runJs, runWasm } from './against-js.js';

// The wasm kernels of the sorting ops, the scatters and the value ops (reorder, transpose, concat, to_dense,
// from_dense, softmax, the segment reductions) against the JS backend: random inputs of every numeric dtype, unordered and repeated indices, huge dense shapes, ≥ 100k entries.

type DType = 'float32' | 'float64' | 'int32' | 'int64';
const DTYPES: DType[] = ['float32', 'float64', 'int32', 'int64'];

function randomValues(
  r: Rng,
  dtype: DType,
  n: number,
  zeros = 0,
): Float32Array | Float64Array | Int32Array | BigInt64Array {
  const pick = () => (r.next() < zeros ? 0 : (r.next() - 0.5) * 200);
  switch (dtype) {
    case 'float32':
      return Float32Array.from({ length: n }, pick);
    case 'float64':
      return Float64Array.from({ length: n }, pick);
    case 'int32':
      return Int32Array.from({ length: n }, () => Math.trunc(pick()));
    case 'int64':
      return BigInt64Array.from({ length: n }, () => BigInt(Math.trunc(pick())) * 4294967311n);
  }
}

/** n random index rows in `shape` (any order, repeats likely when the shape is small). */
function randomSparse(r: Rng, shape: number[], n: number, dtype: DType): SparseData {
  const rank = shape.length;
  const idx = new Float64Array(n * rank);
  for (let i = 0; i < n; i++) for (let d = 0; d < rank; d++) idx[i * rank + d] = r.int(shape[d]);
  return sparse(idx, randomValues(r, dtype, n), shape, dtype);
}

function randomShape(r: Rng, rank: number, maxDim: number): number[] {
  return Array.from({ length: rank }, () => 1 + r.int(maxDim));
}

/** Element i equal: the same bits for floats (NaN = NaN, -0 ≠ 0), the same bigint for int64. */
function firstMismatch(a: ArrayLike<unknown>, b: ArrayLike<unknown>): number {
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

let wasm: WasmBackend;
beforeAll(async () => {
  wasm = await createWasmBackend();
});

/** Runs op on wasm and on the JS kernels; the wasm run must be its own (not delegated) and equal the JS one. */
function same(op: string, args: Record<string, unknown>, what = op): void {
  const { diff, delegated } = againstJs(wasm, op, args);
  expect(delegated, `${what} delegated`).toBeUndefined();
  expect(diff, what).toBeUndefined();
}

/** The output of a wasm call. */
const wasmOutput = (op: string, args: Record<string, unknown>) => runWasm(wasm, op, args).outputs.output as SparseData;

describe('sparse_reorder on wasm', () => {
  it('equals the JS kernel on random unordered inputs with repeated indices, every dtype and rank 0..5', () => {
    const r = rng(1);
    for (let t = 0; t < 200; t++) {
      const dtype = DTYPES[t % 4];
      const rank = t % 6;
      const shape = randomShape(r, rank, t % 3 === 0 ? 3 : 50);
      const n = rank === 0 ? r.int(3) : r.int(300);
      same(
        'sparse_reorder',
        { sp_input: randomSparse(r, shape, n, dtype) },
        `reorder #${t} ${dtype} ${JSON.stringify(shape)}`,
      );
    }
  });

  it('sorts by comparing rows when the dense size does not fit i64, and on the radix path with every pass', () => {
    const r = rng(2);
    for (const dtype of DTYPES) {
      same(
        'sparse_reorder',
        { sp_input: randomSparse(r, [4096, 4096, 4096, 4096, 4096, 4096], 5000, dtype) },
        `huge ${dtype}`,
      );
      same(
        'sparse_reorder',
        { sp_input: randomSparse(r, [3, 3, 4096, 4096, 4096, 4096], 5000, dtype) },
        `huge with repeats ${dtype}`,
      );
      same(
        'sparse_reorder',
        { sp_input: randomSparse(r, [2 ** 31 - 1, 2 ** 31 - 1], 5000, dtype) },
        `62-bit keys ${dtype}`,
      );
      same(
        'sparse_reorder',
        { sp_input: randomSparse(r, [2 ** 31 - 1, 2 ** 31 - 1, 2], 3000, dtype) },
        `63-bit keys ${dtype}`,
      );
    }
  });

  it('keeps repeated indices in input order, and an ordered input as it is', () => {
    const st = sparse(
      [
        [1, 1],
        [0, 0],
        [1, 1],
        [0, 0],
      ],
      [1, 2, 3, 4],
      [2, 2],
      'int32',
    );
    const out = wasmOutput('sparse_reorder', { sp_input: st });
    expect(Array.from(out.values as Int32Array)).toEqual([2, 4, 1, 3]);
    const r = rng(3);
    const many = randomSparse(r, [5, 7], 20_000, 'float64');
    same('sparse_reorder', { sp_input: many }, 'many repeats');
    const sorted = wasmOutput('sparse_reorder', { sp_input: many });
    same('sparse_reorder', { sp_input: sorted }, 'already sorted');
  });

  it('equals the JS kernel on 200,000 entries', () => {
    const r = rng(4);
    same('sparse_reorder', { sp_input: randomSparse(r, [100_000, 1000], 200_000, 'float32') }, 'large float32');
    same('sparse_reorder', { sp_input: randomSparse(r, [30, 40, 50, 60], 200_000, 'int64') }, 'large int64 rank 4');
  });

  it('runs numeric values in wasm and hands bool and string values to the JS kernels, saying so', () => {
    const numeric = sparse([[1], [0]], [1, 2], [2], 'float32');
    expect(runWasm(wasm, 'sparse_reorder', { sp_input: numeric }).delegated).toBeUndefined();
    const strings = sparse([[1], [0]], ['a', 'b'], [2], 'string');
    const { outputs, delegated } = runWasm(wasm, 'sparse_reorder', { sp_input: strings });
    expect(delegated).toMatch(/bool and string/);
    expect((outputs.output as SparseData).values).toEqual(['b', 'a']);
    const wide = sparse([[2 ** 40], [0]], [1, 2], [2 ** 41], 'float32');
    expect(runWasm(wasm, 'sparse_reorder', { sp_input: wide }).delegated).toMatch(/do not fit i32/);
  });
});

describe('sparse_transpose on wasm', () => {
  const shuffle = (r: Rng, rank: number) => {
    const p = Array.from({ length: rank }, (_, d) => d);
    for (let i = rank - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [p[i], p[j]] = [p[j], p[i]];
    }
    return p;
  };

  it('equals the JS kernel on random inputs and permutations (and the default reversal), every dtype', () => {
    const r = rng(5);
    for (let t = 0; t < 200; t++) {
      const dtype = DTYPES[t % 4];
      const rank = t % 6;
      const shape = randomShape(r, rank, t % 3 === 0 ? 3 : 40);
      const n = rank === 0 ? r.int(2) : r.int(300);
      const perm = t % 5 === 0 ? null : shuffle(r, rank);
      same(
        'sparse_transpose',
        { sp_input: randomSparse(r, shape, n, dtype), perm },
        `transpose #${t} ${dtype} ${JSON.stringify(shape)} ${JSON.stringify(perm)}`,
      );
    }
  });

  it('equals the JS kernel on a huge dense shape and on 200,000 entries', () => {
    const r = rng(6);
    same(
      'sparse_transpose',
      { sp_input: randomSparse(r, [4096, 3, 4096, 4096, 4096, 4096], 5000, 'int32'), perm: [5, 1, 0, 3, 2, 4] },
      'huge',
    );
    same(
      'sparse_transpose',
      { sp_input: randomSparse(r, [1000, 100_000], 200_000, 'float64'), perm: null },
      'large matrix',
    );
    same(
      'sparse_transpose',
      { sp_input: randomSparse(r, [20, 30, 40, 50], 200_000, 'int64'), perm: [2, 0, 3, 1] },
      'large rank 4',
    );
  });

  it('delegates string values and runs numeric ones', () => {
    const numeric = sparse([[0, 1]], [1], [2, 3], 'int32');
    expect(runWasm(wasm, 'sparse_transpose', { sp_input: numeric, perm: null }).delegated).toBeUndefined();
    expect(
      runWasm(wasm, 'sparse_transpose', { sp_input: sparse([[0, 1]], ['a'], [2, 3], 'string'), perm: null }).delegated,
    ).toMatch(/bool and string/);
  });
});

describe('sparse_concat on wasm', () => {
  it('equals the JS kernel on random unordered inputs, any axis, with and without expand_nonconcat_dim', () => {
    const r = rng(7);
    for (let t = 0; t < 200; t++) {
      const dtype = DTYPES[t % 4];
      const rank = 1 + (t % 4);
      const axis = r.int(2 * rank) - rank;
      const ax = axis < 0 ? axis + rank : axis;
      const expand = t % 3 === 0;
      const base = randomShape(r, rank, 20);
      const count = 2 + r.int(4);
      const inputs = Array.from({ length: count }, () => {
        const shape = base.map((d, j) => (j === ax || expand ? 1 + r.int(20) : d));
        return randomSparse(r, shape, r.int(60), dtype);
      });
      same(
        'sparse_concat',
        { axis, sp_inputs: inputs, expand_nonconcat_dim: expand },
        `concat #${t} ${dtype} axis ${axis}`,
      );
    }
  });

  it('returns a single input as it is, in wasm', () => {
    const r = rng(8);
    same(
      'sparse_concat',
      { axis: 0, sp_inputs: [randomSparse(r, [5, 5], 30, 'float32')], expand_nonconcat_dim: false },
      'one input',
    );
  });

  it('equals the JS kernel on huge dense shapes and on 300,000 entries in all', () => {
    const r = rng(9);
    const huge = [4096, 4096, 4096, 4096, 4096, 4096];
    same(
      'sparse_concat',
      {
        axis: 2,
        sp_inputs: [randomSparse(r, huge, 2000, 'int64'), randomSparse(r, huge, 2000, 'int64')],
        expand_nonconcat_dim: false,
      },
      'huge',
    );
    const big = [0, 1, 2].map(() => randomSparse(r, [1000, 1000], 100_000, 'float64'));
    same('sparse_concat', { axis: 1, sp_inputs: big, expand_nonconcat_dim: false }, 'large axis 1');
    const sorted = big.map((s) => wasmOutput('sparse_reorder', { sp_input: s }));
    same('sparse_concat', { axis: 0, sp_inputs: sorted, expand_nonconcat_dim: false }, 'large ordered axis 0');
  });

  it('delegates string values and runs numeric ones', () => {
    const concat = (sp_inputs: SparseData[]) =>
      runWasm(wasm, 'sparse_concat', { axis: 1, sp_inputs, expand_nonconcat_dim: false }).delegated;
    const a = sparse([[0, 1]], [1], [2, 3], 'int32');
    expect(concat([a, a])).toBeUndefined();
    const s = sparse([[0, 1]], ['x'], [2, 3], 'string');
    expect(concat([s, s])).toMatch(/bool and string/);
  });
});

describe('from_dense on wasm', () => {
  it('equals the JS kernel on random dense tensors, rank 0..4, with -0 (dropped) and NaN (kept)', () => {
    const r = rng(10);
    for (let t = 0; t < 200; t++) {
      const dtype = DTYPES[t % 4];
      const rank = t % 5;
      const shape = Array.from({ length: rank }, () => r.int(t % 7 === 0 ? 3 : 12));
      const size = shape.reduce((a, b) => a * b, 1);
      const data = randomValues(r, dtype, size, [0, 0.5, 0.9, 1][t % 4]);
      if (dtype === 'float32' || dtype === 'float64')
        for (let i = 0; i < size; i++) if (r.next() < 0.1) data[i] = [NaN, -0, Infinity][r.int(3)];
      same('from_dense', { tensor: dense(data, shape, dtype) }, `from_dense #${t} ${dtype} ${JSON.stringify(shape)}`);
    }
  });

  it('equals the JS kernel on 1,000,000 elements, dense and mostly zero', () => {
    const r = rng(11);
    same(
      'from_dense',
      { tensor: dense(randomValues(r, 'float32', 1_000_000, 0.5), [1000, 1000], 'float32') },
      'large half zero',
    );
    same(
      'from_dense',
      { tensor: dense(randomValues(r, 'int64', 1_000_000, 0.99), [10, 100, 1000], 'int64') },
      'large mostly zero',
    );
  });

  it('delegates bool and string tensors and runs numeric ones', () => {
    const fromDense = (data: Plain[], dt: 'int32' | 'string' | 'bool') =>
      runWasm(wasm, 'from_dense', { tensor: dense(data, [data.length], dt) }).delegated;
    expect(runWasm(wasm, 'from_dense', { tensor: dense([1, 0, 0, 2], [2, 2], 'int32') }).delegated).toBeUndefined();
    expect(fromDense(['', 'a'], 'string')).toMatch(/bool and string/);
    expect(fromDense([true, false], 'bool')).toMatch(/bool and string/);
  });
});

describe('sparse_softmax on wasm', () => {
  /** Random canonical input: the non-zeros of a random dense tensor. */
  const canonical = (r: Rng, shape: number[], dtype: 'float32' | 'float64', zeros: number) => {
    const size = shape.reduce((a, b) => a * b, 1);
    const data = randomValues(r, dtype, size, zeros) as Float32Array | Float64Array;
    for (let i = 0; i < size; i++) if (r.next() < 0.01) data[i] = [NaN, Infinity, -Infinity, 1000][r.int(4)];
    return runJs('from_dense', { tensor: dense(data, shape, dtype) }).output as SparseData;
  };

  /** Both dtypes as the JS kernel to the bit: exp is V8's algorithm (fdlibm), float32 rounds every step. */
  const close = (args: Record<string, unknown>, what: string) => same('sparse_softmax', args, what);

  it('computes exp as V8 does, to the bit, on every branch of it (and two lanes at a time)', async () => {
    const ctx = new WasmContext(await instantiateKernels(await compileKernels()));
    const r = rng(17);
    const bits = new Float64Array(1);
    const raw = new BigUint64Array(bits.buffer);
    const xs: number[] = [
      0,
      -0,
      1,
      -1,
      Infinity,
      -Infinity,
      NaN,
      700,
      -700,
      709.78,
      709.79,
      -745.13,
      -745.14,
      -708.4,
      5e-324,
      -5e-324,
    ];
    for (const hw of [0x3fd62e42n, 0x3fd62e43n, 0x3ff0a2b2n, 0x3ff0a2b1n, 0x3e300000n, 0x3e2fffffn, 0x40862e42n]) {
      for (const lw of [0n, 1n, 0xffffffffn])
        for (const s of [0n, 1n << 63n]) {
          raw[0] = s | (hw << 32n) | lw;
          xs.push(bits[0]);
        }
    }
    for (let i = 0; i < 200_000; i++) {
      const k = i % 4;
      xs.push(
        k === 0
          ? (r.next() - 0.5) * 4
          : k === 1
            ? (r.next() - 0.5) * 1500
            : k === 2
              ? (r.next() - 0.5) * 1e-6
              : -r.next() * 40,
      );
    }
    const x = Float64Array.from(xs);
    const { heap } = ctx;
    heap.reset();
    const xp = heap.putValues('float64', x);
    const out = heap.alloc(x.length * 8);
    ctx.call('exp_f64', [xp, x.length, out]);
    expect(firstMismatch(heap.view('float64', out, x.length), x.map(Math.exp))).toBe(-1);
  });

  it('equals the JS kernel on random canonical inputs, rank 2..4, with NaN, ±inf and large values', () => {
    const r = rng(12);
    for (let t = 0; t < 150; t++) {
      const dtype = t % 2 === 0 ? 'float32' : 'float64';
      const shape = randomShape(r, 2 + (t % 3), 12);
      close(
        { sp_input: canonical(r, shape, dtype, [0, 0.5, 0.9][t % 3]) },
        `softmax #${t} ${dtype} ${JSON.stringify(shape)}`,
      );
    }
    const huge = sparse(
      [
        [0, 0, 0, 0, 0, 4095],
        [4095, 4095, 4095, 4095, 4095, 0],
        [4095, 4095, 4095, 4095, 4095, 4095],
      ],
      [5, 1, 1],
      [4096, 4096, 4096, 4096, 4096, 4096],
      'float32',
    );
    close({ sp_input: huge }, 'huge');
  });

  it('equals the JS kernel on 500,000 entries', () => {
    const r = rng(13);
    close({ sp_input: canonical(r, [1000, 1000], 'float32', 0.5) }, 'large float32');
    close({ sp_input: canonical(r, [100, 100, 100], 'float64', 0.5) }, 'large float64');
  });
});

describe('the sparse segment reductions on wasm', () => {
  const ids = (r: Rng, n: number, wide: boolean, rows: number) => {
    const idx = Array.from({ length: n }, () => r.int(rows));
    let s = 0;
    const seg = Array.from({ length: n }, () => (s += r.int(3)));
    return wide
      ? [dense(BigInt64Array.from(idx, BigInt), [n], 'int64'), dense(BigInt64Array.from(seg, BigInt), [n], 'int64')]
      : [dense(Int32Array.from(idx), [n], 'int32'), dense(Int32Array.from(seg), [n], 'int32')];
  };

  it('equals the JS kernel on random data, int32 and int64 indices and ids, every dtype, with and without num_segments', () => {
    const r = rng(14);
    for (let t = 0; t < 200; t++) {
      const dtype = DTYPES[t % 4];
      const shape = [1 + r.int(20), ...randomShape(r, t % 3, 9)];
      const size = shape.reduce((a, b) => a * b, 1);
      const n = r.int(40);
      const [indices, segment_ids] = ids(r, n, (t >> 2) % 2 === 1, shape[0]);
      const [i2] = ids(r, n, (t >> 3) % 2 === 1, shape[0]);
      const last = n === 0 ? -1 : Number(segment_ids.data[n - 1]);
      same(
        'sparse_segment_sum',
        {
          data: dense(randomValues(r, dtype, size), shape, dtype),
          indices: t % 5 === 0 ? i2 : indices,
          segment_ids,
          num_segments: t % 3 === 0 ? last + 1 + r.int(3) : null,
        },
        `segment_sum #${t} ${dtype}`,
      );
    }
  });

  it('takes the mean and the sqrt_n in wasm, bit for bit as the JS kernel, runs of 1 to 30 rows', () => {
    const r = rng(16);
    for (let t = 0; t < 200; t++) {
      const op = t % 2 === 0 ? 'sparse_segment_mean' : 'sparse_segment_sqrt_n';
      const dtype = (['float32', 'float64'] as const)[(t >> 1) % 2];
      const shape = [1 + r.int(20), ...randomShape(r, t % 3, 9)];
      const size = shape.reduce((a, b) => a * b, 1);
      // Long runs of one id too, past the 10 rows where the scaling changes from a product to a quotient.
      const n = r.int(t % 4 === 0 ? 120 : 40);
      const idx = Array.from({ length: n }, () => r.int(shape[0]));
      let s = 0;
      const seg = Array.from({ length: n }, () => (s += r.int(30) === 0 ? 1 + r.int(2) : 0));
      same(
        op,
        {
          data: dense(randomValues(r, dtype, size), shape, dtype),
          indices: dense(Int32Array.from(idx), [n], 'int32'),
          segment_ids: dense(BigInt64Array.from(seg, BigInt), [n], 'int64'),
          num_segments: t % 3 === 0 ? s + 1 + r.int(3) : null,
        },
        `${op} #${t} ${dtype}`,
      );
    }
  });

  it('sums float32 in float32 and wraps integers, as the JS kernel', () => {
    const int32s = (xs: number[]) => dense(xs, [xs.length], 'int32');
    same('sparse_segment_sum', {
      data: dense([16777216, 1], [2], 'float32'),
      indices: int32s([0, 1, 1]),
      segment_ids: int32s([0, 0, 0]),
    });
    same('sparse_segment_sum', {
      data: dense([2147483647, 1], [2], 'int32'),
      indices: int32s([0, 1]),
      segment_ids: int32s([0, 0]),
    });
    same('sparse_segment_sum', {
      data: dense([9223372036854775807n, 1n], [2], 'int64'),
      indices: int32s([0, 1]),
      segment_ids: int32s([0, 0]),
    });
  });

  it('equals the JS kernel on 1,000,000 indices', () => {
    const r = rng(15);
    const [indices, segment_ids] = ids(r, 1_000_000, true, 10_000);
    same(
      'sparse_segment_sum',
      { data: dense(randomValues(r, 'float32', 80_000), [10_000, 8], 'float32'), indices, segment_ids },
      'large float32',
    );
    same(
      'sparse_segment_sum',
      { data: dense(randomValues(r, 'int32', 30_000), [10_000, 3], 'int32'), indices, segment_ids },
      'large int32',
    );
  });
});

describe('sparse_tensor_to_dense and sparse_to_dense on wasm', () => {
  const DEFAULTS: Record<DType, Plain[]> = {
    float32: [0, -0, 2.5, NaN, -Infinity],
    float64: [0, -0, -1e300, NaN],
    int32: [0, -7, 2 ** 31 - 1],
    int64: [0n, -(2n ** 62n), 5n],
  };

  it('equals the JS kernel on random inputs, every dtype, rank 0..4, defaults 0, -0, NaN and others', () => {
    const r = rng(31);
    for (let t = 0; t < 200; t++) {
      const dtype = DTYPES[t % 4];
      const rank = r.int(5);
      const shape = randomShape(r, rank, 7);
      const sp = randomSparse(r, shape, r.int(12), dtype);
      const default_value = scalar(dtype, DEFAULTS[dtype][r.int(DEFAULTS[dtype].length)]);
      // Random indices repeat and come in any order: only validate_indices false takes them (the last one wins).
      same(
        'sparse_tensor_to_dense',
        { sp_input: sp, default_value, validate_indices: false },
        `to_dense ${dtype} [${shape}]`,
      );
      if (rank === 0) continue;
      const scalarValue = r.next() < 0.5;
      const n = sp.values.length;
      same(
        'sparse_to_dense',
        {
          sparse_indices: dense(Int32Array.from(sp.indices), [n, rank], 'int32'),
          output_shape: shape,
          sparse_values: scalarValue ? dense(randomValues(r, dtype, 1), [], dtype) : dense(sp.values, [n], dtype),
          default_value,
          validate_indices: false,
        },
        `sparse_to_dense ${dtype} [${shape}] ${scalarValue ? 'scalar' : 'vector'}`,
      );
    }
  });

  it('equals the JS kernel on 300,000 entries of a 2000×1500 matrix, default 0 and -1', () => {
    const r = rng(32);
    const sp = randomSparse(r, [2000, 1500], 300_000, 'float32');
    for (const v of [0, -1])
      same('sparse_tensor_to_dense', { sp_input: sp, default_value: scalar('float32', v), validate_indices: false });
  });
});

describe('sparse_bincount on wasm', () => {
  /** n random entries of `shape` (any order, repeats) holding whole numbers in [0, top) of the dtype. */
  const counts = (r: Rng, shape: number[], n: number, top: number, dtype: 'int32' | 'int64') => {
    const st = randomSparse(r, shape, n, 'int32');
    const v = Array.from({ length: n }, () => r.int(top));
    return { ...st, values: dtype === 'int32' ? Int32Array.from(v) : BigInt64Array.from(v, BigInt), dtype };
  };
  const weightsOf = (r: Rng, st: SparseData, dtype: DType) => ({
    ...st,
    values: randomValues(r, dtype, st.values.length),
    dtype,
  });

  it('equals the JS kernel on random input: by row and overall, every weight dtype, binary, min- and maxlength', () => {
    const r = rng(17);
    for (let t = 0; t < 300; t++) {
      const rank = 1 + (t % 2);
      const shape = rank === 1 ? [1 + r.int(30)] : [1 + r.int(8), 1 + r.int(8)];
      const values = counts(r, shape, r.int(60), 1 + r.int(t % 3 === 0 ? 5 : 200), t % 4 < 2 ? 'int32' : 'int64');
      const weighted = t % 5 >= 2;
      same(
        'sparse_bincount',
        {
          values,
          weights: weighted ? weightsOf(r, values, DTYPES[t % 4]) : null,
          axis: (t >> 1) % 2 === 0 ? 0 : -1,
          minlength: t % 7 === 0 ? r.int(300) : null,
          maxlength: t % 6 === 0 ? r.int(100) : null,
          binary_output: !weighted && t % 5 === 1,
        },
        `bincount #${t}`,
      );
    }
  });

  it('equals the JS kernel on 300,000 entries, and hands past-i32 sizes to it, saying so', () => {
    const r = rng(18);
    const values = counts(r, [1000, 1000], 300_000, 5000, 'int64');
    same('sparse_bincount', {
      values,
      weights: null,
      axis: -1,
      minlength: null,
      maxlength: null,
      binary_output: false,
    });
    same('sparse_bincount', {
      values,
      weights: weightsOf(r, values, 'float32'),
      axis: 0,
      minlength: null,
      maxlength: 4000,
      binary_output: false,
    });
    const wide = { ...counts(r, [3], 3, 5, 'int64'), values: BigInt64Array.from([2n ** 40n, 3n, 2n ** 40n]) };
    const { diff, delegated } = againstJs(wasm, 'sparse_bincount', {
      values: wide,
      weights: null,
      axis: 0,
      minlength: null,
      maxlength: null,
      binary_output: false,
    });
    expect(diff).toBeUndefined();
    expect(delegated).toMatch(/exceeds 2\^31-1/);
  });
});
