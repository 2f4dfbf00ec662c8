import { isDeviceValues } from '@sparse/kernel-abi';
import { InvalidArgumentError } from './errors.js';

/**
 * The GPU buffer that holds a tensor's values (`dataToGPU()`), with the work recorded on it submitted; or an error
 * that says where the values are instead.
 */
export function gpuBufferOf(values: unknown, what: string): { buffer: unknown } {
  const buffer = isDeviceValues(values) ? values.gpuBuffer?.() : undefined;
  if (buffer !== undefined) return { buffer };
  throw new InvalidArgumentError(
    isDeviceValues(values)
      ? `${what}: its values are made on the JS kernels when read, not held in a GPU buffer: await t.data()`
      : `${what}: its values are in host memory, not on a GPU device (the webgpu backend's results of the ops it runs at once are, and rt.fromGPUBuffer tensors)`,
  );
}
