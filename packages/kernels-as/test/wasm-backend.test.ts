import { describe, expect, it } from 'vitest';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { dense, scalar, sparse } from '@sparse/test-kit/plain-data';
import { createWasmBackend, DELEGATED_OPS, HAND_WRITTEN } from '../dist/index.js';
import { FAMILY_OPS } from '../src/generated/family-ops.js';
import { runWasm } from './against-js.js';

describe('the wasm backend', () => {
  it('has every op: in wasm, or declared as delegated — and declares nothing it runs itself', async () => {
    const backend = await createWasmBackend();
    for (const op of Object.keys(jsKernels)) expect(typeof backend.kernels[op], op).toBe('function');
    expect(Object.keys(backend.kernels).sort()).toEqual(Object.keys(jsKernels).sort());
    for (const op of Object.keys(DELEGATED_OPS))
      expect(FAMILY_OPS[op], `${op} is generated for wasm, not delegated`).toBeUndefined();
    for (const op of Object.keys(FAMILY_OPS)) expect(DELEGATED_OPS[op]).toBeUndefined();
    for (const op of Object.keys(HAND_WRITTEN))
      expect(DELEGATED_OPS[op], `${op} is ported to wasm, not delegated`).toBeUndefined();
  });

  it('reports a delegated op as such, and a wasm op not', async () => {
    const backend = await createWasmBackend();
    const st = sparse(
      [
        [1, 0],
        [0, 1],
      ],
      [1, 2],
      [2, 2],
      'float32',
    );
    expect(runWasm(backend, 'sparse_reorder', { sp_input: st }).delegated).toBeUndefined();
    expect(runWasm(backend, 'sparse_abs', { sp_input: st }).delegated).toBeUndefined();
    expect(
      runWasm(backend, 'sparse_reorder', { sp_input: sparse([[1], [0]], [true, false], [2], 'bool') }).delegated,
    ).toMatch(/JS kernels/);
    expect(
      runWasm(backend, 'sparse_tensor_to_dense', {
        sp_input: sparse([[0]], ['a'], [2], 'string'),
        default_value: '',
        validate_indices: true,
      }).delegated,
    ).toMatch(/bool and string/);
  });

  it('runs a tensor whose dims do not fit i32 on the JS kernels, right and reported', async () => {
    const backend = await createWasmBackend();
    const st = sparse([[0, 2 ** 40]], [3], [2, 2 ** 41], 'float64');
    const { outputs, delegated } = runWasm(backend, 'sparse_dense_cwise_mul', {
      sp_input: st,
      dense: dense([2, 5], [2, 1], 'float64'),
    });
    expect(delegated).toMatch(/do not fit i32/);
    expect(Array.from((outputs.output as { values: Float64Array }).values)).toEqual([6]);
  });

  it('reuses its heap: 100,000 calls leave the memory where the first ones took it', async () => {
    const backend = await createWasmBackend();
    const small = sparse(
      [
        [0, 1],
        [1, 0],
        [1, 1],
      ],
      [1.5, -2, 3],
      [2, 2],
      'float32',
    );
    const big = sparse(
      Array.from({ length: 5000 }, (_, i) => [i, i % 7]),
      Float32Array.from({ length: 5000 }, (_, i) => i),
      [5000, 7],
      'float32',
    );
    const b = dense(
      Float32Array.from({ length: 7 * 3 }, (_, i) => i),
      [7, 3],
      'float32',
    );
    const matmul = { sp_a: big, b, adjoint_a: false, adjoint_b: false };
    const round = () => {
      runWasm(backend, 'sparse_abs', { sp_input: small });
      runWasm(backend, 'sparse_add', { a: small, b: small, thresh: scalar('float32', 0) });
      runWasm(backend, 'sparse_reduce_sum', { sp_input: small, axis: [0], keepdims: false });
    };
    for (let i = 0; i < 100; i++) round();
    runWasm(backend, 'sparse_reduce_sum_sparse', { sp_input: big, axis: [1], keepdims: false });
    runWasm(backend, 'sparse_tensor_dense_matmul', matmul);
    const after = backend.memoryBytes();
    for (let i = 0; i < 100_000 / 3; i++) round();
    for (let i = 0; i < 100; i++) runWasm(backend, 'sparse_tensor_dense_matmul', matmul);
    expect(backend.memoryBytes()).toBe(after);
    const abs = runWasm(backend, 'sparse_abs', { sp_input: small }).outputs.output as { values: Float32Array };
    expect(Array.from(abs.values)).toEqual([1.5, 2, 3]);
  }, 60_000);
});
