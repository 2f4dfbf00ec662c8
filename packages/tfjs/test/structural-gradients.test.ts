import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
// tfjs-core alone registers no gradients of its own ops (the @tensorflow/tfjs package does this).
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '@sparse/runtime';
import { runOp, type TfSparseTensor } from '../src/index.js';

await tf.setBackend('cpu');

// A loss with one path through a structural op and one around it: TF.js must add both, as TensorFlow does.

for (const backend of ['js', 'wasm']) {
  describe(`structural gradients through TF.js on ${backend}`, () => {
    let runtime: Runtime;
    beforeAll(async () => {
      runtime = await createRuntime({ backend });
    });

    /** A SparseTensor of dense shape [3] holding x at indices 0 and 2. */
    const sp = (x: tf.Tensor): TfSparseTensor => ({
      indices: tf.tensor2d([[0], [2]], [2, 1], 'int32'),
      values: x as tf.Tensor1D,
      denseShape: [3],
    });
    const toDense = (s: TfSparseTensor) =>
      runOp('sparse_tensor_to_dense', { sp_input: s }, { runtime }).output as tf.Tensor;

    it('sum(to_dense(sp(x))) + sum(x) has gradient [2, 2], as in TensorFlow', () => {
      const g = tf.grad((x: tf.Tensor) => tf.add(tf.sum(toDense(sp(x))), tf.sum(x)));
      expect(g(tf.tensor1d([3, 4])).arraySync()).toEqual([2, 2]);
    });

    it('a weighted loss: each value gets the weight of the position it lands on', () => {
      const w = tf.tensor1d([5, 7, 11]);
      const g = tf.grad((x: tf.Tensor) => tf.add(tf.sum(tf.mul(toDense(sp(x)), w)), tf.sum(x)));
      expect(g(tf.tensor1d([3, 4])).arraySync()).toEqual([6, 12]);
    });

    it('through sparse_reorder: each value gets the gradient of the entry it became', () => {
      const w = tf.tensor1d([1, 10]);
      const f = (x: tf.Tensor) => {
        const s: TfSparseTensor = {
          indices: tf.tensor2d([[2], [0]], [2, 1], 'int32'),
          values: x as tf.Tensor1D,
          denseShape: [3],
        };
        const out = runOp('sparse_reorder', { sp_input: s }, { runtime }).output as TfSparseTensor;
        return tf.sum(tf.mul(out.values, w));
      };
      // The entry at [0] comes first after reordering: x[1] gets 1, x[0] gets 10.
      expect(
        tf
          .grad(f)(tf.tensor1d([3, 4]))
          .arraySync(),
      ).toEqual([10, 1]);
    });
  });
}
