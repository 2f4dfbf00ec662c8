import { describe, expect, it } from 'vitest';
import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/delegation.js';
import { WEBGPU_GRADIENTS } from '../src/generated/gradients.js';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';

// The derived gradients of the merge and reduce ops on WebGPU (SwiftShader in CI), against the JS kernels: float32
// values equal by bits (-0 included), the entry max/min picks at ties, prod through zeros, on seeded random inputs
// and edge cases; one submission a call that computes, none without entries.

type Outputs = Record<string, DenseData>;

useBackend();

const REDUCE = ['sum', 'prod'].flatMap((f) => [`sparse_reduce_${f}`, `sparse_reduce_${f}_sparse`]);
const MERGE = ['sparse_add', 'sparse_maximum', 'sparse_minimum'];

/** Runs the gradient on the GPU and on js: same outputs by bits, the delegation reason and the submissions as told. */
async function expectAsJs(op: string, args: Args, reason?: string, submits = 1): Promise<Outputs> {
  const before = backend.submissions();
  const got = await onGpu<Outputs>(op, args);
  const what = `${op} ${JSON.stringify(args, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float32Array) : v))}`;
  expect(got.reason, what).toBe(reason);
  if (reason === undefined) expect(backend.submissions() - before, what).toBe(submits);
  const want = onJs<Outputs>(op, args);
  expect(Object.keys(got.outputs).sort(), what).toEqual(Object.keys(want).sort());
  for (const [name, w] of Object.entries(want)) {
    const g = got.outputs[name];
    expect([g.kind, g.dtype, g.shape], `${what} ${name}`).toEqual([w.kind, w.dtype, w.shape]);
    expect(g.data.constructor, `${what} ${name}`).toBe(w.data.constructor);
    const bits = (d: DenseData) => Array.from(new Uint32Array((d.data as Float32Array).slice().buffer));
    if (w.dtype === 'float32') expect(bits(g), `${what} ${name}`).toEqual(bits(w));
    else expect(Array.from(g.data as Float64Array), `${what} ${name}`).toEqual(Array.from(w.data as Float64Array));
  }
  return got.outputs;
}

/** Whole numbers in [-2, 2], ±0 included: ties everywhere for max and min. */
const tied = (r: Rng) => {
  const v = r.int(5) - 2;
  return v === 0 && r.next() < 0.5 ? -0 : v;
};
/** Values for prod: magnitudes in [0.5, 2) of either sign, and some exact zeros of either sign. */
const prodValue = (r: Rng) => {
  const u = r.next();
  if (u < 0.1) return u < 0.05 ? 0 : -0;
  return (r.next() < 0.5 ? -1 : 1) * (0.5 + 1.5 * r.next());
};
const gradValue = (r: Rng) => (r.next() < 0.05 ? -0 : Math.fround(r.next() * 2 - 1));

/** `n` random positions of `shape` (any order, repeats unless `distinct`), or canonical and distinct. */
function positions(r: Rng, shape: number[], n: number, canonical: boolean): number[][] {
  const size = shape.reduce((p, d) => p * d, 1);
  let flats = Array.from({ length: n }, () => r.int(size));
  if (canonical) flats = [...new Set(flats)].sort((x, y) => x - y);
  return flats.map((f) => {
    const idx: number[] = [];
    for (let d = shape.length - 1; d >= 0; d--) {
      idx.unshift(f % shape[d]);
      f = Math.floor(f / shape[d]);
    }
    return idx;
  });
}

function randomSparse(r: Rng, shape: number[], n: number, value: (r: Rng) => number, canonical = true): SparseData {
  const idx = positions(r, shape, n, canonical);
  return sparse(
    idx,
    idx.map(() => value(r)),
    shape,
    'float32',
  );
}

/** grad for a call: one value per output value of the forward op (its stored values, or its dense data). */
function gradFor(forward: string, args: Args, r: Rng): DenseData {
  const out = Object.values(onJs<Record<string, SparseData | DenseData>>(forward, args))[0];
  const count = out.kind === 'sparse' ? out.values.length : out.data.length;
  const shape = out.kind === 'sparse' ? [count] : out.shape;
  return dense(
    Array.from({ length: count }, () => gradValue(r)),
    shape,
    'float32',
  );
}

