import { assembleKernels, delegate } from '@sparse/kernel-abi';
import { kernels as jsKernels } from '@sparse/kernels-js';
import type { GPU } from 'gpu.js';
import { FAMILY_OPS } from './generated/family-ops.js';
import { GPU_FAMILIES, type GpuFamilySource } from './generated/families.js';
import { REASONS } from './delegation.js';
import { GpuContext } from './gpu-context.js';
import type { JsKernel, Kernel } from './kernel.js';
import { HAND_WRITTEN, JS_DISPATCHED } from './generated/kernel-table.js';
import type { FamilyOp } from './generated/family-ops.js';
import { mapKernel } from './families/map.js';
import { cwiseKernel } from './families/cwise.js';
import { mergeKernel } from './families/merge.js';
import { reduceKernel } from './families/reduce.js';
import { withinTextureLimit } from './texture-limit.js';

export { REASONS } from './delegation.js';
export { GpuContext, sizeClass, type GpuContextOptions, type Staged } from './gpu-context.js';

type Driver = (ctx: GpuContext, op: string, meta: FamilyOp, src: GpuFamilySource, js: JsKernel) => Kernel;

export { HAND_WRITTEN };

/** The family drivers: every expression family runs on the GPU (the derived gradients run on the JS kernels). */
const FAMILY_DRIVERS: Record<GpuFamilySource['family'], Driver> = {
  map: mapKernel,
  cwise: cwiseKernel,
  merge: mergeKernel,
  reduce: reduceKernel,
};

/** The ops whose specs run them on the JS kernels here (`dispatch: {gpu: js}`), with the reason reported. */
export const DELEGATED_OPS: Readonly<Record<string, string>> = Object.fromEntries(
  JS_DISPATCHED.map((op) => [op, REASONS.notPorted]),
);

export interface GpuBackendOptions {
  /**
   * Run gpu.js's CPU mode when no WebGL is available, instead of failing. For debugging only: nothing runs on a
   * GPU then, and the results are not the GPU's.
   */
  allowCpuMode?: boolean;
  /** The gpu.js mode to ask for; default 'headlessgl' in Node, 'webgl2' (else 'webgl') in a browser. */
  mode?: string;
  /** A GPU instance to use instead of creating one (the gpu.js GPU class is then not imported). */
  gpu?: GPU;
  /**
   * Keep the output of a multi-stage kernel's inner stages on the GPU, as textures the next stage reads (default
   * true): softmax's row stats, matmul's transposed operand and product. false reads every stage back to the host
   * and uploads it again: the same results, so a benchmark can measure what pipelining saves (with readBacks()).
   */
  pipeline?: boolean;
  /**
   * The longest texture side a kernel may use, if less than the device's MAX_TEXTURE_SIZE (which always caps it):
   * e.g. 4096 to run as on many phones. A call that needs a longer side runs on the JS kernels, saying so.
   */
  maxTextureSize?: number;
}

export interface GpuBackend {
  name: 'gpu';
  kernels: Record<string, Kernel>;
  /** The gpu.js mode the kernels run in: 'headlessgl', 'webgl2', 'webgl' (or 'cpu' if allowCpuMode). */
  mode: string;
  /** How many gpu.js kernels have been compiled: a call of a size class already seen compiles none. */
  kernelsCompiled(): number;
  /** Whether inner stages stay on the GPU (GpuBackendOptions.pipeline). */
  pipeline: boolean;
  /** How many kernel outputs have been read back to the host so far: one per op call when pipelined. */
  readBacks(): number;
  /** Stage textures not yet freed: 0 between calls (else a kernel leaks GPU memory). */
  liveTextures(): number;
  /** The longest texture side kernels use: the device's MAX_TEXTURE_SIZE, or GpuBackendOptions.maxTextureSize. */
  maxTextureSize(): number;
  destroy(): void;
}

const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

/** What to say when no WebGL is available: what is missing, and how to get it. */
export function noWebGlMessage(node: boolean, detail?: string): string {
  const how = node
    ? "in Node the GPU backend runs on headless-gl: install the optional 'gl' package (it builds from source and needs " +
      'the Debian packages libxi-dev libglu1-mesa-dev libglew-dev pkg-config libx11-dev libxext-dev libgl1-mesa-dri ' +
      "xvfb xauth; see https://github.com/sparse-js/sparse/blob/main/tools/system-deps.sh) and run under a display, e.g. 'xvfb-run -a node …'"
    : 'use a browser with WebGL2 (or WebGL) enabled';
  return `No WebGL is available for the 'gpu' backend${detail ? ` (${detail})` : ''}: ${how}. gpu.js's CPU mode is not used unless asked for with createGpuBackend({ allowCpuMode: true }).`;
}

