/// <reference types="@webgpu/types" />
import { magnitude as M, type DeviceValues, type Values } from '@sparse/kernel-abi';
import type { WebGpuContext } from '../context.js';
import type { GpuDtype } from '../families/run.js';
import type { Args, JsKernel } from '../kernel.js';

/** How values were made: the op's JS kernel and arguments, to make them again on the JS kernels. */
export interface Recipe {
  js: JsKernel;
  args: Args;
  /** The output they are, and its part: a sparse output's values, a dense output's data. */
  output: string;
  /** Where the output is a list of tensors (sparse_split), the one they are. */
  item?: number;
}

/** What a DeviceArray is made of besides its buffer. */
export interface DeviceArrayParts {
  /** The flag buffer its screen sets (float32 results that are screened). */
  flag?: GPUBuffer;
  /** float32: the values' magnitudes, as bounded on the host; undefined where unknown (deferred, int32, unscreened). */
  bound?: M.Maybe;
  /** How they were made; none for a buffer handed in. */
  recipe?: Recipe;
  /**
   * Whether they are screened, as TensorFlow computes them: false for a buffer handed in (a TF.js tensor's), and for
   * what is computed from one, which is what WGSL computes.
   */
  screened?: boolean;
  /** A buffer handed in: not ours to pool or count; this is called once it is let go (TF.js's tensorRef.dispose). */
  onRelease?: () => void;
}

/** Buffers of values that were collected without being released: given back to the context's pool. */
const collected = new FinalizationRegistry<() => void>((giveBack) => giveBack());

/**
 * Values of an op's result that stay on the GPU (DeviceValues), so that the next op reads them there: a storage
 * buffer, the magnitudes of its float32 values as the host bounds them (what the next op's subnormal bound starts
 * from), and a flag buffer the GPU sets where a value is inf, nan or a subnormal. Reading them submits what is
 * recorded and reads the buffer with the flags of every op that led to it, in one round trip; where a flag is set
 * (WGSL's results there are not promised to be TensorFlow's), the values are made again on the JS kernels from the
 * recipe, as a call the host could not bound runs there (a `deferred` one: no buffer, made at read).
 */
export class DeviceArray implements DeviceValues {
  readonly kind = 'device';
  readonly backend = 'webgpu';
  #buffer: GPUBuffer | undefined;
  #flag: GPUBuffer | undefined;
  // An exact-size copy handed out (gpuBuffer), shared with the collector's callback.
  readonly #exported: { exact?: GPUBuffer } = {};
  #host: Values | undefined;
  // How they were made: let go once they are read, so that what they were made from can be collected.
  #recipe: Recipe | undefined;
  readonly #onRelease: (() => void) | undefined;
  readonly #token = {};
  /** float32: the values' magnitudes, as bounded on the host; undefined where unknown. */
  readonly bound: M.Maybe;
  /** Whether they are screened (DeviceArrayParts.screened). */
  readonly screened: boolean;

  constructor(
    readonly ctx: WebGpuContext,
    readonly dtype: GpuDtype,
    readonly length: number,
    buffer: GPUBuffer | undefined,
    parts: DeviceArrayParts,
  ) {
    this.#recipe = parts.recipe;
    this.#buffer = buffer;
    this.#flag = parts.flag;
    this.#onRelease = parts.onRelease;
    this.bound = parts.bound;
    this.screened = parts.screened ?? true;
    if (!buffer) return;
    const onRelease = parts.onRelease;
    // A buffer handed in is its owner's memory: only the owner's release is ours to call.
    const bytes = onRelease ? 0 : 4 * length;
    const flag = parts.flag;
    const exported = this.#exported;
    ctx.heldBytes += bytes;
    collected.register(
      this,
      () => {
        ctx.heldBytes -= bytes;
        ctx.releaseAfterSubmit(exported.exact);
        if (onRelease) ctx.afterSubmit(onRelease);
        else ctx.releaseAfterSubmit(buffer, flag);
      },
      this.#token,
    );
  }

  /** Values made on the JS kernels when read (no buffer on the GPU). */
  static deferred(ctx: WebGpuContext, dtype: GpuDtype, length: number, recipe: Recipe): DeviceArray {
    return new DeviceArray(ctx, dtype, length, undefined, { recipe });
  }

  /**
   * A buffer handed in (a TF.js tensor's, by `dataToGPU()`), taken as it is: bound where it is, never screened, so
   * that what the at-once kernels compute from it is WGSL's float32, as the owner's own kernels compute. `onRelease`
   * is called once it is let go (disposed, read, or collected) and the work recorded on it is submitted.
   */
  static adopt(
    ctx: WebGpuContext,
    buffer: GPUBuffer,
    dtype: GpuDtype,
    length: number,
    onRelease: () => void = () => undefined,
  ): DeviceArray {
    return new DeviceArray(ctx, dtype, length, buffer, { screened: false, onRelease });
  }

