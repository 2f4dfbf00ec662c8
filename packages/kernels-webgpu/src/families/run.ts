/// <reference types="@webgpu/types" />
import { familyMayBeSubnormal, magnitudesOf, type Scalar } from '@sparse/kernel-abi';
import type { WebGpuContext, Words } from '../context.js';
import { allNormal, REASONS } from '../delegation.js';
import type { WebGpuFamilySource, WgslSource } from '../generated/families.js';
import type { Args } from '../kernel.js';

/** What the family drivers share: the dtype's kernel or why not, the parameters word layout, one GPU pass. */

export type GpuDtype = 'float32' | 'int32';
export type GpuValues = Float32Array | Int32Array;

/** A float32 step WGSL does not compute as TensorFlow does (a phrase of codegen/emit-wgsl.ts), as a delegation reason. */
export const float32NotWgsl = (what: string) => `float32 ${what} is not what WGSL computes: ran on the JS kernels`;

/** The WGSL of the op for `dtype`, or the reason it runs on the JS kernels. */
export function kernelFor(
  src: WebGpuFamilySource,
  dtype: string,
): { wgsl: string; dense?: string } | { reason: string } {
  const entry: WgslSource | undefined = (src.dtypes as Record<string, WgslSource | undefined>)[dtype];
  if (!entry || (dtype !== 'float32' && dtype !== 'int32')) return { reason: REASONS.notComputed(dtype) };
  if ('not' in entry)
    return { reason: dtype === 'int32' ? REASONS.int32NotWgsl(entry.not) : REASONS.float32NotWgsl(entry.not) };
  return entry;
}

/** The bits of the NaN a kernel returns where WGSL leaves a step undefined (P[1]). */
const NAN_BITS = 0x7fc00000;
/** Where the scalars start in P (codegen/templates/families.ts.hbs). */
const FIRST_SCALAR = 4;

/** The scalar arguments, in the kernel's order, as the dtype holds them. */
export function scalarsOf(src: WebGpuFamilySource, args: Args, dtype: GpuDtype): GpuValues {
  const values = src.roles.scalars.map((s) => Number(args[s] as Scalar));
  return dtype === 'float32' ? Float32Array.from(values) : Int32Array.from(values);
}

/** A kernel's parameters, P: the thread count, the NaN, the family's own word, then the scalars' bits. */
export function params(threads: number, word: number, scalars: GpuValues): Uint32Array {
  const p = new Uint32Array(FIRST_SCALAR + scalars.length);
  p[0] = threads;
  p[1] = NAN_BITS;
  p[2] = word;
  p.set(new Uint32Array(scalars.buffer, scalars.byteOffset, scalars.length), FIRST_SCALAR);
  return p;
}

/** Whether float32 inputs are all finite and normal (else delegated); int32 always is. */
export function inputsOk(dtype: GpuDtype, ...arrays: GpuValues[]): boolean {
  return dtype !== 'float32' || arrays.every((a) => allNormal(a as Float32Array));
}

/**
 * Whether a float32 call could take a subnormal value in some step (the op's expressions over its operands'
 * magnitudes: kernel-abi's subnormal bound), which the GPU may flush: then it runs on the JS kernels. `operands` in
 * the expression's order (map, reduce: x; cwise, merge: a, b); `longest`, a reduce's longest group.
 */
export function mayBeSubnormal(
  src: WebGpuFamilySource,
  dtype: GpuDtype,
  operands: GpuValues[],
  scalars: GpuValues,
  longest = 0,
): boolean {
  return dtype === 'float32' && familyMayBeSubnormal(src, operands.map(magnitudesOf), Array.from(scalars), longest);
}

/** One binding of a pass: data to upload, or a zeroed output of `bytes`. */
export type Binding = Words | { bytes: number };

/**
 * Runs one kernel: uploads the inputs, dispatches `threads` threads, reads back the bindings `read` names (their
 * full length), releases everything. A binding past the device's limit is a BindingLimitError (nothing is allocated).
 */
export async function runPass(
  ctx: WebGpuContext,
  code: string,
  threads: number,
  bindings: readonly Binding[],
  read: readonly number[],
): Promise<ArrayBuffer[]> {
  const bytesOf = (b: Binding) => ('bytes' in b ? b.bytes : b.byteLength);
  ctx.ensureFits(...bindings.map(bytesOf));
  const buffers: GPUBuffer[] = [];
  try {
    for (const b of bindings) buffers.push('bytes' in b ? ctx.buffer(b.bytes) : ctx.upload(b));
    ctx.dispatch({ code, buffers, threads });
    return await ctx.read(...read.map((k) => [buffers[k], bytesOf(bindings[k])] as [GPUBuffer, number]));
  } finally {
    ctx.release(...buffers);
  }
}

/** The values of the dtype in a buffer read back. */
export const valuesIn = (dtype: GpuDtype, buf: ArrayBuffer): GpuValues =>
  dtype === 'float32' ? new Float32Array(buf) : new Int32Array(buf);

/** Whether a GPU result must be rerun on the JS kernels: float32 holding inf, nan (a step WGSL left undefined) or a subnormal. */
export const resultBad = (dtype: GpuDtype, values: GpuValues): boolean =>
  dtype === 'float32' && !allNormal(values as Float32Array);
