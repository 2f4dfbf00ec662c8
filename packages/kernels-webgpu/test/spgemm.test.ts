import { describe, expect, it } from 'vitest';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import { expectOutputMatchesJs } from './compare.js';
import { randomCsr, uniform, type ValueOf as Values } from './random.js';
import type { CsrData } from '@sparse/kernel-abi';
import { rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/index.js';

// sparse_matrix_sparse_mat_mul (CSR × CSR) on WebGPU (SwiftShader in CI), against the JS kernel, bit for bit.

useBackend();

const OP = 'sparse_matrix_sparse_mat_mul';
type Out = { output: CsrData };

/** Where two CSR results differ: every array exactly, values by their bits. */
function mismatch(got: CsrData, want: CsrData): string | undefined {
  if (got.kind !== 'csr') return `kind ${got.kind}`;
  if (got.dtype !== want.dtype) return `dtype ${got.dtype} vs ${want.dtype}`;
  if (got.shape.join() !== want.shape.join()) return `shape [${got.shape}] vs [${want.shape}]`;
  for (const key of ['batchPointers', 'rowPointers', 'colIndices'] as const) {
    if (!(got[key] instanceof Int32Array)) return `${key} is no Int32Array`;
    if (Array.from(got[key]).join() !== Array.from(want[key]).join()) return `${key} differ`;
  }
  if (got.values.constructor !== want.values.constructor) return 'value stores differ';
  const [g, w] = [bits(got.values as Float32Array), bits(want.values as Float32Array)];
  if (g.length !== w.length) return `values: length ${g.length} vs ${w.length}`;
  for (let i = 0; i < w.length; i++) if (g[i] !== w[i]) return `values[${i}]: ${got.values[i]} vs ${want.values[i]}`;
  return undefined;
}

const bits = (v: Float32Array | Int32Array) => new Uint32Array(v.buffer, v.byteOffset, v.length);

/** Runs on the GPU, which must not delegate, and compares with js; `submits`: GPU submissions expected. */
const expectGpuMatchesJs = (args: Args, submits = 1) => expectOutputMatchesJs(OP, args, mismatch, submits);

const NO_FLAGS = { transpose_a: false, transpose_b: false, adjoint_a: false, adjoint_b: false };

/** op(a) · op(b): a [batch,] (ta ? k × m : m × k), b [batch,] (tb ? n × k : k × n). */
function spgemmArgs(
  seed: number,
  batch: number,
  [m, k, n]: [number, number, number],
  flags: Args = {},
  density = 0.2,
  dtype: 'float32' | 'int32' | 'float64' = 'float32',
  value: Values = uniform,
  rank3 = batch > 1,
): Args & { a: CsrData; b: CsrData } {
  const r = rng(seed);
  const ta = !!(flags.transpose_a || flags.adjoint_a);
  const tb = !!(flags.transpose_b || flags.adjoint_b);
  const a = randomCsr(r, batch, ta ? k : m, ta ? m : k, density, rank3, dtype, value);
  const b = randomCsr(r, batch, tb ? n : k, tb ? k : n, density, rank3, dtype, value);
  return { a, b, ...NO_FLAGS, ...flags };
}

function csr(rowPointers: number[], colIndices: number[], values: number[], shape: number[]): CsrData {
  return {
    kind: 'csr',
    batchPointers: Int32Array.from([0, colIndices.length]),
    rowPointers: Int32Array.from(rowPointers),
    colIndices: Int32Array.from(colIndices),
    values: Float32Array.from(values),
    shape,
    dtype: 'float32',
  };
}

describe('sparse_matrix_sparse_mat_mul on webgpu', () => {
  const FLAGS: Args[] = [
    {},
    { transpose_a: true },
    { adjoint_b: true },
    { adjoint_a: true, transpose_b: true },
    { transpose_a: true, adjoint_b: true },
  ];
  FLAGS.forEach((flags, f) => {
    it(`rank 2 and a batch of 3, ${JSON.stringify(flags)}`, async () => {
      await expectGpuMatchesJs(spgemmArgs(100 + f, 1, [37, 23, 19], flags));
      await expectGpuMatchesJs(spgemmArgs(200 + f, 3, [13, 11, 17], flags, 0.3));
    });
  });

  it('a larger product spanning many workgroups: long sums of one (row, column), 16+ columns, rows', async () => {
    // 100 × 80 times 80 × 260 (20% each): ~40k products, several to a (row, column).
    const out = await expectGpuMatchesJs(spgemmArgs(300, 1, [100, 80, 260], {}, 0.2));
    expect(out.colIndices.length).toBeGreaterThan(15_000);
    // A rank-3 batch of one, a column dim past 2^16 (more radix passes on the column); a batch, rows past 2^16.
    const r = rng(301);
    const wide = { a: randomCsr(r, 1, 30, 40, 0.3, true), b: randomCsr(r, 1, 40, 70_000, 0.001, true) };
    expect((await expectGpuMatchesJs({ ...wide, ...NO_FLAGS })).colIndices.length).toBeGreaterThan(500);
    const a = randomCsr(r, 2, 5, 70_000, 0.002, true);
    const tall = await expectGpuMatchesJs({ a, b: randomCsr(r, 2, 5, 6, 0.5, true), ...NO_FLAGS, transpose_a: true });
    expect(tall.colIndices.length).toBeGreaterThan(500);
  });

  it('sums in the JS kernel order: float32 rounding that depends on it', async () => {
    // Row [1e8, 1, -1e8, 1] times a column of ones: in order, 1e8 + 1 rounds to 1e8, - 1e8 gives 0, + 1 gives 1.
    const a = csr([0, 4], [0, 1, 2, 3], [1e8, 1, -1e8, 1], [1, 4]);
    const b = csr([0, 1, 2, 3, 4], [0, 0, 0, 0], [1, 1, 1, 1], [4, 1]);
    const out = await expectGpuMatchesJs({ a, b, ...NO_FLAGS });
    expect(Array.from(out.values)).toEqual([1]);
    // Unsorted columns of a: the products come (and are summed) in a's stored order (giving 2), not column order.
    const a2 = csr([0, 4], [0, 2, 1, 3], [1e8, -1e8, 1, 1], [1, 4]);
    expect(Array.from((await expectGpuMatchesJs({ a: a2, b, ...NO_FLAGS })).values)).toEqual([2]);
  });

  it('hand-computed: the spec example, an explicit zero kept, -0 and sorted columns', async () => {
    const a = csr([0, 2, 3], [0, 2, 1], [1, 2, 3], [2, 3]);
    const b = csr([0, 1, 2, 3], [1, 0, 0], [4, 5, 6], [3, 2]);
    const out = await expectGpuMatchesJs({ a, b, ...NO_FLAGS });
    expect(Array.from(out.rowPointers)).toEqual([0, 2, 3]);
    expect(Array.from(out.colIndices)).toEqual([0, 1, 0]);
    expect(Array.from(out.values)).toEqual([12, 4, 15]);
    const cancel = await expectGpuMatchesJs({
      a: csr([0, 2], [0, 1], [1, 1], [1, 2]),
      b: csr([0, 1, 2], [0, 0], [1, -1], [2, 1]),
      ...NO_FLAGS,
    });
    expect(Array.from(cancel.values)).toEqual([0]);
    // -0 · 1 = -0, and -0 + -0 stays -0; 0 · -1 = -0; b's columns 3, 0, 2 come out sorted.
    const neg = await expectGpuMatchesJs({
      a: csr([0, 2], [0, 1], [-0, 0], [1, 2]),
      b: csr([0, 2, 4], [3, 0, 3, 2], [1, 1, -1, -1], [2, 4]),
      ...NO_FLAGS,
    });
    expect(Array.from(neg.colIndices)).toEqual([0, 2, 3]);
    expect(Array.from(bits(neg.values as Float32Array))).toEqual([0x80000000, 0x80000000, 0x80000000]);
  });

  it('int32: wrapping products and sums, as the JS kernel stores them', async () => {
    const big: Values = (r) => Math.floor(r.next() * 2 ** 20) - 2 ** 19;
    await expectGpuMatchesJs(spgemmArgs(400, 1, [29, 31, 23], {}, 0.3, 'int32', big));
    await expectGpuMatchesJs(spgemmArgs(401, 2, [9, 12, 10], { transpose_a: true }, 0.4, 'int32', big));
    // Past 2^31 but below 2^53: js's float64 sum is exact, then wraps to int32, as i32 arithmetic does.
    const a: CsrData = {
      ...csr([0, 2], [0, 1], [], [1, 2]),
      values: Int32Array.from([70_000, 2 ** 30]),
      dtype: 'int32',
    };
    const b: CsrData = { ...csr([0, 1, 2], [0, 0], [], [2, 1]), values: Int32Array.from([70_000, 3]), dtype: 'int32' };
    const out = await expectGpuMatchesJs({ a, b, ...NO_FLAGS });
    expect(Array.from(out.values)).toEqual([(70_000 * 70_000 + 3 * 2 ** 30) | 0]);
    // Sums that could pass 2^53 (rounded in float64 by js): the JS kernel.
    const huge = { ...a, values: Int32Array.from([2 ** 31 - 1, 2 ** 31 - 1]) };
    const hb = { ...b, values: Int32Array.from([2 ** 31 - 1, 2 ** 31 - 1]) };
    const d = await onGpu<Out>(OP, { a: huge, b: hb, ...NO_FLAGS });
    expect(d.reason).toBe(REASONS.int32NotWgsl('a sum of products past 2^53, which the JS kernel rounds in float64,'));
    expect(d.outputs.output).toEqual(onJs<Out>(OP, { a: huge, b: hb, ...NO_FLAGS }).output);
  });

  it('empty: no entries, no products, no rows, no inner dim, one matrix of a batch empty', async () => {
    await expectGpuMatchesJs(spgemmArgs(500, 1, [6, 5, 4], {}, 0), 0);
    // Entries, but a's columns select only empty rows of b.
    await expectGpuMatchesJs(
      { a: csr([0, 1, 1], [0], [2], [2, 2]), b: csr([0, 0, 1], [0], [3], [2, 3]), ...NO_FLAGS },
      0,
    );
    await expectGpuMatchesJs(spgemmArgs(501, 1, [0, 3, 2], {}), 0);
    await expectGpuMatchesJs(spgemmArgs(502, 2, [3, 0, 2], { transpose_a: true }), 0);
    await expectGpuMatchesJs(spgemmArgs(503, 1, [4, 3, 0], { transpose_b: true }), 0);
    const args = spgemmArgs(504, 2, [5, 4, 3], {}, 0.5);
    const first = args.a.batchPointers[1];
    const a: CsrData = {
      ...args.a,
      batchPointers: Int32Array.from([0, first, first]),
      rowPointers: Int32Array.from([...args.a.rowPointers.subarray(0, 6), 0, 0, 0, 0, 0, 0]),
      colIndices: args.a.colIndices.slice(0, first),
      values: (args.a.values as Float32Array).slice(0, first),
    };
    const out = await expectGpuMatchesJs({ ...args, a });
    expect(out.batchPointers[2]).toBe(out.batchPointers[1]);
  });

  it('float64 runs on the JS kernels; float32 inf/nan/subnormal inputs, subnormal products and overflow too', async () => {
    const f64 = spgemmArgs(600, 1, [5, 4, 3], {}, 0.5, 'float64');
    const d = await onGpu<Out>(OP, f64);
    expect(d.reason).toBe(REASONS.notComputed('float64'));
    expect(d.outputs.output).toEqual(onJs<Out>(OP, f64).output);
    const args = spgemmArgs(601, 1, [5, 4, 3], {}, 0.6);
    const withA = (f: (v: Float32Array) => void) => {
      const v = (args.a.values as Float32Array).slice();
      f(v);
      return { ...args, a: { ...args.a, values: v } };
    };
    for (const x of [NaN, Infinity, 1e-40])
      expect(
        (
          await onGpu<Out>(
            OP,
            withA((v) => (v[0] = x)),
          )
        ).reason,
      ).toBe(REASONS.nonFinite);
    const tiny = {
      ...withA((v) => (v[0] = 1e-20)),
      b: { ...args.b, values: (args.b.values as Float32Array).map(() => 1e-20) },
    };
    const sub = await onGpu<Out>(OP, tiny);
    expect(sub.reason).toBe(REASONS.subnormal);
    expect(mismatch(sub.outputs.output, onJs<Out>(OP, tiny).output)).toBeUndefined();
    const over = {
      ...withA((v) => v.fill(3e38)),
      b: { ...args.b, values: (args.b.values as Float32Array).map(() => 4) },
    };
    const res = await onGpu<Out>(OP, over);
    expect(res.reason).toBe(REASONS.nonFiniteResult);
    expect(mismatch(res.outputs.output, onJs<Out>(OP, over).output)).toBeUndefined();
  });

  it('arguments the runtime would refuse run on the JS kernels (a direct call)', async () => {
    const args = spgemmArgs(700, 1, [4, 3, 5], {}, 0.5);
    const bad = { ...args, a: { ...args.a, colIndices: args.a.colIndices.map(() => 7) } };
    expect((await onGpu<Out>(OP, bad)).reason).toBe(REASONS.unchecked);
    expect((await onGpu<Out>(OP, { ...args, transpose_b: true })).reason).toBe(REASONS.unchecked);
  });

  it('a repeated call compiles no pipeline', async () => {
    const args = spgemmArgs(800, 2, [11, 7, 9], { transpose_a: true }, 0.4);
    await expectGpuMatchesJs(args);
    const compiled = backend.pipelinesCompiled();
    await expectGpuMatchesJs(args);
    expect(backend.pipelinesCompiled()).toBe(compiled);
  });
});
