import type { GPU, IKernelRunShortcut, Texture } from 'gpu.js';
import { argumentTexture, outputTexture, TextureLimitError } from './texture-limit.js';

export interface KernelSettings {
  /** gpu.js loop bound for loops over data-dependent counts. */
  loopMaxIterations?: number;
  /** The sources of the gpu.js helper functions the kernel calls (codegen's gpu-math.ts), the same for every call of `key`. */
  functions?: readonly string[];
}

export interface GpuContextOptions {
  /**
   * Keep a stage's output on the GPU, as a texture the next kernel of the chain reads (default true). false reads
   * every stage back to the host and uploads it again to the next kernel: the same results, so a benchmark can
   * measure what pipelining saves.
   */
  pipeline?: boolean;
  /**
   * The longest texture side a kernel may use, if less than the device's MAX_TEXTURE_SIZE (which always caps it):
   * e.g. 4096 to run as on many phones.
   */
  maxTextureSize?: number;
}

/**
 * A stage's output as the next kernel of a chain takes it: a texture that stays on the GPU (pipelined), or the
 * values read back to the host (pipelining off). A kernel reads either flat, row-major: `t[row * n + col]`.
 */
export type Staged = Texture | Float32Array;

/** A kernel argument: host values (a typed array), a float, or a stage's output. */
type Arg = unknown;

const isTexture = (a: unknown): a is Texture =>
  typeof a === 'object' && a !== null && typeof (a as Texture).toArray === 'function';

/**
 * What a compiled kernel is specialised to in its arguments: gpu.js compiles a texture argument differently from
 * an array, and a 1D texture differently from a 2D one (another kind would make it recompile on the call).
 */
function argKinds(args: Arg[]): string {
  return args
    .map((a) =>
      isTexture(a) ? `t${(a as unknown as { output: number[] }).output.length}` : typeof a === 'number' ? 'f' : 'a',
    )
    .join('');
}

/**
 * One gpu.js GPU per runtime and the kernels compiled on it: each compiled once per (op, part, size class, argument
 * kinds, pipelined or not) with dynamic output and arguments, so one kernel serves every size of its class, and
 * reused. Kernels run alone (run, run2d: the output read back to the host) or as the stages of a chain (stage,
 * stage2d: the output kept on the GPU for the next kernel, then released). Before a kernel runs, its output and array
 * arguments are checked against the texture limit (TextureLimitError).
 */
export class GpuContext {
  private readonly cache = new Map<string, IKernelRunShortcut>();
  /** The textures handed out by stage() and not yet released. */
  private readonly owned = new Set<Texture>();
  /** How many kernels have been compiled (built) so far: a second call of the same class adds none. */
  compiled = 0;
  /** How many kernel outputs have been read back to the host (a pipelined chain reads back once, at its end). */
  readBacks = 0;
  /** Whether stage outputs stay on the GPU as textures (GpuContextOptions.pipeline). */
  readonly pipeline: boolean;
  private readonly textureLimit: number;

  constructor(
    readonly gpu: GPU,
    options: GpuContextOptions = {},
  ) {
    this.pipeline = options.pipeline ?? true;
    this.textureLimit = options.maxTextureSize ?? Infinity;
  }

  /** The longest texture side a kernel may use: the device's MAX_TEXTURE_SIZE, or the smaller limit asked for. */
  get maxTextureSize(): number {
    const device = (this.gpu as unknown as { Kernel?: { features?: { maxTextureSize?: number } } }).Kernel?.features
      ?.maxTextureSize;
    return Math.min(device ?? Infinity, this.textureLimit);
  }

  /** Whether a kernel output of rows × n (run2d, stage2d) fits within the texture limit. */
  fits2d(rows: number, n: number): boolean {
    const limit = this.maxTextureSize;
    return outputTexture(n, rows).every((side) => side <= limit);
  }

  /** Textures handed out by stage() and not yet released: 0 between calls, else a kernel leaks GPU memory. */
  get liveTextures(): number {
    return this.owned.size;
  }

