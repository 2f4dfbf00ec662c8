import { describe, expect, it } from 'vitest';
import { fingerprint64, fingerprint64Into, fingerprintCat64 } from '../src/fingerprint.js';
import { HASH64_AT_I_SQUARED, HASH64_LONGEST, farmhashTestData } from './farmhash-vectors.js';

const hex = (x: bigint) => x.toString(16).padStart(16, '0');

describe('Fingerprint64 (FarmHash farmhashna::Hash64)', () => {
  const data = farmhashTestData();

  it("gives FarmHash's self-test values for every length from 0 to 176 bytes, at offsets i * i", () => {
    const got = HASH64_AT_I_SQUARED.map((_, i) => hex(fingerprint64(data.subarray(i * i, i * i + i))));
    expect(got).toEqual(HASH64_AT_I_SQUARED);
  });

  it("gives FarmHash's self-test values for its two longest inputs (about 1 MiB)", () => {
    for (const { length, hash } of HASH64_LONGEST) expect(hex(fingerprint64(data.subarray(0, length)))).toBe(hash);
  });

  it('reads a window of a larger buffer, writing the high and low halves', () => {
    const out = new Uint32Array(4);
    fingerprint64Into(out, 2, data, 100 * 100, 100);
    expect(hex((BigInt(out[2]) << 32n) | BigInt(out[3]))).toBe(HASH64_AT_I_SQUARED[100]);
    expect([out[0], out[1]]).toEqual([0, 0]);
  });

  it("hashes a string's UTF-8 bytes", () => {
    expect(fingerprint64('é日😀')).toBe(
      fingerprint64(new Uint8Array([0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0xf0, 0x9f, 0x98, 0x80])),
    );
    expect(fingerprint64('')).toBe(0x9ae16a3b2f90404fn); // FarmHash's k2, its hash of no bytes
  });
});

// TensorFlow's sparse_cross_op_test.py checks these hashes of the cross of 'batch1-FC1-F1', 'batch1-FC2-F1' and
// 'batch1-FC3-F1' ("to prevent unintentional hashing changes"), each FingerprintCat64 of the features'
// Fingerprint64s: SparseCrossHashed starts from the first feature's, tf.sparse.cross_hashed from its key.
describe("FingerprintCat64 on TensorFlow's sparse cross test values", () => {
  const features = ['batch1-FC1-F1', 'batch1-FC2-F1', 'batch1-FC3-F1'].map(fingerprint64);
  const INT64_MAX = 2n ** 63n - 1n;
  const DEFAULT_KEY = 0xdecafcaffen;
  const fold = (start: bigint, xs: bigint[]) => xs.reduce(fingerprintCat64, start);

  it('SparseCrossHashed: 9186962005966787372 without buckets, 79 in 100', () => {
    const h = fold(features[0], features.slice(1));
    expect(h % INT64_MAX).toBe(9186962005966787372n);
    expect(h % 100n).toBe(79n);
  });

  it('tf.sparse.cross_hashed: from the default key and from key + 1, with and without 100 buckets', () => {
    expect(fold(DEFAULT_KEY, features) % INT64_MAX).toBe(1971693436396284976n);
    expect(fold(DEFAULT_KEY + 1n, features) % INT64_MAX).toBe(4847552627144134031n);
    expect(fold(DEFAULT_KEY, features) % 100n).toBe(83n);
    expect(fold(DEFAULT_KEY + 1n, features) % 100n).toBe(31n);
  });

  it('is not commutative', () => {
    expect(fingerprintCat64(features[0], features[1])).not.toBe(fingerprintCat64(features[1], features[0]));
  });
});
