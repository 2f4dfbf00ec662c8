import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { expect, it } from 'vitest';
import { sparse, SparseTensor } from '@sparse/runtime';
import { fromTf } from '../src/index.js';

// A TF.js tensor given to the runtime's ops directly is refused with the conversion to write, which then works.

it('a TF.js tensor passed to sparse.* says to convert it with fromTf, and fromTf does', async () => {
  await tf.setBackend('cpu');
  const a = new SparseTensor(
    [
      [0, 0],
      [1, 2],
    ],
    [1, 2],
    [2, 3],
    'float32',
  );
  const b = tf.tensor([[1], [2], [3]]);
  expect(() => sparse.tensorDenseMatmul(a, b as never)).toThrow(
    'sparse_tensor_dense_matmul: b is a TensorFlow.js tensor, which sparse does not read: convert it with fromTf(x) from @sparse/tfjs',
  );
  expect(Array.from(sparse.tensorDenseMatmul(a, fromTf(b)).dataSync())).toEqual([1, 6]);
});
