import { describe, expect, it } from 'vitest';
import {
  allocIndices,
  allocValues,
  clearPool,
  copyOut,
  isImmutable,
  markImmutable,
  pooledBytes,
  POOL_MIN_BYTES,
  recycleBuffer,
} from '../dist/index.js';

describe('tensor storage', () => {
  it('marks arrays immutable by identity', () => {
    const a = new Float64Array(4);
    markImmutable(a);
    expect(isImmutable(a)).toBe(true);
    expect(isImmutable(a.subarray(0))).toBe(false);
    expect(isImmutable(new Float64Array(4))).toBe(false);
  });

  it('hands a recycled buffer out again for its size, zeroed unless the caller writes every element', () => {
    clearPool();
    const n = POOL_MIN_BYTES; // float32: 4 × that many bytes
    const a = allocValues('float32', n) as Float32Array;
    a.fill(7);
    recycleBuffer(a.buffer as ArrayBuffer);
    recycleBuffer(a.buffer as ArrayBuffer); // twice: held once
    expect(pooledBytes()).toBe(4 * n);
    const b = allocValues('float32', n) as Float32Array;
    expect(b.buffer).toBe(a.buffer);
    expect(b.every((x) => x === 0)).toBe(true);
    expect(pooledBytes()).toBe(0);
    recycleBuffer(b.buffer as ArrayBuffer);
    const c = allocIndices(n / 2, false);
    expect(c.buffer).toBe(a.buffer);
    // Another size: a new buffer.
    expect(allocValues('float32', n + 1).buffer).not.toBe(a.buffer);
  });

  it('never pools a buffer it did not make, nor a small one', () => {
    clearPool();
    recycleBuffer(new ArrayBuffer(4 * POOL_MIN_BYTES)); // a caller's
    recycleBuffer((allocValues('float64', 8) as Float64Array).buffer as ArrayBuffer);
    expect(pooledBytes()).toBe(0);
  });

  it('copies a result out into a pooled buffer of its size if any, else a new one the pool may take back', () => {
    clearPool();
    const src = Float32Array.from({ length: POOL_MIN_BYTES }, (_, i) => i);
    const a = copyOut(src);
    expect(a).toEqual(src);
    expect(a.buffer).not.toBe(src.buffer);
    recycleBuffer(a.buffer as ArrayBuffer);
    expect(pooledBytes()).toBe(4 * POOL_MIN_BYTES);
    const b = copyOut(src.subarray(0).map((x) => -x));
    expect(b.buffer).toBe(a.buffer);
    expect(b[7]).toBe(-7);
    expect(pooledBytes()).toBe(0);
  });
});
