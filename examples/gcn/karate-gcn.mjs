// The GCN on Zachary's karate club: one-hot features (each member is its own feature, as Kipf & Welling's karate
// example), two factions, trained on every member's faction. Shared by the Node script, the test and the page.
import * as tf from '@tensorflow/tfjs-core';
import { createModel, normalizedAdjacency, train } from './gcn.mjs';
import { EDGES, FACTIONS, MEMBERS } from './karate.mjs';

/** The karate club's graph, features and labels, and a fresh model: what `train` takes. */
export function karateProblem({ hidden = 16, seed = 1 } = {}) {
  return {
    adjacency: normalizedAdjacency(MEMBERS, EDGES),
    x: tf.eye(MEMBERS),
    labels: FACTIONS,
    classes: 2,
    model: createModel({ features: MEMBERS, hidden, classes: 2, seed }),
  };
}

/** Trains the GCN on the karate club (200 epochs of Adam at 0.01 by default) on `runtime`; `train`'s result. */
export async function trainKarate({ runtime, epochs = 200, learningRate = 0.01, onEpoch } = {}) {
  const problem = karateProblem();
  try {
    return await train({ ...problem, epochs, learningRate, runtime, onEpoch });
  } finally {
    tf.dispose([problem.x, problem.model.w1, problem.model.w2]);
  }
}
