// Where to draw each node: a force-directed layout (Fruchterman & Reingold, 1991) from a fixed start, so the page
// draws the same picture on every load. Positions in [0, 1] × [0, 1].

/** A layout of `n` nodes joined by `edges`: linked nodes pull together, all push apart, the moves cooling down. */
export function forceLayout(n, edges, iterations = 400) {
  // A circle to start from: deterministic, and no two nodes in one place.
  const pos = Array.from({ length: n }, (_, i) => [
    0.5 + 0.4 * Math.cos((2 * Math.PI * i) / n),
    0.5 + 0.4 * Math.sin((2 * Math.PI * i) / n),
  ]);
  const k = Math.sqrt(1 / n);
  for (let it = 0; it < iterations; it++) {
    const temperature = 0.1 * (1 - it / iterations);
    const move = pos.map(() => [0, 0]);
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const dx = pos[i][0] - pos[j][0];
        const dy = pos[i][1] - pos[j][1];
        const d = Math.max(1e-4, Math.hypot(dx, dy));
        const push = (k * k) / d;
        move[i][0] += (dx / d) * push;
        move[i][1] += (dy / d) * push;
        move[j][0] -= (dx / d) * push;
        move[j][1] -= (dy / d) * push;
      }
    for (const [a, b] of edges) {
      const dx = pos[a][0] - pos[b][0];
      const dy = pos[a][1] - pos[b][1];
      const d = Math.max(1e-4, Math.hypot(dx, dy));
      const pull = (d * d) / k;
      move[a][0] -= (dx / d) * pull;
      move[a][1] -= (dy / d) * pull;
      move[b][0] += (dx / d) * pull;
      move[b][1] += (dy / d) * pull;
    }
    for (let i = 0; i < n; i++) {
      const d = Math.max(1e-9, Math.hypot(move[i][0], move[i][1]));
      const step = Math.min(d, temperature);
      pos[i][0] += (move[i][0] / d) * step;
      pos[i][1] += (move[i][1] / d) * step;
    }
  }
  // Fit into the unit square.
  const xs = pos.map((p) => p[0]);
  const ys = pos.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return pos.map(([x, y]) => [(x - x0) / (x1 - x0 || 1), (y - y0) / (y1 - y0 || 1)]);
}
