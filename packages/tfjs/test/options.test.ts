import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { expect, it } from 'vitest';
import { createRuntime, getOpInfo, listOps, SparseTensor } from '@sparse/runtime';
import * as api from '../src/index.js';
import { runOp, sparseDenseMatmul, sparseReorder } from '../src/index.js';

await tf.setBackend('cpu');

// An option a function does not take is a TypeError naming the function and the key, never ignored.

const A = new SparseTensor([[0, 1]], [2], [2, 2], 'float32');
const x = tf.tensor2d([[1], [3]]);
const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

it('a snake_case option names its camelCase spelling (sparseDenseMatmul adjoint_a → adjointA)', () => {
  expect(() => sparseDenseMatmul(A, x, { adjoint_a: true } as never)).toThrow(
    new TypeError(
      "sparseDenseMatmul: unknown option 'adjoint_a' (did you mean 'adjointA'?); the options are adjointA, adjointB, runtime",
    ),
  );
  // and the option spelled right is taken: Aᵀ·x
  expect(sparseDenseMatmul(A, x, { adjointA: true }).arraySync()).toEqual([[0], [2]]);
});

it("runOp's options: a misspelled runtime is refused, with the spelling meant", async () => {
  const runtime = await createRuntime({ backend: 'js' });
  const args = { sp_a: A, b: x };
  expect(() => runOp('sparse_tensor_dense_matmul', args, { runtim: runtime } as never)).toThrow(
    /^runOp: unknown option 'runtim' \(did you mean 'runtime'\?\); the options are runtime$/,
  );
  expect(() => runOp('sparse_tensor_dense_matmul', args, 'js' as never)).toThrow(/runOp: options must be an object/);
  expect((runOp('sparse_tensor_dense_matmul', args, { runtime }).output as tf.Tensor).arraySync()).toEqual([[6], [0]]);
});

it('an op without optional arguments takes only runtime; arguments past the options are refused', () => {
  const sp = { indices: tf.tensor2d([[0, 0]], [1, 2], 'int32'), values: tf.tensor1d([1]), denseShape: [1, 1] };
  expect(() => sparseReorder(sp, { axis: 1 } as never)).toThrow(
    /^sparseReorder: unknown option 'axis'; the options are runtime$/,
  );
  expect(() => (sparseReorder as (...a: unknown[]) => unknown)(sp, {}, 1)).toThrow(TypeError);
  expect(() => (sparseReorder as (...a: unknown[]) => unknown)(sp, 7)).toThrow(
    /sparseReorder: options must be an object/,
  );
});

it('every op function refuses an unknown option before it runs', () => {
  const fns = api as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const op of listOps()) {
    const name = camel(op);
    const required = getOpInfo(op)!.args.filter((a) => a.default === undefined).length;
    expect(() => fns[name](...Array(required).fill(undefined), { notAnOption: 1 }), name).toThrow(
      new RegExp(`^${name}: unknown option 'notAnOption'; the options are (.+, )?runtime$`),
    );
  }
});
