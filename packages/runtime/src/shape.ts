import { exactSizeOf, sizeOf } from '@sparse/kernel-abi';
import { InvalidArgumentError, ResourceExhaustedError } from './errors.js';
import { describe } from './dtype.js';
import { isList, trustedList } from './list-input.js';
import { readInt64, readWholeNumber } from './whole-number.js';

/** The largest dense tensor sparse will allocate: beyond it an op refuses before allocating anything. */
export const MAX_DENSE_ELEMENTS = 2 ** 31 - 1;

/** The most dims a tensor has, as in TensorFlow; also how deep nested lists may go. */
export const MAX_RANK = 254;

const INT64_MAX = 2n ** 63n - 1n;

export function shapeText(shape: readonly (number | bigint)[]): string {
  return `[${shape.join(',')}]`;
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

/**
 * Reads a dense shape: a list (array or typed array) of at most MAX_RANK dims, each a whole number >= 0 given as a
 * number, a bigint or a string of digits, all of them counting at most 2^63 - 1 elements (TensorFlow's int64 count).
 * A dim past 2^53 - 1 is refused as too large (see readWholeNumber).
 */
export function toShape(given: unknown, what: string): number[] {
  if (!isList(given)) throw new TypeError(`${what} must be a list of dims, got ${describe(given)}`);
  const dims = trustedList(given);
  if (dims.length > MAX_RANK) {
    throw new InvalidArgumentError(`${what} has ${dims.length} dims; a tensor has at most ${MAX_RANK}`);
  }
  const out = new Array<number>(dims.length);
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i];
    out[i] = typeof d === 'number' && d >= 0 && Number.isSafeInteger(d) ? d : readDim(d, `${what}[${i}]`);
  }
  assertInt64Count(out, what);
  return out;
}

/** Refuses a dense shape of more elements than int64 counts (2^63 - 1), as TensorFlow does. */
export function assertInt64Count(shape: readonly number[], what: string): void {
  // Below 2^62 the float product cannot be hiding a count past 2^63 - 1.
  if (sizeOf(shape) >= 2 ** 62 && exactSizeOf(shape) > INT64_MAX) {
    throw new InvalidArgumentError(
      `${what} ${shapeText(shape)} has ${exactSizeOf(shape)} elements, more than int64 counts (2^63 - 1), as TensorFlow refuses`,
    );
  }
}

/**
 * Reads a dense shape as toShape does, but held exactly up to int64's 2^63 - 1: numbers while every dim is at most
 * 2^53 - 1, otherwise every dim a bigint (a sparse tensor's dense shape, and the shape arguments of the ops that
 * hold such shapes exactly).
 */
export function toExactShape(given: unknown, what: string): number[] | bigint[] {
  if (!isList(given)) throw new TypeError(`${what} must be a list of dims, got ${describe(given)}`);
  const dims = trustedList(given);
  if (dims.length > MAX_RANK) {
    throw new InvalidArgumentError(`${what} has ${dims.length} dims; a tensor has at most ${MAX_RANK}`);
  }
  const out = new Array<number | bigint>(dims.length);
  let wide = false;
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i];
    if (typeof d === 'number' && d >= 0 && Number.isSafeInteger(d)) out[i] = d;
    else {
      const v = readInt64(d, `${what}[${i}]`, { digits: true });
      if (v < 0) throw new InvalidArgumentError(`${what}[${i}] = ${v} is not a dim: need a whole number >= 0`);
      out[i] = v;
      wide ||= typeof v === 'bigint';
    }
  }
  if (!wide) {
    assertInt64Count(out as number[], what);
    return out as number[];
  }
  const big = out.map(BigInt);
  const count = big.reduce((n, d) => n * d, 1n);
  if (count > INT64_MAX) {
    throw new InvalidArgumentError(
      `${what} [${big.join(',')}] has ${count} elements, more than int64 counts (2^63 - 1), as TensorFlow refuses`,
    );
  }
  return big;
}

function readDim(d: unknown, what: string): number {
  const v = readWholeNumber(d, what, { digits: true });
  if (v < 0) throw new InvalidArgumentError(`${what} = ${v} is not a dim: need a whole number >= 0`);
  return v;
}

/**
 * Refuses a dense output too large to allocate, naming the op and the shape: a ResourceExhaustedError, as
 * TensorFlow's failed allocation is (the shape itself is valid).
 */
export function assertAllocatable(shape: readonly number[], what: string): void {
  const n = sizeOf(shape);
  if (n > MAX_DENSE_ELEMENTS) {
    throw new ResourceExhaustedError(
      `${what} of dense shape ${shapeText(shape)} would hold ${n.toExponential(3)} elements, more than the ${MAX_DENSE_ELEMENTS} a dense tensor can hold`,
    );
  }
}
