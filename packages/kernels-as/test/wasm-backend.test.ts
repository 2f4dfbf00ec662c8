import { describe, expect, it } from 'vitest';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { InvalidArgumentError, Runtime, SparseTensor, createRuntime, listOps, tensor } from '@sparse/runtime';
import { createWasmBackend, DELEGATED_OPS, HAND_WRITTEN } from '../dist/index.js';
import { FAMILY_OPS } from '../src/generated/family-ops.js';

describe('the wasm backend', () => {
  it('has every op: in wasm, or declared as delegated — and declares nothing it runs itself', async () => {
    const backend = await createWasmBackend();
    for (const op of listOps()) expect(typeof backend.kernels[op], op).toBe('function');
    expect(Object.keys(backend.kernels).sort()).toEqual(Object.keys(jsKernels).sort());
    for (const op of Object.keys(DELEGATED_OPS))
      expect(FAMILY_OPS[op], `${op} is generated for wasm, not delegated`).toBeUndefined();
    for (const op of Object.keys(FAMILY_OPS)) expect(DELEGATED_OPS[op]).toBeUndefined();
    for (const op of Object.keys(HAND_WRITTEN))
      expect(DELEGATED_OPS[op], `${op} is ported to wasm, not delegated`).toBeUndefined();
  });

  it('reports a delegated op as such, and a wasm op not', async () => {
    const rt = await createRuntime({ backend: 'wasm' });
    const st = new SparseTensor(
      [
        [1, 0],
        [0, 1],
      ],
      [1, 2],
      [2, 2],
      'float32',
    );
    expect(rt.runWithReport('sparse_reorder', { sp_input: st }).delegated).toBeUndefined();
    expect(rt.runWithReport('sparse_abs', { sp_input: st }).delegated).toBeUndefined();
    expect(
      rt.runWithReport('sparse_reorder', { sp_input: new SparseTensor([[1], [0]], [true, false], [2]) }).delegated,
    ).toMatch(/JS kernels/);
    expect(
      rt.runWithReport('sparse_tensor_to_dense', { sp_input: new SparseTensor([[0]], ['a'], [2]) }).delegated,
    ).toMatch(/bool and string/);
  });

  it('runs a tensor whose dims do not fit i32 on the JS kernels, right and reported', async () => {
    const rt = await createRuntime({ backend: 'wasm' });
    const st = new SparseTensor([[0, 2 ** 40]], [3], [2, 2 ** 41], 'float64');
    const { outputs, delegated } = rt.runWithReport('sparse_dense_cwise_mul', {
      sp_input: st,
      dense: tensor([[2], [5]], 'float64'),
    });
    expect(delegated).toMatch(/do not fit i32/);
    expect(Array.from((outputs.output as SparseTensor).values as Float64Array)).toEqual([6]);
  });

  it("turns a kernel-side failure into the JS backend's error, naming the entry, and recovers", async () => {
    const rt = await createRuntime({ backend: 'wasm' });
    const st = new SparseTensor([[0], [2]], [7, 8], [3], 'int32');
    expect(() => rt.sparse.denseCwiseDiv(st, tensor([1, 1, 0], 'int32'))).toThrow(InvalidArgumentError);
    expect(() => rt.sparse.denseCwiseDiv(st, tensor([1, 1, 0], 'int32'))).toThrow(
      /integer division by zero at sp_input\.indices\[1\] = \[2\]/,
    );
    expect(Array.from(rt.sparse.denseCwiseDiv(st, tensor([1, 1, 2], 'int32')).values as Int32Array)).toEqual([7, 4]);
  });

  it('reuses its heap: 100,000 calls leave the memory where the first ones took it', async () => {
    const backend = await createWasmBackend();
    const rt = new Runtime(backend as never);
    const small = new SparseTensor(
      [
        [0, 1],
        [1, 0],
        [1, 1],
      ],
      [1.5, -2, 3],
      [2, 2],
      'float32',
    );
    const big = new SparseTensor(
      Array.from({ length: 5000 }, (_, i) => [i, i % 7]),
      Float32Array.from({ length: 5000 }, (_, i) => i),
      [5000, 7],
    );
    const dense = tensor(
      Float32Array.from({ length: 7 * 3 }, (_, i) => i),
      'float32',
      [7, 3],
    );
    const round = () => {
      rt.sparse.abs(small);
      rt.sparse.add(small, small);
      rt.sparse.reduceSum(small, { axis: 0 });
    };
    for (let i = 0; i < 100; i++) round();
    rt.sparse.reduceSumSparse(big, { axis: 1 });
    rt.run('sparse_tensor_dense_matmul', { sp_a: big, b: dense });
    const after = backend.memoryBytes();
    for (let i = 0; i < 100_000 / 3; i++) round();
    for (let i = 0; i < 100; i++) rt.run('sparse_tensor_dense_matmul', { sp_a: big, b: dense });
    expect(backend.memoryBytes()).toBe(after);
    expect(Array.from(rt.sparse.abs(small).values as Float32Array)).toEqual([1.5, 2, 3]);
  }, 60_000);
});