  /**
   * The values in a buffer of exactly their size (the pool's buffers are larger: copied into one, kept until these
   * values are let go), with the work recorded on it submitted: for another user of the device, which may take a
   * buffer's whole size as its values (TF.js does). Undefined where they are in no buffer.
   */
  gpuBuffer(): GPUBuffer | undefined {
    if (!this.#buffer) return undefined;
    const e = this.#exported;
    if (this.#buffer.size !== 4 * this.length) e.exact ??= this.ctx.exactCopy(this.#buffer, 4 * this.length);
    this.ctx.submit();
    return e.exact ?? this.#buffer;
  }

  /** The values in host memory, once read. */
  get host(): Values | undefined {
    return this.#host;
  }

  /** The buffer the next op binds; undefined for deferred values (the next op then defers too). */
  get buffer(): GPUBuffer | undefined {
    return this.#buffer;
  }

  async read(): Promise<Values> {
    if (this.#host) return this.#host;
    let host: Values | undefined;
    if (this.#buffer && !this.screened) {
      // Not screened: what the buffer holds, as WGSL computed it.
      const [values] = await this.ctx.read([this.#buffer, Math.max(4 * this.length, 4)]);
      host =
        this.dtype === 'float32' ? new Float32Array(values, 0, this.length) : new Int32Array(values, 0, this.length);
    } else if (this.#buffer) {
      const flags = this.#lineageFlags();
      if (flags) {
        const bytes = 4 * this.length;
        const [values, ...set] = await this.ctx.read(
          [this.#buffer, Math.max(bytes, 4)],
          ...flags.map((f) => [f, 4] as [GPUBuffer, number]),
        );
        if (set.every((f) => new Uint32Array(f)[0] === 0))
          host =
            this.dtype === 'float32'
              ? new Float32Array(values, 0, this.length)
              : new Int32Array(values, 0, this.length);
      }
    }
    host ??= await this.#onJs();
    this.#host = host;
    this.#recipe = undefined;
    this.release();
    return host;
  }

  /** Gives the buffer back once recorded work no longer needs it; later reads make the values on the JS kernels. */
  release(): void {
    if (!this.#buffer) return;
    collected.unregister(this.#token);
    this.ctx.releaseAfterSubmit(this.#exported.exact);
    this.#exported.exact = undefined;
    if (this.#onRelease) this.ctx.afterSubmit(this.#onRelease);
    else {
      this.ctx.heldBytes -= 4 * this.length;
      this.ctx.releaseAfterSubmit(this.#buffer, this.#flag);
    }
    this.#buffer = this.#flag = undefined;
  }

  // The flag buffers of this op and of every op on the GPU that led to it; undefined where one of them is gone
  // (released: those values are checked again by making them on the JS kernels).
  #lineageFlags(): GPUBuffer[] | undefined {
    const flags: GPUBuffer[] = [];
    const seen = new Set<DeviceArray>();
    const visit = (a: DeviceArray): boolean => {
      if (seen.has(a) || a.#host) return true;
      seen.add(a);
      if (!a.#buffer) return false;
      if (a.#flag) flags.push(a.#flag);
      return devicesIn(a.#recipe!.args).every(visit);
    };
    return visit(this) ? flags : undefined;
  }

  // The values made again on the JS kernels, from the recipe's arguments with every device array in them read.
  async #onJs(): Promise<Values> {
    const recipe = this.#recipe!;
    const args = await hostArgs(recipe.args);
    const made = recipe.js(args)[recipe.output] as unknown;
    const out = (recipe.item === undefined ? made : (made as unknown[])[recipe.item]) as {
      values?: Values;
      data?: Values;
    };
    return (out.values ?? out.data)!;
  }
}

/** The device arrays among an op's arguments (a tensor's values or data, or one in a list). */
export function devicesIn(args: Args): DeviceArray[] {
  const found: DeviceArray[] = [];
  const visit = (x: unknown) => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (typeof x === 'object' && x !== null) {
      const d = x as { values?: unknown; data?: unknown };
      for (const part of [d.values, d.data]) if (part instanceof DeviceArray) found.push(part);
    }
  };
  Object.values(args).forEach(visit);
  return found;
}

/** An op's arguments with every device array read into host memory. */
async function hostArgs(args: Args): Promise<Args> {
  const read = async (x: unknown): Promise<unknown> => {
    if (Array.isArray(x)) return Promise.all(x.map(read));
    if (typeof x !== 'object' || x === null) return x;
    const d = x as { values?: unknown; data?: unknown };
    if (d.values instanceof DeviceArray) return { ...d, values: await d.values.read() };
    if (d.data instanceof DeviceArray) return { ...d, data: await d.data.read() };
    return x;
  };
  const out: Args = {};
  for (const [k, v] of Object.entries(args)) out[k] = await read(v);
  return out;
}
