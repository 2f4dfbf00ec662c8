// The GCN of examples/gcn (two layers, Kipf & Welling) on a stochastic-block-model graph, trained with TF.js's Adam:
// the time of one epoch (forward, gradients, the Adam step) on each of our backends, the sparse products and their
// gradients on that backend, TF.js's own dense parts (X · W, relu, the loss) on its wasm backend where it loads (else
// cpu). The graph and features are built once; one epoch warms up, then each epoch is timed.
import { normalizedAdjacency, createModel, train } from '../../examples/gcn/gcn.mjs';
import { stochasticBlockModel } from '../../examples/gcn/sbm.mjs';

/** A runtime that adds up the time its calls take: the sparse share of an epoch. */
function timed(rt) {
  const spent = { ms: 0 };
  const clock =
    (f) =>
    (...a) => {
      const t = performance.now();
      try {
        return f(...a);
      } finally {
        spent.ms += performance.now() - t;
      }
    };
  return { runtime: { run: clock((id, args) => rt.run(id, args)), vjp: clock((...a) => rt.vjp(...a)) }, spent };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function gcnSection(ctx) {
  const { config, ours, tf, tfBackends } = ctx;
  const { nodes, degree, blocks, features, hidden, epochs } = config.gcn;
  if (!tf) return { error: 'TensorFlow.js did not load' };
  // TF.js's gradients of its own ops (tfjs-core alone registers none; @tensorflow/tfjs does).
  await import('@tensorflow/tfjs');
  const tfBackend = tfBackends.includes('wasm') ? 'wasm' : 'cpu';
  await tf.setBackend(tfBackend);
  const graph = stochasticBlockModel({ nodes, blocks, degree, features });
  const adjacency = normalizedAdjacency(nodes, graph.edges);
  process.stderr.write(`gcn: ${nodes} nodes, ${graph.edges.length} edges, ${adjacency.values.length} entries of Â\n`);
  const results = {};
  for (const { name, rt } of ours) {
    const { runtime, spent } = timed(rt);
    const model = createModel({ features, hidden, classes: blocks, seed: 3 });
    const epochMs = [];
    const sparseMs = [];
    try {
      await train({
        model,
        adjacency,
        x: graph.x,
        labels: graph.labels,
        classes: blocks,
        epochs: epochs + 1,
        runtime,
        onEpoch: ({ epoch, seconds }) => {
          if (epoch > 0) {
            epochMs.push(seconds * 1000);
            sparseMs.push(spent.ms);
          }
          spent.ms = 0;
        },
      });
      results[name] = {
        median_ms: median(epochMs),
        min_ms: Math.min(...epochMs),
        max_ms: Math.max(...epochMs),
        sparse_ms: median(sparseMs),
        samples: epochMs.length,
      };
    } catch (e) {
      results[name] = { error: String(e?.message ?? e).split('\n')[0] };
    } finally {
      tf.dispose([model.w1, model.w2]);
    }
  }
  graph.x.dispose();
  return {
    nodes,
    edges: graph.edges.length,
    entries: adjacency.values.length,
    features,
    hidden,
    blocks,
    tfjs_backend: tfBackend,
    results,
  };
}
