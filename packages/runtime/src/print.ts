/**
 * How tensors print (toString, console.log, print()), as TensorFlow.js summarizes them: a list or dim of more than
 * SHOWN_WHOLE items shows its first and last FIRST_LAST, with '…' between, so that printing a large tensor reads only
 * what it shows.
 */

export const SHOWN_WHOLE = 20;
export const FIRST_LAST = 3;

/** Node's util.inspect hook (console.log of a tensor prints its toString()); a plain symbol elsewhere. */
export const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** The positions a printed list of n items shows, in order; -1 where '…' stands for the ones left out. */
export function shownPositions(n: number): number[] {
  if (n <= SHOWN_WHOLE) return Array.from({ length: n }, (_, i) => i);
  const first = Array.from({ length: FIRST_LAST }, (_, i) => i);
  const last = Array.from({ length: FIRST_LAST }, (_, i) => n - FIRST_LAST + i);
  return [...first, -1, ...last];
}

/** A list as text: `item` writes the item at a position, long lists summarized. */
export function formatList(n: number, item: (i: number) => string): string {
  return `[${shownPositions(n)
    .map((i) => (i < 0 ? '…' : item(i)))
    .join(', ')}]`;
}

/** A value as printed: strings quoted, the rest as String() writes them. */
export const formatScalar = (x: unknown): string => (typeof x === 'string' ? JSON.stringify(x) : String(x));

/** Row-major values of `shape` as nested lists, each dim summarized; `at(offset)` reads one value. */
export function formatDense(shape: readonly number[], at: (offset: number) => unknown): string {
  if (shape.length === 0) return formatScalar(at(0));
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const dim = (d: number, base: number): string =>
    formatList(shape[d], (i) =>
      d === shape.length - 1 ? formatScalar(at(base + i)) : dim(d + 1, base + i * strides[d]),
    );
  return dim(0, 0);
}