  /** The kernel of `key` for output [n] or [n, rows] (gpu.js order), compiled on first use of its class. */
  private kernel(
    key: string,
    source: string,
    n: number,
    rows: number,
    args: Arg[],
    settings: KernelSettings,
    pipelined: boolean,
  ): IKernelRunShortcut {
    this.checkTextures(n, rows, args);
    const output = rows ? [n, rows] : [n];
    const cls = `${rows ? `${sizeClass(rows)}x` : ''}${sizeClass(n)}`;
    const id = `${key}|${cls}|${settings.loopMaxIterations ?? 0}|${argKinds(args)}${pipelined ? '|pipelined' : ''}`;
    let k = this.cache.get(id);
    if (!k) {
      k = this.gpu.createKernel(
        source as never,
        {
          output,
          dynamicOutput: true,
          dynamicArguments: true,
          precision: 'single',
          tactic: 'precision',
          ...(settings.loopMaxIterations ? { loopMaxIterations: settings.loopMaxIterations } : {}),
          ...(settings.functions?.length ? { functions: [...settings.functions] } : {}),
          // immutable: every call returns its own texture (a clone gpu.js detaches before the kernel renders
          // again), so a later call of the same kernel never overwrites a texture still in use.
          ...(pipelined ? { pipeline: true, immutable: true } : {}),
        } as never,
      ) as IKernelRunShortcut;
      this.cache.set(id, k);
      this.compiled++;
    }
    k.setOutput(output);
    return k;
  }

  /** Runs a kernel over n outputs and returns them as a new Float32Array. */
  run(key: string, source: string, n: number, args: Arg[], settings: KernelSettings = {}): Float32Array {
    const k = this.kernel(key, source, n, 0, args, settings, false);
    const out = (k as unknown as (...a: Arg[]) => Float32Array)(...args);
    this.readBacks++;
    return Float32Array.from(out.subarray ? out.subarray(0, n) : out);
  }

  /** Runs a kernel over rows×n outputs (thread.y the row, thread.x the column), returned row-major. */
  run2d(
    key: string,
    source: string,
    rows: number,
    n: number,
    args: Arg[],
    settings: KernelSettings = {},
  ): Float32Array {
    const k = this.kernel(key, source, n, rows, args, settings, false);
    const out = (k as unknown as (...a: Arg[]) => Float32Array[])(...args);
    this.readBacks++;
    const flat = new Float32Array(rows * n);
    for (let r = 0; r < rows; r++) flat.set(out[r].subarray(0, n), r * n);
    return flat;
  }

  /** Like run, for an output that feeds another kernel: see stage2d. */
  stage(key: string, source: string, n: number, args: Arg[], settings: KernelSettings = {}): Staged {
    if (!this.pipeline) return this.run(key, source, n, args, settings);
    return this.own(
      (this.kernel(key, source, n, 0, args, settings, true) as unknown as (...a: Arg[]) => Texture)(...args),
    );
  }

  /**
   * Like run2d, for an output that feeds another kernel: pipelined, a texture that stays on the GPU, owned by the
   * caller until it gives it back with release(); else the values read back (the next kernel uploads them again).
   */
  stage2d(key: string, source: string, rows: number, n: number, args: Arg[], settings: KernelSettings = {}): Staged {
    if (!this.pipeline) return this.run2d(key, source, rows, n, args, settings);
    return this.own(
      (this.kernel(key, source, n, rows, args, settings, true) as unknown as (...a: Arg[]) => Texture)(...args),
    );
  }

  /** Frees the textures of stage outputs no longer needed; anything else (host values, undefined) is ignored. */
  release(...staged: unknown[]): void {
    for (const s of staged) {
      if (!isTexture(s) || !this.owned.delete(s)) continue;
      s.delete();
    }
  }

  destroy(): void {
    this.release(...this.owned);
    this.gpu.destroy();
  }

  /**
   * Throws TextureLimitError if the output [n] or [n, rows], or an array argument, needs a texture side past the
   * limit (a staged texture argument was checked as its own kernel's output).
   */
  private checkTextures(n: number, rows: number, args: Arg[]): void {
    const limit = this.maxTextureSize;
    const arrays = args.filter((a): a is Float32Array => ArrayBuffer.isView(a));
    const sides = [outputTexture(n, rows), ...arrays.map((a) => argumentTexture(a.length))];
    if (sides.some(([w, h]) => w > limit || h > limit)) throw new TextureLimitError(limit);
  }

  private own(t: Texture): Texture {
    this.owned.add(t);
    return t;
  }
}

/** Sizes in one class share a compiled kernel: classes of ×16 (1–16, 17–256, …). */
export function sizeClass(n: number): number {
  return Math.max(0, Math.ceil(Math.log2(Math.max(1, n)) / 4));
}
