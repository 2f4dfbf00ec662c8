/// <reference types="@webgpu/types" />
import {
  assembleKernels,
  delegate,
  delegation,
  type CsrData,
  type DType,
  type DenseData,
  type DeviceValues,
  type KernelResult,
  type SparseData,
} from '@sparse/kernel-abi';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { WebGpuContext } from './context.js';
import { openDevice } from './device.js';
import { REASONS } from './delegation.js';
import { familyKernels } from './families/index.js';
import { HAND_WRITTEN, JS_DISPATCHED } from './generated/kernel-table.js';
import type { Args, JsKernel, Kernel } from './kernel.js';
import { tiled } from './tiling/tiled.js';
import { atOnceKernels, type AtOnceKernel } from './resident/at-once.js';
import { PreparedArrays } from './resident/prepared.js';
import { DeviceArray } from './resident/device-array.js';
import { StructureCache } from './resident/structure-cache.js';
import { gradientAtOnceKernels } from './resident/gradients-at-once.js';
import { moveAtOnceKernels } from './resident/moves-at-once.js';

export { REASONS } from './delegation.js';
export { WebGpuContext } from './context.js';
export { noWebGpuMessage } from './device.js';

/** The least binding limit a backend takes: the radix sort's bucket counts (1 KiB) must fit in one binding. */
const MIN_BINDING_BYTES = 1024;

export interface WebGpuBackendOptions {
  /** A device to run on instead of opening one (TF.js's, say: `tf.backend().device` of its webgpu backend). */
  device?: GPUDevice;
  /** The adapter to ask for when opening one; default 'high-performance'. */
  powerPreference?: GPUPowerPreference;
  /**
   * The most bytes one buffer binding may hold: the device's `maxStorageBufferBindingSize` by default, or less (to
   * leave room beside another user of the device, say). A call with a larger buffer is tiled into calls that fit.
   */
  maxBindingBytes?: number;
}

export interface WebGpuBackend {
  name: 'webgpu';
  /** Its kernels return promises: the runtime runs them through `rt.runAsync` and `rt.sparseAsync`. */
  asynchronous: true;
  /** Every op by id. Each returns a promise: WebGPU reads results back asynchronously (`rt.runAsync`). */
  kernels: Record<string, Kernel>;
  /**
   * Every op by id, run at once (`rt.run`, the typed API): the family ops record their work on the GPU and leave
   * their results there (read by `await t.data()`), taking the results of others as they are; the rest run on the
   * JS kernels, saying so.
   */
  synchronousKernels: Record<string, AtOnceKernel>;
  /** The ops whose synchronous kernels take values left on the GPU. */
  deviceOps: ReadonlySet<string>;
  /** How many round trips have read buffers back: none while a chain of at-once calls runs. */
  readbacks(): number;
  /**
   * The bytes the GPU holds between calls (the runtime's `memory().residentBytes`): results not yet read or
   * disposed, and tensors kept prepared.
   */
  residentBytes(): number;
  /**
   * The most bytes the GPU may hold between calls, beside the call about to be made (the runtime's `maxBytes` less
   * that call's outputs and working memory): a result at once, or a tensor to prepare, that would pass it stays in
   * host memory (made on the JS kernels, and reported so).
   */
  limitResident(bytes: number): void;
  /** Keeps a tensor's values on the GPU (`rt.prepare`): the at-once kernels then bind them without an upload. */
  prepare(data: SparseData | DenseData | CsrData): void;
  /** Gives back what is kept for these arrays (a disposed tensor's). */
  forget(arrays: readonly object[]): void;
  /**
   * A buffer of this device taken as values (`rt.fromGPUBuffer`; a TF.js tensor's by `dataToGPU()`), not copied and
   * not screened: what the at-once kernels compute from it is WGSL's float32. `onRelease` runs once it is let go and
   * the work recorded on it is submitted.
   */
  adoptBuffer(buffer: unknown, dtype: DType, length: number, onRelease?: () => void): DeviceValues;
  /** Bytes uploaded to the GPU so far. */
  uploadedBytes(): number;
  readonly device: GPUDevice;
  /** The adapter the device is on, in words (its vendor, architecture and description). */
  readonly adapter: string;
  /** How many compute pipelines have been compiled: a later call of a kernel already seen compiles none. */
  pipelinesCompiled(): number;
  /** How many command buffers have been submitted: one per call that computes on the GPU. */
  submissions(): number;
  destroy(): void;
}

/**
 * The webgpu backend: WGSL compute kernels on a WebGPU device (the browser's `navigator.gpu`; in Node, Dawn's
 * `webgpu` package, an optional peer). Every op is here: generated from its spec's expressions, hand-written, or
 * run on the JS kernels, saying so (delegation.ts).
 */