describe('merge and reduce gradients on WebGPU', () => {
  it('are generated, and run here rather than on the JS kernels', () => {
    for (const op of [...REDUCE, ...MERGE].map((f) => `${f}_grad`)) {
      expect(WEBGPU_GRADIENTS[op]?.family, op).toBe(op.startsWith('sparse_reduce') ? 'reduce' : 'merge');
      expect('not' in WEBGPU_GRADIENTS[op].wgsl, op).toBe(false);
    }
  });

  for (const fwd of REDUCE) {
    it(`${fwd}_grad: float32 on the GPU, by bits as js (ties, ±0, zeros; any order, repeats)`, async () => {
      const r = rng(fwd.length * 104729 + fwd.charCodeAt(14));
      const value = fwd.includes('prod') ? prodValue : gradValue;
      const calls: [number[], number[] | null, boolean, number][] = [
        [[7], null, false, 5],
        [[6, 5], [1], true, 25],
        [[6, 5], [0], false, 25],
        [[3, 4, 5], [0, 2], false, 40],
        [[3, 4, 5], [-1], true, 40],
        // Several workgroups of groups, and long groups.
        [[300, 3], [1], false, 700],
        // prod: groups short enough that no product of them can be subnormal (the host's bound).
        fwd.includes('prod') ? [[8, 50], [1], false, 300] : [[4, 200], [1], false, 600],
      ];
      for (const [shape, axis, keepdims, n] of calls)
        for (const canonical of [true, false]) {
          const sp = randomSparse(r, shape, n, value, canonical);
          const args: Args = { sp_input: sp, axis, keepdims };
          args.grad = gradFor(fwd, args, r);
          await expectAsJs(`${fwd}_grad`, args);
        }
    });
  }

  for (const fwd of ['max', 'min', 'max_sparse', 'min_sparse'].map((f) => `sparse_reduce_${f}`)) {
    it(`${fwd}_grad: the entry holding each group's output gets grad on the GPU, ties run on js`, async () => {
      const r = rng(fwd.length * 7919 + fwd.charCodeAt(15));
      // Distinct values (a continuous draw): no ties, computed here, by bits as js (zeros of grad's sign).
      for (const [shape, axis, keepdims, n] of [
        [[7], null, false, 5],
        [[6, 5], [1], true, 25],
        [[3, 4, 5], [0, 2], false, 40],
        [[300, 3], [1], false, 700],
      ] as [number[], number[] | null, boolean, number][])
        for (const canonical of [true, false]) {
          const sp = randomSparse(r, shape, n, (q) => Math.fround(q.next() * 4 - 2), canonical);
          const distinct = { ...sp, values: Float32Array.from(sp.values as Float32Array, (v, i) => v + i * 4) };
          const args: Args = { sp_input: distinct, axis, keepdims };
          args.grad = gradFor(fwd, args, r);
          await expectAsJs(`${fwd}_grad`, args);
        }
      // A group whose output two values hold (0 and -0 among them): js splits its grad, so it runs there.
      for (const values of [
        [1, 3, 3, -1],
        [0, -0, -1, -2],
      ]) {
        const args: Args = {
          sp_input: sparse([[0], [1], [2], [3]], fwd.includes('min') ? values.map((v) => -v) : values, [4], 'float32'),
          axis: null,
          keepdims: false,
        };
        args.grad = gradFor(fwd, args, r);
        await expectAsJs(`${fwd}_grad`, args, REASONS.ties);
      }
    });
  }

  it('reduce prod: a stored zero passes 0 back, the zero itself gets the product of the others', async () => {
    const sp = sparse([[0], [1], [2], [3]], [2, -0, 3, 4], [4], 'float32');
    const out = await expectAsJs('sparse_reduce_prod_grad', {
      sp_input: sp,
      axis: null,
      keepdims: false,
      grad: dense([1], [], 'float32'),
    });
    expect(Array.from(out.sp_input_grad.data)).toEqual([-0, 24, -0, -0]);
  });

  it('merge of two sparse operands: the kept entries numbered, ties to the first, by bits as js', async () => {
    const r = rng(9173);
    for (const fwd of MERGE) {
      for (const [shape, n] of [
        [[9], 5],
        [[6, 5], 20],
        [[3, 4, 5], 40],
        [[40, 30], 900],
      ] as [number[], number][]) {
        const value = fwd === 'sparse_add' ? (q: Rng) => Math.fround(q.next() * 4 - 2) : tied;
        const a = randomSparse(r, shape, n, value);
        const b = randomSparse(r, shape, n, value);
        const threshes = fwd === 'sparse_add' ? [0, 0.75] : [undefined];
        for (const thresh of threshes) {
          const args: Args = fwd === 'sparse_add' ? { a, b, thresh: Math.fround(thresh!) } : { sp_a: a, sp_b: b };
          args.grad = gradFor(fwd, args, r);
          await expectAsJs(`${fwd}_grad`, args);
        }
      }
    }
  });

  it('sparse_add with a dense operand: repeats and any order, on either side', async () => {
    const r = rng(31);
    for (const shape of [[7], [6, 5], [3, 4, 5], [50, 40]]) {
      const size = shape.reduce((p, d) => p * d, 1);
      const sp = randomSparse(r, shape, Math.min(2 * size, 300), (q) => Math.fround(q.next() - 0.5), false);
      const dn = dense(
        Array.from({ length: size }, () => Math.fround(r.next())),
        shape,
        'float32',
      );
      for (const sparseIsA of [true, false]) {
        const args: Args = { a: sparseIsA ? sp : dn, b: sparseIsA ? dn : sp, thresh: 0 };
        args.grad = gradFor('sparse_add', args, r);
        await expectAsJs('sparse_add_grad', args);
      }
    }
  });

  it('no entries: nothing submitted', async () => {
    const empty = sparse([], [], [4, 3], 'float32');
    await expectAsJs(
      'sparse_reduce_prod_grad',
      { sp_input: empty, axis: [1], keepdims: false, grad: dense([1, 2, 3, 4], [4], 'float32') },
      undefined,
      0,
    );
    await expectAsJs(
      'sparse_maximum_grad',
      { sp_a: empty, sp_b: empty, grad: dense([], [0], 'float32') },
      undefined,
      0,
    );
    await expectAsJs(
      'sparse_add_grad',
      {
        a: empty,
        b: dense([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [4, 3], 'float32'),
        thresh: 0,
        grad: dense(new Array(12).fill(0.5), [4, 3], 'float32'),
      },
      undefined,
      0,
    );
  });

  it('delegates what the GPU does not compute as js does, saying why', async () => {
    const sp = sparse([[0], [2], [3]], [1, Number.NaN, 2], [4], 'float32');
    const grad = dense([1], [], 'float32');
    await expectAsJs('sparse_reduce_sum_grad', { sp_input: sp, axis: null, keepdims: false, grad }, REASONS.nonFinite);
    const tiny = sparse([[0], [1]], [1e-20, 1e-20], [2], 'float32');
    await expectAsJs(
      'sparse_reduce_prod_grad',
      { sp_input: tiny, axis: null, keepdims: false, grad },
      REASONS.subnormal,
    );
    const f64 = sparse([[0], [1]], [1, 2], [2], 'float64');
    await expectAsJs(
      'sparse_reduce_sum_grad',
      { sp_input: f64, axis: null, keepdims: false, grad: dense([1], [], 'float64') },
      REASONS.notComputed('float64'),
    );
  });

  it('a grad of the wrong length fails as js fails', async () => {
    const a = sparse([[0], [1]], [1, 2], [3], 'float32');
    const b = sparse([[1], [2]], [-1, 0.5], [3], 'float32');
    // sparse_add drops an entry both hold where |a + b| < 2.5: [1] (1) is, so two grads, not three.
    const bad: Args = { a, b, thresh: 2.5, grad: dense([1, 2, 3], [3], 'float32') };
    expect(() => onJs('sparse_add_grad', bad)).toThrow();
    await expect(onGpu('sparse_add_grad', bad)).rejects.toThrow();
    await expectAsJs('sparse_add_grad', { ...bad, grad: dense([1, 2], [2], 'float32') });
    // No entries at all, yet grad has values: js refuses it.
    const empty = sparse([], [], [3], 'float32');
    const none: Args = { a: empty, b: empty, thresh: 0.25, grad: dense([0, 0], [2], 'float32') };
    expect(() => onJs('sparse_add_grad', none)).toThrow();
    await expect(onGpu('sparse_add_grad', none)).rejects.toThrow();
    const sum: Args = { sp_input: a, axis: [0], keepdims: false, grad: dense([1, 2], [2], 'float32') };
    await expect(onGpu('sparse_reduce_sum_sparse_grad', sum)).rejects.toThrow();
  });
});
