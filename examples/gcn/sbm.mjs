// A stochastic block model: `nodes` nodes in `blocks` equal communities, about `degree` neighbours each, a share
// `inside` of the edges within a community and the rest between two; each node's block is its class, and its
// features are noise plus a hint of its block. A graph of any size for the GCN, deterministic from its seed.
import * as tf from '@tensorflow/tfjs-core';

/** Edges ([a, b], a < b, no repeats, no loops), each node's block, and the features X [nodes, features]. */
export function stochasticBlockModel({ nodes, blocks = 4, degree = 10, inside = 0.8, features = 16, seed = 7 }) {
  const size = Math.ceil(nodes / blocks);
  const blockOf = (v) => Math.floor(v / size);
  const wanted = Math.round((nodes * degree) / 2);
  // Three uniform draws per edge: the first node, the second within its block or anywhere, and which of the two.
  // Read outside tf.tidy, which would walk a returned array value by value looking for tensors.
  const draws = tf.randomUniform([3 * wanted], 0, 1, 'float32', seed);
  const u = draws.dataSync();
  draws.dispose();
  const seen = new Set();
  const edges = [];
  for (let k = 0; k < wanted; k++) {
    const a = Math.min(nodes - 1, Math.floor(u[3 * k] * nodes));
    const within = u[3 * k + 2] < inside;
    const lo = within ? blockOf(a) * size : 0;
    const hi = within ? Math.min(nodes, lo + size) : nodes;
    const b = Math.min(hi - 1, lo + Math.floor(u[3 * k + 1] * (hi - lo)));
    if (a === b) continue;
    const [x, y] = a < b ? [a, b] : [b, a];
    const key = x * nodes + y;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push([x, y]);
  }
  const labels = Array.from({ length: nodes }, (_, v) => blockOf(v));
  const x = tf.tidy(() =>
    tf.add(
      tf.randomNormal([nodes, features], 0, 1, 'float32', seed + 1),
      tf.mul(0.5, tf.oneHot(tf.tensor1d(labels, 'int32'), features)),
    ),
  );
  return { edges, labels, x, classes: blocks };
}
