import {
  broadcastOffsets,
  delegate,
  magnitude as M,
  magnitudesOf,
  type DenseData,
  type KernelResult,
  type SparseData,
} from '@sparse/kernel-abi';
import { groupBy } from '../segments/plan.js';
import type { WebGpuContext } from '../context.js';
import { REASONS } from '../delegation.js';
import type { WebGpuGradient, WebGpuGradientSource } from '../generated/gradients.js';
import { mergeGradientKernel, reduceGradientKernel } from './chain-gradients.js';
import type { Args, JsKernel, Kernel } from '../kernel.js';
import { inputsOk, params, resultBad } from './run.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * The derived gradient of an expression-family op on the GPU: merge and reduce in chain-gradients.ts; map and cwise
 * here, float32 (the gradients' other dtype, float64, runs on the JS kernels): each stored entry's part in one
 * thread; a cwise op's dense operand gets, per element, the sum of its entries' parts in entry order (listed on the
 * host by a stable counting sort, as the segment ops group their rows), so float32 rounds as the JS kernel does.
 * Both passes are recorded before one read.
 */
export function gradientKernel(ctx: WebGpuContext, src: WebGpuGradient, js: JsKernel): Kernel {
  if (src.family === 'merge') return mergeGradientKernel(ctx, src, js);
  if (src.family === 'reduce') return reduceGradientKernel(ctx, src, js);
  return valuesGradientKernel(ctx, src, js);
}

function valuesGradientKernel(ctx: WebGpuContext, src: WebGpuGradientSource, js: JsKernel): Kernel {
  return async (args: Args): Promise<KernelResult<Args>> => {
    const sp = args[src.roles.sparse!] as SparseData;
    if (sp.dtype !== 'float32') return delegate(js, args, REASONS.notComputed(sp.dtype));
    if ('not' in src.wgsl)
      return delegate(js, args, `float32 ${src.wgsl.not} is not what WGSL computes: ran on the JS kernels`);
    const dense = src.roles.dense ? (args[src.roles.dense] as DenseData) : undefined;
    const x = sp.values as Float32Array;
    const b = dense?.data as Float32Array | undefined;
    const g = (args.grad as DenseData).data as Float32Array;
    const scalars = Float32Array.from(src.roles.scalars.map((s) => Number(args[s])));
    const operands = b ? [x, b] : [x];
    if (!inputsOk('float32', ...operands, g, scalars)) return delegate(js, args, REASONS.nonFinite);
    if (mayBeSubnormal(src, operands, g, scalars)) return delegate(js, args, REASONS.subnormal);
    const n = x.length;
    const size = b?.length ?? 0;
    if (![n, size].every((k) => ctx.fits(4 * Math.max(k, 1) * 2))) throw new BindingLimitError(ctx.maxBindingBytes);
    const wgsl = src.wgsl;
    const buffers: GPUBuffer[] = [];
    const up = (data: Float32Array | Uint32Array) => (buffers.push(ctx.upload(data)), buffers.at(-1)!);
    const out = (bytes: number) => (buffers.push(ctx.buffer(bytes)), buffers.at(-1)!);
    try {
      const P = up(params(n, 0, scalars));
      const [X, G] = [up(x), up(g)];
      const O = out(4 * n);
      let OB: GPUBuffer | undefined;
      if (!b) ctx.dispatch({ code: wgsl.values, buffers: [P, X, G, O], threads: n });
      if (b) {
        const off = Uint32Array.from(broadcastOffsets(sp, dense!.shape));
        const B = up(b);
        ctx.dispatch({ code: wgsl.values, buffers: [P, X, B, up(off), G, O], threads: n });
        // The entries at each dense element, in entry order (a stable counting sort by offset).
        const { start, item } = groupBy(
          off,
          size,
          off.map((_, i) => i),
        );
        OB = out(4 * size);
        const PB = up(params(size, 0, scalars));
        ctx.dispatch({ code: wgsl.dense!, buffers: [PB, X, B, G, up(start), up(item), OB], threads: size });
      }
      const read = await ctx.read([O, 4 * n], ...(OB ? [[OB, 4 * size] as [GPUBuffer, number]] : []));
      const [values, denseGrad] = read.map((r) => new Float32Array(r));
      if (resultBad('float32', values) || (denseGrad && resultBad('float32', denseGrad)))
        return delegate(js, args, REASONS.nonFiniteResult);
      const result: Args = { [src.outputs.sparse]: { kind: 'dense', data: values, shape: [n], dtype: 'float32' } };
      if (dense)
        result[src.outputs.dense!] = { kind: 'dense', data: denseGrad, shape: dense.shape.slice(), dtype: 'float32' };
      return result;
    } finally {
      ctx.release(...buffers);
    }
  };
}

/** Whether a product, or (cwise) a sum of the dense operand's parts, could take a subnormal value. */
function mayBeSubnormal(
  src: WebGpuGradientSource,
  operands: Float32Array[],
  g: Float32Array,
  scalars: Float32Array,
): boolean {
  const ms = [...operands.map(magnitudesOf), magnitudesOf(g), ...Array.from(scalars, M.lit)];
  const products = (['x', 'a', 'b'] as const).flatMap((f) => (src.float32[f] ? [src.float32[f]!(...ms)] : []));
  if (products.some((p) => !p)) return true;
  // The dense operand's gradient sums its entries' parts: a sum of multiples of the least power of two is one too.
  const b = src.float32.b?.(...ms);
  return !!src.float32.b && !M.add(b, b);
}
