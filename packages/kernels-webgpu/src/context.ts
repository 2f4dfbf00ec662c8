/// <reference types="@webgpu/types" />
import { BindingLimitError } from './tiling/binding-limit.js';

/** The typed arrays a kernel uploads: 4-byte elements, as WGSL's f32, i32 and u32. */
export type Words = Float32Array | Int32Array | Uint32Array;

/** Threads per workgroup of every one-dimensional kernel. */
export const WORKGROUP = 64;

/**
 * The WGSL a one-dimensional kernel starts with: its entry point over `WORKGROUP` threads a group, with `i` the
 * thread's flat index. Dispatches past `maxComputeWorkgroupsPerDimension` groups wrap into a second dimension
 * (`grid`), so `i` counts across both; a kernel returns where `i` passes its count.
 */
export const ENTRY = `@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = gid.x + gid.y * groups.x * ${WORKGROUP}u;`;

const STORAGE = 0x80 | 0x04 | 0x08; // GPUBufferUsage.STORAGE | COPY_SRC | COPY_DST (the globals load with Dawn)
const READBACK = 0x01 | 0x08; // GPUBufferUsage.MAP_READ | COPY_DST

/** Options of one dispatch. */
export interface Dispatch {
  /** The WGSL module (its entry point `main`); compiled once per source and cached. */
  code: string;
  /** Storage buffers bound at @group(0) @binding(0…) in order. */
  buffers: readonly GPUBuffer[];
  /** How many threads (one-dimensional kernels: each reads `i`, see ENTRY). */
  threads: number;
}

/** Idle buffers kept for reuse, at most this many bytes (beyond it a released buffer is destroyed). */
const POOL_BYTES = 256 * 2 ** 20;

/**
 * The most compute passes left recorded by calls that run at once before they are submitted: a loop that never reads
 * would otherwise hold every pass, its bind groups and the uploads it waits on until its first read. A chain shorter
 * than this is still one submission.
 */
export const MAX_RECORDED_PASSES = 64;

/**
 * One GPU device and what the webgpu backend keeps on it: compute pipelines cached by their WGSL source, the
 * command encoder that dispatches are recorded into until a result is read (one submission a kernel call, however
 * many passes it runs), and a pool of buffers by power-of-two size. Buffers are the kernel's to release once read:
 * released buffers are kept for the next call rather than destroyed, which spares an allocation a call and keeps
 * Dawn's buffer objects alive (Dawn 0.6 in Node can crash when the garbage collector takes destroyed buffers).
 */
export class WebGpuContext {
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  /** Idle buffers by usage and size class. */
  private readonly idle = new Map<string, GPUBuffer[]>();
  private idleBytes = 0;
  /** The bytes each buffer in use was asked for: what a kernel binds (`arrayLength` sees) and reads. */
  private readonly asked = new WeakMap<GPUBuffer, number>();
  private encoder: GPUCommandEncoder | undefined;
  private compiled = 0;
  private submitted = 0;
  private readBack = 0;
  /** The bytes held on the device between calls: results not yet read or released, tensors kept prepared. */
  heldBytes = 0;
  /**
   * The most bytes held between calls may reach and leave room for the call being made (the runtime's `maxBytes` less
   * that call's own outputs and working memory, set before each call): a result or a prepared tensor that would pass
   * it is kept in host memory instead.
   */
  heldLimit = Infinity;
  /** Compute passes recorded since the last submission. */
  private recorded = 0;
  /** Whether work left on the device by a call made at once is among what is recorded (never to be discarded). */
  private resultsRecorded = false;
  /** Bytes uploaded so far. */
  uploadedBytes = 0;
  /** Buffers that recorded work still uses: given back once it is submitted. */
  private pending: GPUBuffer[] = [];
  /** What to run once recorded work is submitted (afterSubmit). */
  private afterSubmitted: (() => void)[] = [];
  /** The call in flight: calls run one after another (index.ts). */
  queue: Promise<unknown> = Promise.resolve();
  /** The largest buffer a kernel may bind, in bytes: the device's limit, or a lower one the backend was given. */
  readonly maxBindingBytes: number;
  /** The most workgroups one dispatch dimension may have. */
  readonly maxGroups: number;

