import * as tf from '@tensorflow/tfjs-core';
// tfjs-core alone registers no gradients of its own ops (the @tensorflow/tfjs package does this).
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-backend-cpu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, Runtime, type Runtime as RuntimeType } from '@sparse/runtime';
import { createWebGpuBackend, type WebGpuBackend } from '@sparse/kernels-webgpu';
import { tfjsOnWebGpu } from '@sparse/test-kit/tfjs-webgpu';
import { sparseDenseMatmul, sparseReduceSum, sparseSoftmax, sparseSquare, sparseToTf } from '../src/index.js';
import { smallMatrix } from './fixtures/small-matrix.js';

// TF.js on its webgpu backend and sparse's webgpu backend on TF.js's own GPUDevice: tensors pass between them as
// GPU buffers, forward and backward, with nothing read back to the host by sparse.

let gpu: WebGpuBackend;
let runtime: RuntimeType;

beforeAll(async () => {
  const device = await tfjsOnWebGpu();
  gpu = await createWebGpuBackend({ device });
  runtime = new Runtime(gpu);
}, 60_000);
afterAll(async () => {
  await tf.setBackend('cpu');
});

const A = smallMatrix;

/** A TF.js tensor made on the GPU (a kernel's result), as a model's activations are. */
const onGpu = (rows: number[][]) => tf.mul(tf.tensor2d(rows), tf.scalar(1));

describe('TF.js webgpu and sparse webgpu on one device', () => {
  it('shares the device', () => {
    expect(runtime.gpuDevice).toBe((tf.backend() as unknown as { device: unknown }).device);
  });

  it('sparseDenseMatmul takes a TF.js tensor on the GPU and gives one back, reading nothing back', async () => {
    const x = onGpu([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    const read = gpu.readbacks();
    const uploaded = gpu.uploadedBytes();
    const held = gpu.residentBytes();
    const y = sparseDenseMatmul(A(), x, { runtime });
    expect(gpu.readbacks() - read).toBe(0);
    // Only A's structure and values, and the kernel's parameters, went up: not x.
    expect(gpu.uploadedBytes() - uploaded).toBeLessThan(4 * 6 + 64);
    expect(await y.array()).toEqual([
      [11, 14],
      [9, 12],
    ]);
    // What stays is A's structure, grouped by rows for the next call (until A is collected): 3 row offsets, 3 + 3 entries.
    expect(gpu.residentBytes() - held).toBe(4 * (3 + 2 * 3));
  });

  it('tf.grad through it: the dense operand gets Aᵀ · dy, computed on the GPU', async () => {
    const x = onGpu([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    const read = gpu.readbacks();
    const f = (t: tf.Tensor) => tf.sum(tf.square(sparseDenseMatmul(A(), t, { runtime })));
    const g = tf.grad(f)(x);
    expect(gpu.readbacks() - read).toBe(0);
    // d/dx sum((A x)²) = 2 Aᵀ (A x).
    expect(await g.array()).toEqual([
      [22, 28],
      [54, 72],
      [44, 56],
    ]);
  });

  it("a TfSparseTensor's values get theirs too (the sampled products), and element-wise ops chain", async () => {
    const sp = sparseToTf(A());
    const x = onGpu([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    const f = (v: tf.Tensor) => tf.sum(sparseDenseMatmul({ ...sp, values: v as tf.Tensor1D }, x, { runtime }));
    // Entry (r, c) gets the sum over j of dy[r, j] · x[c, j], dy all ones: the sums of x's rows 0, 2 and 1.
    expect(await tf.grad(f)(sp.values).array()).toEqual([3, 11, 7]);
    expect(await sparseSquare(sp, { runtime }).values.array()).toEqual([1, 4, 9]);
  });

  it("the reductions' and element-wise ops' gradients run there too, reading nothing back", async () => {
    const sp = sparseToTf(A());
    const read = gpu.readbacks();
    const f = (v: tf.Tensor) =>
      tf.sum(
        tf.mul(
          sparseReduceSum(sparseSquare({ ...sp, values: v as tf.Tensor1D }, { runtime }), { axis: 1, runtime }),
          2,
        ),
      );
    const g = tf.grad(f)(sp.values);
    expect(gpu.readbacks() - read).toBe(0);
    // d/dv 2 Σ v² = 4v.
    expect(await g.array()).toEqual([4, 8, 12]);
  });

  it('a gradient op with no kernel there that takes GPU values says what to do, in Node', () => {
    const sp = sparseToTf(A());
    const f = (v: tf.Tensor) =>
      tf.sum(tf.mul(sparseSoftmax({ ...sp, values: v as tf.Tensor1D }, { runtime }).values, tf.tensor1d([1, 2, 3])));
    expect(() => tf.grad(f)(sp.values)).toThrow(
      /fromTf: TF.js's webgpu backend reads a tensor at once only in a browser.*await x\.data\(\)/,
    );
  });

  it('trains a weight through it with Adam as on the CPU, holding no more on the GPU from step to step', async () => {
    const held: number[] = [];
    const trainOn = async (rt: RuntimeType) => {
      const a = A();
      const w = tf.variable(tf.tensor2d([[0.5], [-0.25], [0.75]]));
      const target = tf.tensor2d([[1], [2]]);
      const adam = tf.train.adam(0.1);
      const losses: number[] = [];
      for (let step = 0; step < 40; step++) {
        const l = tf.tidy(() =>
          adam.minimize(() => tf.losses.meanSquaredError(target, sparseDenseMatmul(a, w, { runtime: rt })), true),
        );
        losses.push((await l!.data())[0]);
        if (rt === runtime) held.push(gpu.residentBytes());
        l!.dispose();
      }
      tf.dispose([w, target]);
      adam.dispose();
      return losses;
    };
    const read = gpu.readbacks();
    const onDevice = await trainOn(runtime);
    expect(gpu.readbacks() - read).toBe(0);
    // Never more than after the first step (less where the collector took what earlier tests left).
    expect(Math.max(...held)).toBe(held[0]);
    await tf.setBackend('cpu');
    const onCpu = await trainOn(await createRuntime({ backend: 'js' }));
    await tf.setBackend('webgpu');
    expect(onDevice.at(-1)!).toBeLessThan(onDevice[0] / 10);
    onDevice.forEach((l, k) => expect(l).toBeCloseTo(onCpu[k], 4));
  });
});

describe('a webgpu runtime TF.js does not share', () => {
  it('is refused with the way to share it, not read in silence', async () => {
    await tf.setBackend('cpu');
    const own = await createRuntime({ backend: 'webgpu' });
    expect(() => sparseDenseMatmul(A(), tf.ones([3, 2]), { runtime: own })).toThrow(
      /left its result on a GPU that TF.js's cpu backend does not share.*createWebGpuBackend\(\{ device: tf.backend\(\).device \}\)/,
    );
    await tf.setBackend('webgpu');
  });
});
