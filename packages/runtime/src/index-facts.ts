import type { SparseData } from '@sparse/kernel-abi';

/**
 * What has been established about a sparse tensor's indices: every index within its dense shape (all dims, or all
 * but the last for an op that discards it), and canonical order without repeats. Kept by the identity of the
 * index storage, which a SparseTensor never gives out or changes, so that a fact once checked (or made true by the
 * kernel that produced the tensor) is not checked again, call after call.
 */
interface IndexFacts {
  /** The dense shape the bounds were checked against (a tensor sharing the storage may have another). */
  shape: readonly number[];
  bounds?: 'all' | 'except_last';
  ordered?: boolean;
}

const FACTS = new WeakMap<Float64Array, IndexFacts>();

function factsOf(st: SparseData): IndexFacts | undefined {
  const f = FACTS.get(st.indices);
  return f && sameDims(f.shape, st.shape) ? f : undefined;
}

function record(st: SparseData, fact: Partial<Omit<IndexFacts, 'shape'>>): void {
  const f = factsOf(st);
  if (f) Object.assign(f, fact);
  else FACTS.set(st.indices, { shape: st.shape.slice(), ...fact });
}

/** Whether every index is known to lie within the shape (`checkLast` false: all but the last dim are enough). */
export function knownInBounds(st: SparseData, checkLast: boolean): boolean {
  const b = factsOf(st)?.bounds;
  return b === 'all' || (b === 'except_last' && !checkLast);
}

export function establishInBounds(st: SparseData, checkLast: boolean): void {
  if (!knownInBounds(st, true)) record(st, { bounds: checkLast ? 'all' : 'except_last' });
}

/** Whether the indices are known to be in canonical order without repeats (a fact of the indices alone). */
export function knownOrdered(st: SparseData): boolean {
  return FACTS.get(st.indices)?.ordered === true;
}

export function establishOrdered(st: SparseData): void {
  record(st, { ordered: true });
}

function sameDims(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}