  constructor(
    readonly device: GPUDevice,
    maxBindingBytes = Infinity,
  ) {
    const { maxStorageBufferBindingSize, maxBufferSize } = device.limits;
    // A multiple of 4: every buffer is.
    this.maxBindingBytes = Math.floor(Math.min(maxStorageBufferBindingSize, maxBufferSize, maxBindingBytes) / 4) * 4;
    this.maxGroups = device.limits.maxComputeWorkgroupsPerDimension;
  }

  /** A storage buffer holding `data` (at least 4 bytes: WebGPU has no empty binding). */
  upload(data: Words): GPUBuffer {
    const buffer = this.take(STORAGE, data.byteLength);
    if (data.byteLength) this.device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
    this.uploadedBytes += data.byteLength;
    return buffer;
  }

  /** A zeroed storage buffer of `bytes` (rounded up to 4, at least 4). */
  buffer(bytes: number): GPUBuffer {
    const buffer = this.take(STORAGE, bytes);
    this.encoder ??= this.device.createCommandEncoder();
    this.encoder.clearBuffer(buffer, 0, this.asked.get(buffer));
    return buffer;
  }

  /**
   * A buffer of `usage` for `bytes` (rounded up to 4, at least 4): an idle one of its size class, or a new one.
   * Past the binding limit a BindingLimitError: the call is tiled (tiling/tiled.ts), whatever its kernel checked.
   */
  private take(usage: number, bytes: number, exact = false): GPUBuffer {
    const size = Math.max(4, Math.ceil(bytes / 4) * 4);
    if (size > this.maxBindingBytes) throw new BindingLimitError(this.maxBindingBytes);
    // A size class past the limit would be a buffer the device may not create or bind. An exact one is its own class.
    const cls = exact ? size : Math.min(2 ** Math.ceil(Math.log2(Math.max(size, 256))), this.maxBindingBytes);
    const buffer = this.idle.get(`${usage}:${cls}`)?.pop();
    if (buffer) this.idleBytes -= cls;
    const b = buffer ?? this.device.createBuffer({ size: cls, usage });
    this.asked.set(b, size);
    return b;
  }

  /**
   * A storage buffer of exactly `bytes` holding the first `bytes` of `src`, recorded as a copy: for a user of the
   * device that takes a buffer's whole size as its values (TF.js's `tf.tensor({ buffer })`).
   */
  exactCopy(src: GPUBuffer, bytes: number): GPUBuffer {
    const dst = this.take(STORAGE, bytes, true);
    this.encoder ??= this.device.createCommandEncoder();
    this.encoder.copyBufferToBuffer(src, 0, dst, 0, dst.size);
    return dst;
  }

  /** Records a copy of `bytes` from `src` at `from` into `dst` at `to` (in order with the passes recorded around it). */
  copyInto(src: GPUBuffer, from: number, dst: GPUBuffer, to: number, bytes: number): void {
    if (bytes === 0) return;
    this.encoder ??= this.device.createCommandEncoder();
    this.encoder.copyBufferToBuffer(src, from, dst, to, bytes);
  }

  /** Whether a buffer of `bytes` can be bound. */
  fits(bytes: number): boolean {
    return bytes <= this.maxBindingBytes;
  }

  /** A BindingLimitError unless every buffer of `bytes` can be bound: checked before a kernel's host work. */
  ensureFits(...bytes: number[]): void {
    if (!bytes.every((b) => this.fits(b))) throw new BindingLimitError(this.maxBindingBytes);
  }

  /** The bytes more that may be held between calls (negative where more is held than `heldLimit` leaves). */
  roomLeft(): number {
    return this.heldLimit - this.heldBytes;
  }

  /**
   * Drops what was recorded and not submitted: a call given up part way (tiled, or run elsewhere). Where calls made at
   * once recorded into the same encoder (between the awaits of an asynchronous call), it is submitted instead: their
   * results are computed there, and the given-up passes only cost their time.
   */
  discardRecorded(): void {
    if (this.resultsRecorded) return this.submit();
    this.encoder = undefined;
    this.recorded = 0;
    const unused = this.pending;
    this.pending = [];
    this.release(...unused);
    const then = this.afterSubmitted;
    this.afterSubmitted = [];
    for (const f of then) f();
  }

