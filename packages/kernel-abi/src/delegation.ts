import type { KernelTable } from './generated/kernel-types.js';

// A backend that hands a call to another backend's kernel (a declared fallback: string values on wasm, an op
// not ported to the GPU) says so in its result, apart from the outputs, so that the runtime can report it and the
// conformance suite can count the case as `delegated`, never as `passed`.

// A registered symbol: the brand holds across two installed copies of this package.
const DELEGATION = Symbol.for('@sparse/kernel-abi/delegation');

/** Outputs another backend's kernel computed, and why. */
export interface Delegation<O> {
  readonly [DELEGATION]: true;
  readonly reason: string;
  readonly outputs: O;
}

/** What a kernel returns: its outputs, keyed by output name, or a delegation carrying them. */
export type KernelResult<O> = O | Delegation<O>;

export function delegation<O>(outputs: O, reason: string): Delegation<O> {
  return { [DELEGATION]: true, reason, outputs };
}

/** Runs the JS backend's kernel instead, saying so (reported as `delegated`, never as `passed`). */
export function delegate<A, O>(jsKernel: (args: A) => O, args: A, reason: string): Delegation<O> {
  return delegation(jsKernel(args), reason);
}

export function isDelegation<O>(result: KernelResult<O>): result is Delegation<O> {
  return typeof result === 'object' && result !== null && (result as Partial<Delegation<O>>)[DELEGATION] === true;
}

/** Op K's kernel on a backend other than the reference: K's arguments and outputs, free to delegate. */
export type OpKernel<K extends keyof KernelTable> = (
  args: Parameters<KernelTable[K]>[0],
) => KernelResult<ReturnType<KernelTable[K]>>;

/** The kernels of a backend other than the reference, by op id. */
export type BackendKernelTable = { readonly [K in keyof KernelTable]?: OpKernel<K> };
