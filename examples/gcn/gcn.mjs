// A two-layer graph convolutional network (T. N. Kipf and M. Welling, "Semi-Supervised Classification with Graph
// Convolutional Networks", ICLR 2017), trained with TensorFlow.js's Adam through sparse's products:
//
//   Z = Â · relu(Â · X · W1) · W2,   Â = D^-1/2 (A + I) D^-1/2
//
// Â, the graph's normalised adjacency with self-loops, is a SparseTensor: a constant, which the wasm backend keeps
// prepared between calls. X · W is TF.js's dense matMul; Â · (X · W) is sparse_tensor_dense_matmul through
// @sparse/tfjs, whose gradient (Âᵀ · dZ, by the same sparse product) TF.js's optimizers see through.
import * as tf from '@tensorflow/tfjs-core';
import { SparseTensor } from '@sparse/runtime';
import { sparseDenseMatmul } from '@sparse/tfjs';

/**
 * Â = D^-1/2 (A + I) D^-1/2 of an undirected graph of `n` nodes, each edge [a, b] given once: a float32
 * SparseTensor [n, n] in canonical order, 2 · edges + n entries. Linear in the edges (a counting sort by row).
 */
export function normalizedAdjacency(n, edges) {
  const degree = new Float64Array(n).fill(1);
  for (const [a, b] of edges) {
    degree[a]++;
    degree[b]++;
  }
  // Each row's entries: the row's neighbours and itself, then sorted by column within the row.
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + degree[i];
  const cols = new Int32Array(start[n]);
  const fill = start.slice(0, n);
  for (let i = 0; i < n; i++) cols[fill[i]++] = i;
  for (const [a, b] of edges) {
    cols[fill[a]++] = b;
    cols[fill[b]++] = a;
  }
  const indices = new Int32Array(2 * cols.length);
  const values = new Float32Array(cols.length);
  for (let i = 0; i < n; i++) {
    const row = cols.subarray(start[i], start[i + 1]).sort();
    for (let k = 0; k < row.length; k++) {
      const e = start[i] + k;
      indices[2 * e] = i;
      indices[2 * e + 1] = row[k];
      values[e] = 1 / Math.sqrt(degree[i] * degree[row[k]]);
    }
  }
  return new SparseTensor(indices, values, [n, n], 'float32');
}

/** The two weight matrices, Glorot-uniform from `seed` (the same start on every run). */
export function createModel({ features, hidden, classes, seed = 1 }) {
  const glorot = (rows, cols, s) => {
    const limit = Math.sqrt(6 / (rows + cols));
    return tf.variable(tf.randomUniform([rows, cols], -limit, limit, 'float32', s));
  };
  return { w1: glorot(features, hidden, seed), w2: glorot(hidden, classes, seed + 1) };
}

/** The logits Z = Â · relu(Â · X · W1) · W2, [nodes, classes]. */
export function logits(model, adjacency, x, runtime) {
  const h = tf.relu(sparseDenseMatmul(adjacency, tf.matMul(x, model.w1), { runtime }));
  return sparseDenseMatmul(adjacency, tf.matMul(h, model.w2), { runtime });
}

/**
 * Trains the model with Adam on the softmax cross-entropy of the nodes in `train` (all by default), calling
 * `onEpoch({ epoch, loss, seconds })` after each epoch (await it: a page redraws there). Returns the losses, each
 * node's predicted class and the accuracy over the training nodes.
 */
export async function train({
  model,
  adjacency,
  x,
  labels,
  classes,
  trainNodes = labels.map((_, i) => i),
  epochs = 100,
  learningRate = 0.01,
  runtime,
  onEpoch,
}) {
  const idx = tf.tensor1d(trainNodes, 'int32');
  const targets = tf.oneHot(
    tf.tensor1d(
      trainNodes.map((i) => labels[i]),
      'int32',
    ),
    classes,
  );
  const adam = tf.train.adam(learningRate);
  // Every node in order trains as it is (no gather: its gradient is a segment sum some TF.js backends lack).
  const everyNode = trainNodes.length === labels.length && trainNodes.every((v, i) => v === i);
  const loss = () => {
    const z = logits(model, adjacency, x, runtime);
    return tf.losses.softmaxCrossEntropy(targets, everyNode ? z : tf.gather(z, idx));
  };
  const losses = [];
  for (let epoch = 0; epoch < epochs; epoch++) {
    const started = performance.now();
    const value = tf.tidy(() => adam.minimize(loss, true));
    // Read asynchronously: a GPU backend of TF.js (webgpu) reads its tensors no other way in Node.
    losses.push((await value.data())[0]);
    value.dispose();
    await onEpoch?.({ epoch, loss: losses[epoch], seconds: (performance.now() - started) / 1000 });
  }
  const predictions = await predict(model, adjacency, x, runtime);
  const correct = trainNodes.filter((i) => predictions[i] === labels[i]).length;
  tf.dispose([idx, targets]);
  adam.dispose();
  return { losses, predictions, accuracy: correct / trainNodes.length };
}

/** Each node's predicted class: the argmax of its logits. */
export async function predict(model, adjacency, x, runtime) {
  const classes = tf.tidy(() => tf.argMax(logits(model, adjacency, x, runtime), 1));
  const out = Array.from(await classes.data());
  classes.dispose();
  return out;
}
