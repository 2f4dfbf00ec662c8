import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
// tfjs-core alone registers no gradients of its own ops (the @tensorflow/tfjs package does this).
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, SparseTensor, type Runtime } from '@sparse/runtime';
import { runOp, sparseDenseMatmul, sparseToTf, type TfSparseTensor } from '../src/index.js';
import { smallMatrix } from './fixtures/small-matrix.js';

await tf.setBackend('cpu');

const A = smallMatrix;

for (const backend of ['js', 'wasm']) {
  describe(`TF.js through the sparse ops on ${backend}`, () => {
    let runtime: Runtime;
    beforeAll(async () => {
      runtime = await createRuntime({ backend });
    });

    it('tf.grad through sparse_tensor_dense_matmul: the dense operand gets Aᵀ · dy', () => {
      const x = tf.tensor2d([
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
      const f = (t: tf.Tensor) => tf.sum(sparseDenseMatmul(A(), t, { runtime }));
      expect(f(x).arraySync()).toBe(1 + 2 + 10 + 12 + 9 + 12);
      expect(tf.grad(f)(x).arraySync()).toEqual([
        [1, 1],
        [3, 3],
        [2, 2],
      ]);
    });

    it('tf.grads through a TfSparseTensor: its values get the sampled products', () => {
      const sp = sparseToTf(A());
      const b = tf.tensor2d([
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
      const f = (values: tf.Tensor, dense: tf.Tensor) =>
        tf.sum(sparseDenseMatmul({ ...sp, values: values as tf.Tensor1D }, dense, { runtime }));
      const [dValues, dB] = tf.grads(f)([sp.values, b]);
      // d/dA[r, c] of Σ (A·b) = Σ_j b[c, j]: entry (0,0) → 3, (0,2) → 11, (1,1) → 7.
      expect(dValues.arraySync()).toEqual([3, 11, 7]);
      expect(dB.arraySync()).toEqual([
        [1, 1],
        [3, 3],
        [2, 2],
      ]);
    });

    it('a sparse output keeps its indices; its values carry the gradient (sparse_reduce_sum_sparse, sparse_square)', () => {
      const sp: TfSparseTensor = sparseToTf(
        new SparseTensor(
          [
            [0, 0],
            [0, 1],
            [2, 1],
          ],
          [1, -2, 3],
          [3, 2],
          'float32',
        ),
      );
      const f = (v: tf.Tensor) => {
        const sq = runOp('sparse_square', { sp_input: { ...sp, values: v } }, { runtime }).output as TfSparseTensor;
        expect(sq.indices.arraySync()).toEqual([
          [0, 0],
          [0, 1],
          [2, 1],
        ]);
        const rows = runOp('sparse_reduce_sum_sparse', { sp_input: sq, axis: 1 }, { runtime }).output as TfSparseTensor;
        expect(rows.denseShape).toEqual([3]);
        return tf.sum(tf.mul(rows.values, tf.tensor1d([10, 100])));
      };
      expect(tf.grad(f)(sp.values).arraySync()).toEqual([20, -40, 600]);
    });

    it('tf.variableGrads and an optimizer fit a sparse model', () => {
      // Learn w so that A·w = y, by Adam on the squared error: a least-squares fit through the sparse product.
      const w = tf.variable(tf.zeros([3, 1]));
      const y = tf.tensor2d([[5], [6]]);
      const loss = () => tf.sum(tf.square(tf.sub(sparseDenseMatmul(A(), w, { runtime }), y))) as tf.Scalar;
      const { value, grads } = tf.variableGrads(loss);
      expect(value.arraySync()).toBe(61);
      expect(grads[w.name].arraySync()).toEqual([[-10], [-36], [-20]]);
      const adam = tf.train.adam(0.1);
      for (let i = 0; i < 300; i++) tf.tidy(() => adam.minimize(loss));
      expect(loss().arraySync()).toBeLessThan(1e-3);
    });

    it('leaks no TF.js tensors: inside tf.tidy, only what is returned stays', () => {
      const x = tf.tensor2d([[1], [2], [3]]);
      const before = tf.memory().numTensors;
      const kept = tf.tidy(() => tf.grad((t: tf.Tensor) => tf.sum(sparseDenseMatmul(A(), t, { runtime })))(x));
      expect(tf.memory().numTensors).toBe(before + 1);
      kept.dispose();
      expect(tf.memory().numTensors).toBe(before);
    });

    it('runOp runs any op by id and converts its outputs', () => {
      const sp = sparseToTf(
        new SparseTensor(
          [
            [1, 0],
            [0, 1],
          ],
          [5, 6],
          [2, 2],
          'float32',
        ),
      );
      const out = runOp('sparse_reorder', { sp_input: sp }, { runtime }).output as TfSparseTensor;
      expect([out.indices.arraySync(), out.values.arraySync()]).toEqual([
        [
          [0, 1],
          [1, 0],
        ],
        [6, 5],
      ]);
      const dense = runOp('sparse_tensor_to_dense', { sp_input: out }, { runtime }).output as tf.Tensor;
      expect(dense.arraySync()).toEqual([
        [0, 6],
        [5, 0],
      ]);
    });
  });
}

it('runs on the default runtime when none is given', () => {
  const x = tf.tensor2d([[1], [1], [1]]);
  expect(sparseDenseMatmul(A(), x).arraySync()).toEqual([[3], [3]]);
});
