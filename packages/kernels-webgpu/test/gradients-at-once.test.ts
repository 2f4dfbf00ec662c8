import { describe, expect, it } from 'vitest';
import { isDelegation, type DenseData, type SparseData } from '@sparse/kernel-abi';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { WEBGPU_GRADIENTS, type WebGpuGradientSource } from '../src/generated/gradients.js';
import { DeviceArray } from '../src/resident/device-array.js';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';

// The derived gradients of the map, cwise and reduce ops called at once (rt.vjp on webgpu): recorded on the GPU,
// their results left there, and read back bit for bit what the asynchronous kernel gives (the same WGSL), or what
// the JS kernel gives where that kernel runs there (a tie of a max, inputs the GPU does not take).

useBackend();

type Outputs = Record<string, DenseData>;
const bits = (v: ArrayLike<number>) => Array.from(new Uint32Array(Float32Array.from(v).buffer));

/** The at-once outputs read, beside the asynchronous kernel's (or, where it ran on the JS kernels, js's). */
async function compare(op: string, args: Args) {
  const submitted = backend.submissions();
  const result = backend.synchronousKernels[op](args);
  expect(backend.submissions(), 'nothing submitted at once').toBe(submitted);
  const onDevice = !isDelegation(result);
  const async = await onGpu<Outputs>(op, args);
  const want = async.outputs;
  for (const [name, w] of Object.entries(want)) {
    const got = (onDevice ? (result as Args)[name] : result.outputs[name]) as DenseData;
    expect(got.shape, `${op} ${name}`).toEqual(w.shape);
    const data = got.data instanceof DeviceArray ? await got.data.read() : got.data;
    expect(bits(data as Float32Array), `${op} ${name}`).toEqual(bits(w.data as Float32Array));
  }
  return { onDevice, asyncReason: async.reason };
}

const draw = (r: ReturnType<typeof rng>, n: number, lo = 0.2, hi = 0.8) =>
  Array.from({ length: n }, () => lo + (hi - lo) * r.next());

describe('map and cwise gradients at once', () => {
  for (const [op, src] of Object.entries(WEBGPU_GRADIENTS)) {
    if (src.family !== 'map' && src.family !== 'cwise') continue;
    it(op, async () => {
      const s = src as WebGpuGradientSource;
      const r = rng(op.length * 104729);
      for (const shape of s.roles.dense ? [[6, 5], [5], [6, 1]] : [[]]) {
        const n = 40;
        const indices = Array.from({ length: n }, () => [r.int(6), r.int(5)]);
        const args: Args = { [s.roles.sparse!]: sparse(indices, draw(r, n), [6, 5], 'float32') };
        if (s.roles.dense)
          args[s.roles.dense] = dense(
            draw(
              r,
              shape.reduce((a, b) => a * b, 1),
              0.5,
              2,
            ),
            shape,
            'float32',
          );
        args.grad = dense(draw(r, n, -1, 1), [n], 'float32');
        const { onDevice, asyncReason } = await compare(op, args);
        // Where the asynchronous kernel runs on the GPU, so does this one.
        if (asyncReason === undefined) expect(onDevice, op).toBe(true);
      }
    });
  }
});

describe('reduce gradients at once', () => {
  const CALLS: [string, (r: ReturnType<typeof rng>) => number][] = [
    ['sparse_reduce_sum', (r) => r.next() * 2 - 1],
    ['sparse_reduce_sum_sparse', (r) => r.next() * 2 - 1],
    ['sparse_reduce_prod', (r) => (r.next() < 0.5 ? -1 : 1) * (0.5 + r.next())],
    ['sparse_reduce_max', (r) => r.int(5) - 2], // whole numbers: ties, made on the JS kernels when read
    ['sparse_reduce_min_sparse', (r) => r.next()],
  ];
  for (const [fwd, value] of CALLS) {
    it(`${fwd}_grad`, async () => {
      const r = rng(fwd.length * 7919);
      for (const [axis, keepdims] of [
        [[1], false],
        [[0], true],
        [null, false],
      ] as const) {
        const flats = [...new Set(Array.from({ length: 20 }, () => r.int(30)))].sort((a, b) => a - b);
        const sp = sparse(
          flats.map((f) => [Math.floor(f / 5), f % 5]),
          flats.map(() => value(r)),
          [6, 5],
          'float32',
        );
        const out = onJs<{ output: DenseData | SparseData }>(fwd, { sp_input: sp, axis, keepdims }).output;
        const groups = out.kind === 'dense' ? out.data.length : out.values.length;
        const args = { sp_input: sp, axis, keepdims, grad: dense(draw(r, groups, -1, 1), [groups], 'float32') };
        const { onDevice } = await compare(`${fwd}_grad`, args);
        expect(onDevice, `${fwd} axis ${String(axis)}`).toBe(true);
      }
    });
  }
});

it('a gradient takes its upstream where the forward op left it, on the GPU', async () => {
  const sp = sparse(
    [
      [0, 1],
      [2, 3],
      [4, 0],
    ],
    [0.5, 0.25, 0.75],
    [6, 5],
    'float32',
  );
  const up = backend.synchronousKernels.sparse_square({ sp_input: sp }) as Args;
  const upValues = (up.output as SparseData).values as unknown as DeviceArray;
  const grad: DenseData = { kind: 'dense', data: upValues as never, shape: [3], dtype: 'float32' };
  const result = backend.synchronousKernels.sparse_neg_grad({ sp_input: sp, grad }) as Args;
  const got = (result.sp_input_grad as DenseData).data as unknown as DeviceArray;
  expect(got.buffer).toBeDefined();
  const want = onJs<Outputs>('sparse_neg_grad', { sp_input: sp, grad: dense([0.25, 0.0625, 0.5625], [3], 'float32') });
  expect(bits(await got.read())).toEqual(bits(want.sp_input_grad.data as Float32Array));
});
