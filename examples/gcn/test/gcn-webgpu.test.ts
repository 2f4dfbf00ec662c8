import * as tf from '@tensorflow/tfjs';
import { beforeAll, expect, it } from 'vitest';
import { Runtime } from '@sparse/runtime';
import { createWebGpuBackend, type WebGpuBackend } from '@sparse/kernels-webgpu';
import { tfjsOnWebGpu } from '@sparse/test-kit/tfjs-webgpu';
import { FACTIONS, MEMBERS } from '../karate.mjs';
import { karateProblem, trainKarate } from '../karate-gcn.mjs';
import { train } from '../gcn.mjs';

// The GCN with every op on the GPU: TF.js on its webgpu backend (Dawn in Node; SwiftShader without a GPU) and
// sparse's webgpu backend on TF.js's own device, so the sparse products and their gradients take TF.js's tensors as
// buffers and give theirs back the same way, with nothing read back to the host by sparse.

let gpu: WebGpuBackend;
let runtime: Runtime;

beforeAll(async () => {
  gpu = await createWebGpuBackend({ device: await tfjsOnWebGpu() });
  runtime = new Runtime(gpu);
}, 60_000);

it('trains to the factions of the karate club on one GPU device, sparse reading nothing back', async () => {
  const read = gpu.readbacks();
  const { accuracy, losses } = await trainKarate({ runtime });
  expect(tf.getBackend()).toBe('webgpu');
  expect(gpu.readbacks() - read).toBe(0);
  expect(accuracy).toBeGreaterThanOrEqual(33 / 34);
  expect(losses.at(-1)!).toBeLessThan(losses[0] / 10);
  // What stays on the GPU is the adjacency's structure (190 entries), grouped by rows and by columns for the next call.
  expect(gpu.residentBytes()).toBeLessThanOrEqual(2 * 4 * (MEMBERS + 1 + 2 * 190));
}, 120_000);

it('from the two leaders alone, to at least 90% of the others', async () => {
  const problem = karateProblem();
  const { predictions } = await train({ ...problem, trainNodes: [0, 33], epochs: 200, runtime });
  expect(predictions.filter((c: number, i: number) => c === FACTIONS[i]).length / MEMBERS).toBeGreaterThanOrEqual(0.9);
  tf.dispose([problem.x, problem.model.w1, problem.model.w2]);
}, 120_000);
