import type { DType, KernelResult, KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { WasmContext } from './wasm-context.js';
import { bytesPerElement } from './heap.js';

export type Args = Record<string, unknown>;
export type Kernel = (args: Args) => KernelResult<Args>;
/** A JS kernel as a family driver holds it, keyed by op id at run time. */
export type JsKernel = (args: Args) => Args;
/** A hand-written wasm kernel of op K: built from the module context and the JS kernel it may delegate to. */
export type KernelFactory<K extends keyof KernelTable> = (ctx: WasmContext, js: KernelTable[K]) => OpKernel<K>;

/** The dtypes wasm memory holds; bool and string values stay on the JS side. */
export type NumericDType = 'float32' | 'float64' | 'int32' | 'int64';

export function isNumeric(dtype: DType): dtype is NumericDType {
  return dtype !== 'bool' && dtype !== 'string';
}

/** The size in bytes of one value in wasm memory: 4 or 8; undefined for bool and string (not moved in wasm). */
export function valueBytes(dtype: DType): 4 | 8 | undefined {
  return isNumeric(dtype) ? (bytesPerElement(dtype) as 4 | 8) : undefined;
}

export function sparse(indices: Float64Array, values: SparseData['values'], shape: number[], dtype: DType): SparseData {
  return { kind: 'sparse', indices, values, shape, dtype };
}

/** Rows of an index matrix: the first n × rank numbers (a longer buffer is read as kernels-js reads it). */
export function rowsOf(sp: SparseData): Float64Array {
  const len = sp.values.length * sp.shape.length;
  return sp.indices.length === len ? sp.indices : sp.indices.subarray(0, len);
}
