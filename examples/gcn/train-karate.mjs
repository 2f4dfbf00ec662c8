// node examples/gcn/train-karate.mjs [js|wasm]: trains the GCN on Zachary's karate club in Node and prints the loss
// every 20 epochs and the training accuracy.
// TF.js as apps load it (its ops' gradients and the cpu backend come with @tensorflow/tfjs).
import * as tf from '@tensorflow/tfjs';
import { createRuntime } from '@sparse/runtime';
import { trainKarate } from './karate-gcn.mjs';

await tf.setBackend('cpu');
const backend = process.argv[2] ?? 'wasm';
const runtime = await createRuntime({ backend });
const { accuracy, losses } = await trainKarate({
  runtime,
  onEpoch: ({ epoch, loss }) => {
    if (epoch % 20 === 0) console.log(`epoch ${epoch}: loss ${loss.toFixed(4)}`);
  },
});
console.log(`${backend}: final loss ${losses.at(-1).toFixed(4)}, training accuracy ${(accuracy * 100).toFixed(1)}%`);
