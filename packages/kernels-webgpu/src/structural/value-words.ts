import { allocValues, storageValue, type DType, type Scalar, type Values } from '@sparse/kernel-abi';

/**
 * Values as the kernels that only move them (sort, gather, scatter, compact) see them: u32 words, `width` a value.
 * float32 and int32 are one word, float64 and int64 two (low word first: the store's own bytes, so every bit moves,
 * NaN payloads and -0 included, with no rounding), bool one word a 0/1 byte. Strings have no words.
 */
export type MovedDType = Exclude<DType, 'string'>;

/** Words a value: 1 or 2, or undefined for a dtype that the GPU cannot move (string). */
export function valueWidth(dtype: DType): 1 | 2 | undefined {
  if (dtype === 'float64' || dtype === 'int64') return 2;
  return dtype === 'string' ? undefined : 1;
}

/** A store as its words: a view of its bytes (bool: each byte widened to a word, a copy). */
export function valueWords(values: Values): Uint32Array {
  if (values instanceof Uint8Array) return Uint32Array.from(values);
  const v = values as Exclude<Values, string[] | Uint8Array>;
  return new Uint32Array(v.buffer, v.byteOffset, v.byteLength / 4);
}

/** Words read back from the GPU as a store of `dtype`. */
export function valuesOf(bytes: ArrayBuffer, dtype: MovedDType): Values {
  switch (dtype) {
    case 'float32':
      return new Float32Array(bytes);
    case 'int32':
      return new Int32Array(bytes);
    case 'float64':
      return new Float64Array(bytes);
    case 'int64':
      return new BigInt64Array(bytes);
    case 'bool':
      return Uint8Array.from(new Uint32Array(bytes));
  }
}

/** The words of `v` as a store of `dtype` holds it (the JS kernels' storageValue: bool 0/1, int64 a bigint). */
export function scalarWords(dtype: MovedDType, v: Scalar): Uint32Array {
  const store = allocValues(dtype, 1) as unknown as (number | bigint)[];
  store[0] = storageValue(dtype, v) as number | bigint;
  return valueWords(store as unknown as Values);
}

/**
 * WGSL that moves value `from` of `src` to value `to` of `dst`, `width` words (to and from count values). Width 1
 * is the single assignment the 32-bit kernels always had, so their source (and cached pipeline) is unchanged.
 */
export function moveValue(width: number, dst: string, to: string, src: string, from: string): string {
  if (width === 1) return `${dst}[${to}] = ${src}[${from}];`;
  const at = (array: string, value: string) => `${array}[(${value}) * ${width}u + vw]`;
  return `for (var vw = 0u; vw < ${width}u; vw++) { ${at(dst, to)} = ${at(src, from)}; }`;
}
