import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-core/dist/register_all_gradients.js';
import * as tf from '@tensorflow/tfjs-core';
await tf.setBackend('cpu');
try {
  console.log(
    tf
      .grad((x) => tf.sum(tf.mul(x, x)))(tf.tensor([1, 2]))
      .arraySync(),
  );
} catch (e) {
  console.log('no grads:', e.message);
}