  /** Records one compute pass; nothing runs until a read submits it. */
  dispatch({ code, buffers, threads }: Dispatch): void {
    if (threads <= 0) return;
    const pipeline = this.pipeline(code);
    const bindGroup = this.device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer, size: this.asked.get(buffer) } })),
    });
    this.encoder ??= this.device.createCommandEncoder();
    const pass = this.encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    const [x, y] = this.grid(threads);
    pass.dispatchWorkgroups(x, y);
    pass.end();
    this.recorded++;
  }

  /**
   * Marks what is recorded as holding results left on the device by a call made at once, and submits it once
   * `MAX_RECORDED_PASSES` are waiting: the results stay where they are, and the passes and uploads already submitted
   * are let go.
   */
  recordedResults(): void {
    this.resultsRecorded = true;
    if (this.recorded >= MAX_RECORDED_PASSES) this.submit();
  }

  /** Workgroups for `threads` threads: one dimension while it fits, else rows of the widest one. */
  grid(threads: number): [number, number] {
    const groups = Math.ceil(threads / WORKGROUP);
    if (groups <= this.maxGroups) return [groups, 1];
    const y = Math.ceil(groups / this.maxGroups);
    return [Math.ceil(groups / y), y];
  }

  /** Submits what was recorded and reads each buffer's first `bytes` back, in one round trip. */
  async read(...parts: readonly [GPUBuffer, number][]): Promise<ArrayBuffer[]> {
    this.encoder ??= this.device.createCommandEncoder();
    const staging = parts.map(([src, bytes]) => {
      const dst = this.take(READBACK, bytes);
      this.encoder!.copyBufferToBuffer(src, 0, dst, 0, this.asked.get(dst)!);
      return dst;
    });
    this.submit();
    this.readBack++;
    return Promise.all(
      staging.map(async (dst, k) => {
        await dst.mapAsync(GPUMapMode.READ);
        const out = dst.getMappedRange().slice(0, parts[k][1]);
        dst.unmap();
        this.release(dst);
        return out;
      }),
    );
  }

  /** Submits what was recorded (a kernel whose result stays on the device, or before a read). */
  submit(): void {
    if (!this.encoder) return;
    this.device.queue.submit([this.encoder.finish()]);
    this.encoder = undefined;
    this.recorded = 0;
    this.resultsRecorded = false;
    this.submitted++;
    const done = this.pending;
    this.pending = [];
    this.release(...done);
    const then = this.afterSubmitted;
    this.afterSubmitted = [];
    for (const f of then) f();
  }

  /**
   * Gives buffers back once what is recorded now is submitted: work left on the device (an op's result kept there)
   * may not read a buffer that the next call's upload, which the queue runs first, overwrites.
   */
  releaseAfterSubmit(...buffers: (GPUBuffer | undefined)[]): void {
    if (!this.encoder) this.release(...buffers);
    else for (const b of buffers) if (b) this.pending.push(b);
  }

  /** Runs `f` once what is recorded now is submitted (at once where nothing is): a buffer's owner may then reuse it. */
  afterSubmit(f: () => void): void {
    if (!this.encoder) f();
    else this.afterSubmitted.push(f);
  }

  /** Gives buffers back once the call has read what it needs: kept for reuse while the pool has room. */
  release(...buffers: (GPUBuffer | undefined)[]): void {
    for (const b of buffers) {
      if (!b || !this.asked.delete(b)) continue;
      if (this.idleBytes + b.size > POOL_BYTES) {
        b.destroy();
        continue;
      }
      const key = `${b.usage}:${b.size}`;
      if (!this.idle.has(key)) this.idle.set(key, []);
      this.idle.get(key)!.push(b);
      this.idleBytes += b.size;
    }
  }

  /** How many pipelines have been compiled: a later call of the same kernel compiles none. */
  pipelinesCompiled(): number {
    return this.compiled;
  }

  /** How many command buffers have been submitted: one per kernel call that reads its result. */
  submissions(): number {
    return this.submitted;
  }

  /** How many round trips have read buffers back to the host. */
  readbacks(): number {
    return this.readBack;
  }

  destroy(): void {
    this.encoder = undefined;
    this.pipelines.clear();
    this.idle.clear();
    this.device.destroy();
  }

  private pipeline(code: string): GPUComputePipeline {
    let p = this.pipelines.get(code);
    if (!p) {
      const module = this.device.createShaderModule({ code });
      p = this.device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
      this.pipelines.set(code, p);
      this.compiled++;
    }
    return p;
  }
}
