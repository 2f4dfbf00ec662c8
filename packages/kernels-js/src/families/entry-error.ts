import { indexText, isKernelError } from '@sparse/kernel-abi';

/** A KernelError thrown while computing entry `i` of `indices` (an integer division by zero...), told where it happened. */
export function atEntry(e: unknown, what: string, indices: ArrayLike<number>, i: number, rank: number): unknown {
  if (isKernelError(e)) e.message += ` at ${what}[${i}] = ${indexText(indices, i, rank)}`;
  return e;
}
