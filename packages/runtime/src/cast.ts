import { allocValues, type Values } from '@sparse/kernel-abi';
import { describe, isDType, type DType } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { adoptSparse, sparseDataOf, SparseTensor } from './sparse-tensor.js';

/** The name errors give it: TensorFlow's `tf.cast`, which takes a SparseTensor and casts its values. */
const OP = 'cast';

const INT32_MIN = -(2 ** 31);
const INT64_MIN = -(2n ** 63n);

/**
 * A SparseTensor's values in another dtype, its indices and dense shape unchanged (TensorFlow's `tf.cast` of a
 * SparseTensor): a stored value that becomes 0 stays stored. Each value converts as TensorFlow's Cast kernel
 * converts it on a CPU (C++'s static_cast on x86): floats to integers truncate toward zero, NaN and values out of
 * range becoming the integer's least value; int64 to int32 keeps the low 32 bits; an integer to a float rounds to
 * nearest, ties to even, once; float64 to float32 rounds; anything to bool is whether it is nonzero (NaN is true);
 * bool is 0 or 1. String values neither cast nor are cast to: a TypeError. In JS on every backend.
 */
export function cast(spInput: SparseTensor, dtype: DType): SparseTensor {
  if (!(spInput instanceof SparseTensor))
    throw new TypeError(`${OP}: sp_input must be a SparseTensor, got ${describe(spInput)}`);
  if (!isDType(dtype)) throw new TypeError(`${OP}: dtype must be one of the dtypes, got ${describe(dtype)}`);
  if (spInput.isOnDevice)
    throw new InvalidArgumentError(`${OP}: sp_input's values live on a GPU device: read them first (await st.data())`);
  const d = sparseDataOf(spInput);
  if ((d.dtype === 'string') !== (dtype === 'string'))
    throw new TypeError(
      `${OP}: TensorFlow casts no ${d.dtype} to ${dtype}: string values neither cast nor are cast to`,
    );
  return adoptSparse({ ...d, values: castValues(d.values, d.dtype, dtype), dtype } as typeof d);
}

/** `values` of dtype `from` as dtype `to`, one by one (see `cast`). */
export function castValues(values: Values, from: DType, to: DType): Values {
  if (from === to) return values.slice() as Values;
  const n = values.length;
  const out = allocValues(to, n) as unknown as (number | bigint)[];
  const x = values as unknown as ArrayLike<number | bigint>;
  const convert = converter(from, to);
  for (let i = 0; i < n; i++) out[i] = convert(x[i]);
  return out as unknown as Values;
}

function converter(from: DType, to: DType): (v: number | bigint) => number | bigint {
  const wide = from === 'int64';
  if (to === 'bool') return wide ? (v) => (v !== 0n ? 1 : 0) : (v) => (v !== 0 ? 1 : 0); // NaN !== 0
  if (to === 'int64') {
    if (from === 'int32' || from === 'bool') return (v) => BigInt(v as number);
    return (v) => {
      const t = Math.trunc(v as number);
      return Number.isNaN(t) || t < -(2 ** 63) || t >= 2 ** 63 ? INT64_MIN : BigInt(t);
    };
  }
  if (to === 'int32') {
    if (wide) return (v) => Number(BigInt.asIntN(32, v as bigint));
    return (v) => {
      const t = Math.trunc(v as number);
      return t >= INT32_MIN && t <= 2 ** 31 - 1 ? t : INT32_MIN; // NaN fails both
    };
  }
  if (to === 'float32') return wide ? (v) => int64ToFloat32(v as bigint) : (v) => Math.fround(v as number);
  return wide ? (v) => Number(v as bigint) : (v) => v as number; // float64: every other value is exact in it
}

/**
 * The float32 nearest an int64, ties to even, rounded once: through a float64 it could round twice and land on the
 * other side of a float32 tie.
 */
export function int64ToFloat32(v: bigint): number {
  const m = v < 0n ? -v : v;
  if (m <= 2n ** 53n) return Math.fround(Number(v));
  const shift = BigInt(m.toString(2).length - 24);
  let q = m >> shift;
  const rest = m - (q << shift);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (q & 1n) === 1n)) q++;
  const r = Number(q) * 2 ** Number(shift);
  return Math.fround(v < 0n ? -r : r);
}
