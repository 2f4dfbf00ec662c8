import {
  allocIndices,
  allocValues,
  type CrossInput,
  crossFeatures,
  crossPlan,
  forEachCross,
  type Scalar,
  type SparseCrossHashedKernel,
} from '@sparse/kernel-abi';
import { fingerprint64Into, fingerprintCat64Into } from '../fingerprint.js';

/** tf.sparse.cross_hashed's key where none is given (its `_DEFAULT_HASH_KEY`), as [high, low] halves. */
const DEFAULT_KEY = [0xde, 0xcafcaffe | 0] as const;
/** 2^63 - 1, the modulus without buckets (it keeps the result a non-negative int64), as [high, low] halves. */
const INT64_MAX_H = 0x7fffffff;
const INT64_MAX_L = 0xffffffff;
// Below this many buckets a bucket is found with float arithmetic, exactly (16 bits at a time stay below 2^53).
const FLOAT_BUCKETS_MAX = 2 ** 37;
// An int64 result is written as two 32-bit words: which one holds the low half depends on the platform.
const LOW_WORD = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;

/**
 * x mod b of whole numbers x < 2^53, 0 < b < 2^53, by a float division (the quotient's floor may be one off; the
 * remainder is then put back in range): V8 compiles a float `%` into a call, several times slower.
 */
function remainder(x: number, b: number): number {
  const r = x - Math.floor(x / b) * b;
  return r < 0 ? r + b : r >= b ? r - b : r;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(256);

/**
 * A column's features as unsigned 64-bit values, [high, low] halves per stored value (the int32s of their bits): a
 * string's Fingerprint64 (of its UTF-8 bytes), an integer as itself (two's complement), as TensorFlow's SparseCross
 * kernel takes them.
 */
function featureHashes(column: CrossInput): Int32Array {
  const x = crossFeatures(column);
  const v = x.kind === 'sparse' ? x.values : x.data;
  const out = new Int32Array(2 * v.length);
  if (x.dtype === 'string') {
    for (let i = 0; i < v.length; i++) {
      const s = (v as string[])[i];
      if (scratch.length < 3 * s.length) scratch = new Uint8Array(3 * s.length);
      const { written } = encoder.encodeInto(s, scratch);
      fingerprint64Into(out, 2 * i, scratch, 0, written);
    }
  } else if (x.dtype === 'int64') {
    for (let i = 0; i < v.length; i++) {
      const e = (v as BigInt64Array)[i];
      out[2 * i] = Number(BigInt.asIntN(32, e >> 32n));
      out[2 * i + 1] = Number(BigInt.asIntN(32, e));
    }
  } else {
    for (let i = 0; i < v.length; i++) {
      const e = (v as Int32Array)[i];
      out[2 * i] = e < 0 ? -1 : 0;
      out[2 * i + 1] = e;
    }
  }
  return out;
}

/** The key as [high, low] halves (int32s): an int64 taken as unsigned; TensorFlow's default for none, and for 0. */
function keyHalves(key: Scalar | null): readonly [number, number] {
  const k = key === null ? 0n : BigInt(key as number | bigint);
  if (k === 0n) return DEFAULT_KEY;
  return [Number(BigInt.asIntN(32, k >> 32n)), Number(BigInt.asIntN(32, k))];
}

/**
 * Each cross of the inputs' features, row by row, as a hash (TensorFlow's SparseCross with hashed output): from
 * the key, FingerprintCat64 with each column's feature in turn, then modulo `num_buckets` (or 2^63 - 1 without),
 * all unsigned 64-bit. A cross reuses the hash of its columns before the first one that changed since the cross
 * before it. The runtime has checked the ranks, batch sizes and num_buckets.
 */
export const sparseCrossHashed: SparseCrossHashedKernel = ({ inputs, num_buckets, hash_key }) => {
  const plan = crossPlan(inputs);
  const hashes = plan.columns.map(featureHashes);
  const C = hashes.length;
  const [keyH, keyL] = keyHalves(hash_key);
  const buckets = num_buckets;
  const bigBuckets = BigInt(buckets);
  const indices = allocIndices(plan.total * 2, false);
  const values = allocValues('int64', plan.total, false) as BigInt64Array;
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * plan.total);
  // acc[2c], acc[2c + 1]: the hash of the current cross through column c.
  const acc = new Int32Array(2 * C);
  forEachCross(plan, (k, row, j, at, changed) => {
    for (let c = changed; c < C; c++) {
      const order = plan.order[c];
      const e = 2 * (order ? order[at[c]] : at[c]);
      const h = hashes[c];
      if (c === 0) fingerprintCat64Into(acc, 0, keyH, keyL, h[e], h[e + 1]);
      else fingerprintCat64Into(acc, 2 * c, acc[2 * c - 2], acc[2 * c - 1], h[e], h[e + 1]);
    }
    let high = acc[2 * C - 2] >>> 0;
    let low = acc[2 * C - 1] >>> 0;
    if (buckets === 0) {
      // v mod (2^63 - 1) of v < 2^64: subtract it at most twice (adding 2^63 + 1 modulo 2^64).
      while (high > INT64_MAX_H || (high === INT64_MAX_H && low === INT64_MAX_L)) {
        low = (low + 1) >>> 0;
        high = (high + 0x80000000 + (low === 0 ? 1 : 0)) >>> 0;
      }
    } else if (buckets <= FLOAT_BUCKETS_MAX) {
      let r = remainder(high, buckets);
      r = remainder(r * 65536 + (low >>> 16), buckets);
      r = remainder(r * 65536 + (low & 0xffff), buckets);
      high = Math.floor(r / 2 ** 32);
      low = r >>> 0;
    } else {
      const r = ((BigInt(high) << 32n) | BigInt(low)) % bigBuckets;
      high = Number(r >> 32n);
      low = Number(r & 0xffffffffn);
    }
    words[2 * k + LOW_WORD] = low;
    words[2 * k + 1 - LOW_WORD] = high;
    indices[2 * k] = row;
    indices[2 * k + 1] = j;
  });
  return { output: { kind: 'sparse', indices, values, shape: [plan.batch, plan.widest], dtype: 'int64' } };
};
