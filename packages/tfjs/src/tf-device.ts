import * as tf from '@tensorflow/tfjs-core';
import { SparseTensor, type Runtime, type Tensor } from '@sparse/runtime';
import type { TfSparseTensor } from './conversions.js';

// Tensors that pass between TF.js and sparse on one GPU device, as buffers: where TF.js runs on its webgpu backend
// and the runtime's backend is webgpu on TF.js's own GPUDevice (`createWebGpuBackend({ device: tf.backend().device })`),
// nothing is read back to the host on the way in or out.

/** Whether `rt` runs on the GPU device of TF.js's current backend (webgpu, `tf.backend().device`). */
export function sharesTfDevice(rt: Runtime): boolean {
  const device = rt.gpuDevice;
  if (device === undefined || tf.getBackend() !== 'webgpu') return false;
  return (tf.backend() as unknown as { device?: unknown }).device === device;
}

/**
 * A float32 or int32 TF.js tensor as a Tensor whose values are a buffer of the device: TF.js's `dataToGPU()` (a copy
 * TF.js makes on the GPU, let go with the Tensor). Undefined where TF.js holds its values on the host (a tensor no
 * kernel has used yet), or another dtype: those convert as any TF.js tensor does (fromTf).
 */
export function tensorOnDevice(rt: Runtime, x: tf.Tensor): Tensor | undefined {
  if (x.dtype !== 'float32' && x.dtype !== 'int32') return undefined;
  let data: { buffer?: unknown; tensorRef: tf.Tensor };
  try {
    data = x.dataToGPU() as typeof data;
  } catch {
    return undefined; // "Data is not on GPU but on CPU": dataSync reads it at no cost
  }
  if (data.buffer === undefined) {
    data.tensorRef.dispose();
    return undefined;
  }
  return rt.fromGPUBuffer(data.buffer, x.shape, x.dtype, { onRelease: () => data.tensorRef.dispose() });
}

/**
 * A result whose values live on the device (a Tensor, or a SparseTensor's values) as a TF.js tensor of `shape`:
 * TF.js copies the buffer into one of its own, on the GPU, and the result is let go.
 */
export function tfFromDevice(t: Tensor | SparseTensor, shape: readonly number[]): tf.Tensor {
  const { buffer } = t.dataToGPU();
  const out = tf.tensor({ buffer } as never, [...shape], t.dtype as 'float32' | 'int32');
  t.dispose();
  return out;
}

/**
 * A TfSparseTensor whose values are a buffer of the device (tensorOnDevice) as a SparseTensor holding them there, its
 * indices read as TF.js holds them; undefined where its values are not on the GPU.
 */
export function sparseOnDevice(rt: Runtime, st: TfSparseTensor): { sparse: SparseTensor; values: Tensor } | undefined {
  const values = tensorOnDevice(rt, st.values);
  if (!values) return undefined;
  const [nnz, rank] = st.indices.shape;
  const shape = [...st.denseShape];
  const structure = new SparseTensor(st.indices.dataSync() as Int32Array, new Float32Array(nnz), shape, 'float32');
  if (rank !== shape.length)
    throw new TypeError(`sparseFromTf: indices are [${nnz}, ${rank}] for a rank ${shape.length} tensor`);
  return { sparse: structure.withValues(values), values };
}
