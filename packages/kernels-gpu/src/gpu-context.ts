import type { GPU, IKernelRunShortcut } from 'gpu.js';

export interface KernelSettings {
  /** gpu.js loop bound for loops over data-dependent counts. */
  loopMaxIterations?: number;
}

/**
 * One gpu.js GPU per runtime and the kernels compiled on it: each compiled once per (op, part, size class) with
 * dynamic output and arguments, so one kernel serves every size of its class, and reused.
 */
export class GpuContext {
  private readonly cache = new Map<string, IKernelRunShortcut>();
  /** How many kernels have been compiled (built) so far: a second call of the same class adds none. */
  compiled = 0;

  constructor(readonly gpu: GPU) {}

  /** The kernel of `key` for `n` outputs, compiled on first use of its size class, with its output set to n. */
  kernel(key: string, source: string, n: number, settings: KernelSettings = {}, rows = 0): IKernelRunShortcut {
    const output = rows ? [n, rows] : [n];
    const id = `${key}|${rows ? `${sizeClass(rows)}x` : ''}${sizeClass(n)}|${settings.loopMaxIterations ?? 0}`;
    let k = this.cache.get(id);
    if (!k) {
      k = this.gpu.createKernel(source as never, {
        output,
        dynamicOutput: true,
        dynamicArguments: true,
        precision: 'single',
        tactic: 'precision',
        ...(settings.loopMaxIterations ? { loopMaxIterations: settings.loopMaxIterations } : {}),
      } as never) as IKernelRunShortcut;
      this.cache.set(id, k);
      this.compiled++;
    }
    k.setOutput(output);
    return k;
  }

  /** Runs a kernel over n outputs and returns them as a new Float32Array. */
  run(key: string, source: string, n: number, args: unknown[], settings?: KernelSettings): Float32Array {
    const k = this.kernel(key, source, n, settings);
    const out = (k as unknown as (...a: unknown[]) => Float32Array)(...args);
    return Float32Array.from(out.subarray ? out.subarray(0, n) : out);
  }

  /** Runs a kernel over rows×n outputs (thread.y the row, thread.x the column), returned row-major. */
  run2d(key: string, source: string, rows: number, n: number, args: unknown[], settings?: KernelSettings): Float32Array {
    const k = this.kernel(key, source, n, settings, rows);
    const out = (k as unknown as (...a: unknown[]) => Float32Array[])(...args);
    const flat = new Float32Array(rows * n);
    for (let r = 0; r < rows; r++) flat.set(out[r].subarray(0, n), r * n);
    return flat;
  }

  destroy(): void {
    this.gpu.destroy();
  }
}

/** Sizes in one class share a compiled kernel: classes of ×16 (1–16, 17–256, …). */
export function sizeClass(n: number): number {
  return Math.max(0, Math.ceil(Math.log2(Math.max(1, n)) / 4));
}
