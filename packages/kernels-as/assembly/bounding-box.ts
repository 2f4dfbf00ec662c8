/**
 * The tight bounding box of the rows (f64 [n × rank], as the JS side speaks them: whole numbers, compared exactly,
 * any dim): out (f64 [rank]) = max index + 1 per dim, 0 with no rows.
 */
export function bounding_box(idx: usize, n: i32, rank: i32, out: usize): void {
  for (let d = 0; d < rank; d++) store<f64>(out + ((<usize>d) << 3), 0);
  if (rank == 2) {
    // the common matrix case: both maxima in one v128
    let m = f64x2.splat(-1);
    for (let i = 0; i < n; i++) m = f64x2.pmax(m, v128.load(idx + ((<usize>i) << 4)));
    v128.store(out, f64x2.add(m, f64x2.splat(1)));
    return;
  }
  for (let i = 0; i < n; i++) {
    const row = idx + ((<usize>i * <usize>rank) << 3);
    for (let d = 0; d < rank; d++) {
      const x = load<f64>(row + ((<usize>d) << 3)) + 1;
      if (x > load<f64>(out + ((<usize>d) << 3))) store<f64>(out + ((<usize>d) << 3), x);
    }
  }
}
