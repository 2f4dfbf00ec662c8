import { sizeOf } from '@sparse/kernel-abi';
import { InvalidArgumentError } from './errors.js';
import { describe } from './dtype.js';

/** The largest dense tensor sparse will allocate: beyond it an op refuses before allocating anything. */
export const MAX_DENSE_ELEMENTS = 2 ** 31 - 1;

export function shapeText(shape: readonly number[]): string {
  return `[${shape.join(',')}]`;
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

/** Reads a dense shape given as numbers or bigints: every dim a whole number in [0, 2^53). */
export function toShape(dims: ArrayLike<unknown>, what: string): number[] {
  if (typeof dims !== 'object' || dims === null || typeof (dims as ArrayLike<unknown>).length !== 'number') {
    throw new TypeError(`${what} must be a list of dims, got ${describe(dims)}`);
  }
  const out = new Array<number>(dims.length);
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i];
    const v = typeof d === 'bigint' ? Number(d) : d;
    if (typeof v !== 'number') throw new TypeError(`${what}[${i}] must be a number, got ${describe(d)}`);
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new InvalidArgumentError(`${what}[${i}] = ${describe(d)} is not a dim: need a whole number >= 0`);
    }
    out[i] = v;
  }
  return out;
}

/** Refuses a dense output too large to allocate, naming the op and the shape. */
export function assertAllocatable(shape: readonly number[], what: string): void {
  const n = sizeOf(shape);
  if (n > MAX_DENSE_ELEMENTS) {
    throw new InvalidArgumentError(
      `${what} of dense shape ${shapeText(shape)} would hold ${n.toExponential(3)} elements, more than the ${MAX_DENSE_ELEMENTS} a dense tensor can hold`,
    );
  }
}