/**
 * gpu.js's GPU class: the one a page loaded with gpu.js's browser script (the global GPU), else the package
 * (bundled into the runtime's browser bundle). A browser's own global GPU is WebGPU's interface, not gpu.js: only
 * a class with createKernel is taken from the global.
 */
async function loadGpuClass(): Promise<typeof GPU> {
  const g = globalThis as unknown as { GPU?: { GPU?: unknown } };
  if (!isNode) {
    if (isGpuJsClass(g.GPU)) return g.GPU;
    if (isGpuJsClass(g.GPU?.GPU)) return g.GPU.GPU;
  }
  const mod = (await import('gpu.js')) as unknown as { GPU?: typeof GPU; default?: { GPU: typeof GPU } };
  return mod.GPU ?? mod.default!.GPU;
}

function isGpuJsClass(c: unknown): c is typeof GPU {
  return typeof (c as { prototype?: { createKernel?: unknown } } | undefined)?.prototype?.createKernel === 'function';
}

/** A gpu.js GPU on real WebGL (or a clear error), after a smoke-test kernel shows it computes. */
async function openGpu(options: GpuBackendOptions): Promise<GPU> {
  const GPUClass = await loadGpuClass();
  const modes = options.mode ? [options.mode] : isNode ? ['headlessgl'] : ['webgl2', 'webgl'];
  const problems: string[] = [];
  for (const mode of modes) {
    let gpu: GPU | undefined;
    try {
      gpu = new GPUClass({ mode: mode as never });
      if (gpu.mode !== mode) throw new Error(`gpu.js chose '${gpu.mode}'`);
      const k = gpu
        .createKernel(function (this: { thread: { x: number } }, a: number[]) {
          return a[this.thread.x] * 2;
        })
        .setOutput([2]);
      const r = k([1.5, 2]) as Float32Array;
      if (r[0] !== 3 || r[1] !== 4) throw new Error(`a test kernel computed [${Array.from(r)}]`);
      return gpu;
    } catch (e) {
      problems.push(`${mode}: ${(e as Error).message}`);
      try {
        gpu?.destroy();
      } catch {
        // nothing to free
      }
    }
  }
  if (options.allowCpuMode) return new GPUClass({ mode: 'cpu' });
  const err = new Error(noWebGlMessage(isNode, problems.join('; ')));
  err.name = 'NoWebGlError';
  throw err;
}

/**
 * A GPU backend: one gpu.js GPU (WebGL) with its compiled kernels. Every op is here: on the GPU in float32 (the
 * family ops (map, cwise, merge, reduce) from their spec expressions, the rest by hand, one file per op under
 * kernels/), or run on the JS kernels where its spec says so (DELEGATED_OPS).
 */
export async function createGpuBackend(options: GpuBackendOptions = {}): Promise<GpuBackend> {
  const gpu = options.gpu ?? (await openGpu(options));
  const ctx = new GpuContext(gpu, { pipeline: options.pipeline, maxTextureSize: options.maxTextureSize });
  const kernels = assembleKernels<GpuContext, Kernel>({
    js: jsKernels as unknown as Record<string, JsKernel>,
    context: ctx,
    family: (op, js) => {
      const src = GPU_FAMILIES[op];
      return src && FAMILY_DRIVERS[src.family](ctx, op, FAMILY_OPS[op], src, js as JsKernel);
    },
    handWritten: HAND_WRITTEN,
    delegated: JS_DISPATCHED,
    delegate: (op, js) => (args) => delegate(js as JsKernel, args, DELEGATED_OPS[op]),
    wrap: (kernel, js) => withinTextureLimit(kernel, js as JsKernel),
  });
  return {
    name: 'gpu',
    kernels,
    mode: gpu.mode as string,
    kernelsCompiled: () => ctx.compiled,
    pipeline: ctx.pipeline,
    readBacks: () => ctx.readBacks,
    liveTextures: () => ctx.liveTextures,
    maxTextureSize: () => ctx.maxTextureSize,
    destroy: () => ctx.destroy(),
  };
}
