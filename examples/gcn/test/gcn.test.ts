import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, sparse, type Runtime } from '@sparse/runtime';
import { normalizedAdjacency, train } from '../gcn.mjs';
import { EDGES, FACTIONS, MEMBERS } from '../karate.mjs';
import { karateProblem, trainKarate } from '../karate-gcn.mjs';
import { stochasticBlockModel } from '../sbm.mjs';

// The GCN of examples/gcn in Node: the karate club's data, the normalised adjacency, and training to the
// factions on the js and wasm backends (the browser page has its own test, examples/gcn/test/page.test.ts).

describe("Zachary's karate club and its normalised adjacency", () => {
  it('has 34 members, 78 distinct friendships and two factions led by members 0 and 33', () => {
    expect(MEMBERS).toBe(34);
    expect(new Set(EDGES.map(([a, b]) => `${a}-${b}`)).size).toBe(78);
    expect(EDGES.every(([a, b]) => a < b && b < MEMBERS)).toBe(true);
    expect([FACTIONS.length, FACTIONS[0], FACTIONS[33]]).toEqual([34, 0, 1]);
    expect(FACTIONS.filter((f) => f === 0).length).toBe(17);
  });

  it('Â = D^-1/2 (A + I) D^-1/2: symmetric, a self-loop per node, canonical order', () => {
    const a = normalizedAdjacency(MEMBERS, EDGES);
    expect(a.values.length).toBe(2 * 78 + 34);
    const dense = sparse.toDense(a).toArray() as number[][];
    const degree = dense.map((row) => row.filter((v) => v !== 0).length);
    for (let i = 0; i < MEMBERS; i++)
      for (let j = 0; j < MEMBERS; j++) {
        const linked = i === j || EDGES.some(([x, y]) => (x === i && y === j) || (x === j && y === i));
        expect(dense[i][j]).toBeCloseTo(linked ? 1 / Math.sqrt(degree[i] * degree[j]) : 0, 6);
      }
    // Canonical order: a sparse op that requires it takes Â as it is.
    expect(() => sparse.softmax(a)).not.toThrow();
  });
});

for (const backend of ['js', 'wasm']) {
  describe(`the GCN trains on ${backend}`, () => {
    let runtime: Runtime;
    beforeAll(async () => {
      runtime = await createRuntime({ backend });
    });

    it('to the factions of the karate club: training accuracy at least 97% (33 of 34), the loss falling', async () => {
      const { accuracy, losses } = await trainKarate({ runtime });
      expect(accuracy).toBeGreaterThanOrEqual(33 / 34);
      expect(losses.at(-1)!).toBeLessThan(losses[0] / 10);
    });

    it('from two labelled members, the instructor and the administrator, to at least 90% of the others', async () => {
      const problem = karateProblem();
      const { predictions } = await train({ ...problem, trainNodes: [0, 33], epochs: 200, runtime });
      const right = predictions.filter((c, i) => c === FACTIONS[i]).length;
      expect(right / MEMBERS).toBeGreaterThanOrEqual(0.9);
      tf.dispose([problem.x, problem.model.w1, problem.model.w2]);
    });
  });
}

it('computes the same losses on js and wasm', async () => {
  const [js, wasm] = await Promise.all(['js', 'wasm'].map((backend) => createRuntime({ backend })));
  const a = await trainKarate({ runtime: js, epochs: 20 });
  const b = await trainKarate({ runtime: wasm, epochs: 20 });
  a.losses.forEach((l, i) => expect(b.losses[i]).toBeCloseTo(l, 4));
});

describe('the stochastic block model', () => {
  it('has the edges asked for, no loops or repeats, most of them inside a block', () => {
    const { edges, labels, x, classes } = stochasticBlockModel({ nodes: 2000, blocks: 4, degree: 10, inside: 0.8 });
    expect(classes).toBe(4);
    expect(x.shape).toEqual([2000, 16]);
    expect(edges.length).toBeGreaterThan(9500);
    expect(edges.length).toBeLessThanOrEqual(10000);
    expect(new Set(edges.map(([a, b]) => `${a}-${b}`)).size).toBe(edges.length);
    expect(edges.every(([a, b]) => a < b)).toBe(true);
    const inside = edges.filter(([a, b]) => labels[a] === labels[b]).length / edges.length;
    expect(inside).toBeGreaterThan(0.75);
    expect(inside).toBeLessThan(0.9);
    x.dispose();
  });
});
