// What the bench measures, full and --quick: the grids, the sizes and the timing budgets. A budget is tinybench's:
// a task runs `warmupIterations` untimed calls (and at least `warmupTime` ms of them), then at least `iterations`
// timed calls and at least `time` ms of them; the peers get the same minimums.

export const TF_DENSITIES = [0.01, 0.2, 0.5, 0.8];
const TF_NS = [1, 10, 25];
const TF_MK = [100, 1000];

export function benchConfig(quick) {
  // TensorFlow's table: every density × n × m × k of the published grid (quick runs it whole too, on a smaller
  // budget: its largest product is 1000×1000×25), then the extension m = k = 4096, n = 128 at each density
  // (quick: 1% only, the headline point).
  const grid = [];
  for (const density of TF_DENSITIES)
    for (const n of TF_NS)
      for (const m of TF_MK) for (const k of TF_MK) grid.push({ density, n, m, k, extended: false });
  for (const density of quick ? [0.01] : TF_DENSITIES) grid.push({ density, n: 128, m: 4096, k: 4096, extended: true });

  const nnzSteps = quick ? [1e4, 3e4, 1e5] : [1e4, 3e4, 1e5, 3e5, 1e6, 3e6, 1e7];
  return {
    mode: quick ? 'quick' : 'full',
    grid,
    budgets: {
      grid: quick
        ? { time: 25, iterations: 5, warmupTime: 10, warmupIterations: 2 }
        : { time: 250, iterations: 10, warmupTime: 50, warmupIterations: 3 },
      // One call of the extended points takes up to seconds (TF.js cpu's dense 4096×4096×128): fewer, longer calls.
      heavy: quick
        ? { time: 1, iterations: 3, warmupTime: 0, warmupIterations: 1 }
        : { time: 1, iterations: 5, warmupTime: 0, warmupIterations: 1 },
      // The sparse products of the extended points (ours, scipy, the C++ loop) take milliseconds at 1% (the
      // headline) and up to seconds at 80%: a time budget too, so the fast ones get a median of many calls.
      sparseHeavy: quick
        ? { time: 25, iterations: 3, warmupTime: 0, warmupIterations: 2 }
        : { time: 250, iterations: 5, warmupTime: 0, warmupIterations: 2 },
      ops: quick
        ? { time: 50, iterations: 5, warmupTime: 10, warmupIterations: 2 }
        : { time: 1000, iterations: 10, warmupTime: 100, warmupIterations: 2 },
      scaling: quick
        ? { time: 25, iterations: 5, warmupTime: 10, warmupIterations: 2 }
        : { time: 250, iterations: 5, warmupTime: 0, warmupIterations: 1 },
      // The gpu section times the first call by itself; these are the later calls.
      gpu: quick
        ? { time: 25, iterations: 5, warmupTime: 0, warmupIterations: 1 }
        : { time: 250, iterations: 10, warmupTime: 0, warmupIterations: 1 },
    },
    // Other ops: ~10^6 stored entries of a 4000×4000 float32 matrix (quick: ~10^5 of 1000×1000).
    ops: quick
      ? { rows: 1000, cols: 1000, nnz: 1e5, segmentWidth: 8 }
      : { rows: 4000, cols: 4000, nnz: 1e6, segmentWidth: 8 },
    // Embedding lookups: `ids` ids into a vocab×dim float32 table, in `batch` rows.
    embedding: quick ? { vocab: 1e4, dim: 64, ids: 1e4, batch: 1e3 } : { vocab: 1e5, dim: 64, ids: 1e5, batch: 1e4 },
    // SpGEMM: random square matrices at 1% and 0.1% (A·B), and a power-law graph's adjacency matrix squared.
    spgemm: quick
      ? [
          { n: 1024, density: 0.01 },
          { n: 1024, density: 0.001 },
          { n: 4096, graph: true, degree: 8 },
        ]
      : [
          { n: 4096, density: 0.01 },
          { n: 4096, density: 0.001 },
          { n: 16384, graph: true, degree: 8 },
        ],
    // The GCN of examples/gcn on a stochastic-block-model graph: time per training epoch.
    gcn: { nodes: quick ? 1e4 : 1e5, degree: 10, blocks: 4, features: 16, hidden: 16, epochs: quick ? 3 : 10 },
    // Cold start: each case in fresh processes (the first calls, against the steady state of the same process).
    cold: {
      spmm: [
        { m: 4096, n: 128 },
        { m: 2048, n: 64 },
      ],
      processes: quick ? 2 : 5,
      calls: quick ? 20 : 60,
      ops: { processes: quick ? 1 : 3, calls: quick ? 8 : 16 },
    },
    // Scaling: square A with ~8 stored entries per row, so m = k = nnz / 8, times B with n = 16 columns.
    scaling: { nnz: nnzSteps, perRow: 8, n: 16 },
    // The gpu section: SpMM (A m×m at `density`, B m×n) and the family ops on ~nnz stored entries of a square
    // matrix at `density`. 1e4 and 3e4 share a size class (×16), so the second one's first call compiles nothing.
    gpu: {
      density: 0.01,
      spmm: quick
        ? [
            { m: 256, n: 16 },
            { m: 1024, n: 64 },
          ]
        : [
            { m: 256, n: 16 },
            { m: 1024, n: 64 },
            { m: 4096, n: 128 },
          ],
      nnz: quick ? [1e4, 3e4, 1e5] : [1e4, 3e4, 1e5, 1e6],
    },
  };
}
