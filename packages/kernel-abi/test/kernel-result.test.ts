import { describe, expect, it } from 'vitest';
import { delegation, isDelegation, isKernelError, KERNEL_ERRORS, KernelError } from '../dist/index.js';

describe('a kernel result', () => {
  it('is outputs, or a delegation carrying outputs and a reason apart from them', () => {
    const outputs = { output: { kind: 'dense', data: new Float64Array(1), shape: [1], dtype: 'float64' } };
    const d = delegation(outputs, 'string values: ran on the JS kernels');
    expect(isDelegation(d)).toBe(true);
    expect(d.outputs).toBe(outputs);
    expect(d.reason).toMatch(/JS kernels/);
    expect(isDelegation(outputs)).toBe(false);
    // Output names are the spec's; none of them can pass for a delegation.
    expect(isDelegation({ reason: 'x', outputs })).toBe(false);
  });
});

describe('KernelError', () => {
  it('takes its message from the one table of codes, with where it happened', () => {
    const e = new KernelError('DIV_BY_ZERO', ' at indices[1] = [0, 1]');
    expect(e.message).toBe('integer division by zero at indices[1] = [0, 1]');
    expect(isKernelError(e)).toBe(true);
    expect(isKernelError(new Error('integer division by zero'))).toBe(false);
  });

  it('is made from the code a wasm kernel recorded', () => {
    for (const [kind, { code, message }] of Object.entries(KERNEL_ERRORS)) {
      const e = KernelError.fromCode(code);
      expect(e).toBeInstanceOf(KernelError);
      expect((e as KernelError).kind).toBe(kind);
      expect(e.message).toBe(message);
    }
    expect(isKernelError(KernelError.fromCode(999))).toBe(false);
  });

  it('has one code per failure', () => {
    const codes = Object.values(KERNEL_ERRORS).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).not.toContain(0);
  });
});
