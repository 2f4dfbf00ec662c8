import type { DType, Values } from './generated/kernel-types.js';

/**
 * Values that a backend keeps on its device (a GPU buffer) rather than in host memory: what a tensor holds in place
 * of its values after an op that ran there, until they are read. Only the backend that made them takes them as a
 * kernel argument; anywhere else they are read first (`await t.data()`), or the call says to.
 */
export interface DeviceValues {
  readonly kind: 'device';
  readonly dtype: DType;
  readonly length: number;
  /** The name of the backend that holds them. */
  readonly backend: string;
  /** The values, read back to host memory (every call gives the same array). */
  read(): Promise<Values>;
  /** Gives the device memory back now; reading afterwards is an error. */
  release(): void;
  /**
   * The buffer that holds them, with the work recorded on it submitted, for another user of the same device
   * (TF.js's `tf.tensor({ buffer }, shape)`); undefined where they are not held in one (made when read).
   */
  gpuBuffer?(): unknown;
}

/** Whether a tensor's values (or a dense tensor's data) are held on a device. */
export function isDeviceValues(x: unknown): x is DeviceValues {
  return typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'device';
}
