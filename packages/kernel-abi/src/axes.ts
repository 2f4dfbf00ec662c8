/** The dims a reduction over `axes` reduces: null is every dim, a negative axis counts from the end. */
export function reducedAxes(axes: readonly number[] | null, rank: number): Set<number> {
  if (axes === null) return new Set(Array.from({ length: rank }, (_, d) => d));
  return new Set(axes.map((a) => (a < 0 ? a + rank : a)));
}