export async function createWebGpuBackend(options: WebGpuBackendOptions = {}): Promise<WebGpuBackend> {
  const { maxBindingBytes } = options;
  if (maxBindingBytes !== undefined && !(Number.isInteger(maxBindingBytes) && maxBindingBytes >= MIN_BINDING_BYTES))
    throw new TypeError(
      `createWebGpuBackend: maxBindingBytes must be a whole number of bytes >= ${MIN_BINDING_BYTES}, got ${String(maxBindingBytes)}`,
    );
  const device = options.device ?? (await openDevice(options.powerPreference));
  const ctx = new WebGpuContext(device, maxBindingBytes);
  const families = familyKernels(ctx);
  const kernels = assembleKernels<WebGpuContext, Kernel>({
    js: jsKernels as unknown as Record<string, JsKernel>,
    context: ctx,
    family: (op, js) => families[op]?.(js as JsKernel),
    handWritten: HAND_WRITTEN,
    delegated: JS_DISPATCHED,
    delegate: (_op, js) => async (args) => delegate(js as JsKernel, args, REASONS.notPorted),
    wrap: (kernel, js, op) => serialized(ctx, tiled(ctx, op, kernel, js as JsKernel), js as JsKernel),
  });
  const js = jsKernels as unknown as Record<string, JsKernel>;
  const prepared = new PreparedArrays(ctx);
  const structures = new StructureCache(ctx);
  const atOnce = {
    ...atOnceKernels(ctx, prepared, structures, js),
    ...gradientAtOnceKernels(ctx, prepared, js),
    ...moveAtOnceKernels(ctx, prepared, structures, js),
  };
  const synchronousKernels: Record<string, AtOnceKernel> = {};
  for (const [op, kernel] of Object.entries(js))
    synchronousKernels[op] = atOnce[op] ?? ((args) => delegate(kernel, args, REASONS.atOnce));
  return {
    name: 'webgpu',
    asynchronous: true,
    kernels,
    synchronousKernels,
    deviceOps: new Set(Object.keys(atOnce)),
    readbacks: () => ctx.readbacks(),
    uploadedBytes: () => ctx.uploadedBytes,
    residentBytes: () => ctx.heldBytes,
    limitResident: (bytes) => {
      ctx.heldLimit = bytes;
    },
    prepare: (data) => prepared.keep(data),
    forget: (arrays) => {
      prepared.forget(arrays);
      structures.forget(arrays);
    },
    adoptBuffer: (buffer, dtype, length, onRelease) => adoptBuffer(ctx, buffer, dtype, length, onRelease),
    device,
    adapter: describeAdapter(device),
    pipelinesCompiled: () => ctx.pipelinesCompiled(),
    submissions: () => ctx.submissions(),
    destroy: () => ctx.destroy(),
  };
}

/** STORAGE: a buffer the kernels bind. */
const STORAGE_USAGE = 0x80;

function adoptBuffer(
  ctx: WebGpuContext,
  buffer: unknown,
  dtype: DType,
  length: number,
  onRelease?: () => void,
): DeviceArray {
  const b = buffer as Partial<GPUBuffer> | null;
  if (typeof b !== 'object' || b === null || typeof b.size !== 'number' || typeof b.usage !== 'number')
    throw new TypeError(`fromGPUBuffer: buffer must be a GPUBuffer of the runtime's device, got ${typeof buffer}`);
  if (dtype !== 'float32' && dtype !== 'int32')
    throw new TypeError(`fromGPUBuffer: the webgpu backend takes float32 and int32 buffers, not ${dtype}`);
  if (!(b.usage & STORAGE_USAGE))
    throw new TypeError('fromGPUBuffer: buffer must have GPUBufferUsage.STORAGE among its usages, to be bound');
  if (b.size < 4 * length)
    throw new TypeError(`fromGPUBuffer: buffer holds ${b.size} bytes, fewer than ${length} values of 4 bytes`);
  if (!ctx.fits(4 * length))
    throw new TypeError(`fromGPUBuffer: ${4 * length} bytes pass this device's binding limit (${ctx.maxBindingBytes})`);
  return DeviceArray.adopt(ctx, buffer as GPUBuffer, dtype, length, onRelease);
}

function describeAdapter(device: GPUDevice): string {
  const info = (device as GPUDevice & { adapterInfo?: GPUAdapterInfo }).adapterInfo;
  if (!info) return 'an adapter that does not describe itself';
  return [info.vendor, info.architecture, info.description].filter(Boolean).join(' ');
}

/**
 * One call at a time on the device, each inside its own error scope: a validation or out-of-memory error of the
 * GPU becomes this call's error (or, out of memory, a run on the JS kernels) rather than a result read from a buffer
 * nothing wrote.
 */
function serialized(ctx: WebGpuContext, kernel: Kernel, js: JsKernel): Kernel {
  return (args: Args) => {
    const run = ctx.queue.then(async (): Promise<KernelResult<Args>> => {
      // Work recorded by calls that ran at once goes first: this call may give up on what it records (tiling).
      ctx.submit();
      ctx.device.pushErrorScope('out-of-memory');
      ctx.device.pushErrorScope('validation');
      let result: KernelResult<Args> | undefined;
      let failure: unknown;
      try {
        result = await kernel(args);
      } catch (e) {
        failure = e;
      }
      const validation = await ctx.device.popErrorScope();
      const memory = await ctx.device.popErrorScope();
      if (validation) throw new Error(`webgpu: a kernel failed validation: ${validation.message}`);
      if (memory) return delegation(js(args), REASONS.outOfMemory(memory.message));
      if (failure !== undefined) throw failure;
      return result!;
    });
    ctx.queue = run.catch(() => undefined);
    return run;
  };
}
