import { sizeOf, type CsrData, type DenseData, type SparseData } from '@sparse/kernel-abi';
import type { BoundArgs } from './bind-args.js';
import type { OpMeta, ScratchTerm } from './op-meta.js';

type Data = SparseData | DenseData | CsrData;

/** One part of what a call needs: an output, or the working memory a spec declares. */
export interface PartBytes {
  output: string;
  bytes: number;
  /** Its string values, which live in the JavaScript heap (a reference each, as its array holds them). */
  strings: number;
  /** `dense shape [2, 1000000000]`, `at most 1000000002 entries of rank 2`: how the bytes were counted. */
  what: string;
}

/**
 * The working memory the kernel holds besides its outputs, as its spec declares it (`kernel.scratch`): each term
 * that applies to this call's flags, read off the arguments' shapes and entry counts in O(1) per tensor.
 */
export function scratchParts(op: OpMeta, bound: BoundArgs): PartBytes[] {
  const parts: PartBytes[] = [];
  for (const t of op.scratch ?? []) {
    const set = (flags: string[] | undefined) => (flags ?? []).some((f) => bound.values[f] === true);
    if ((t.when && !set(t.when)) || set(t.unless)) continue;
    const [units, what] = measure(t, bound);
    if (units > 0)
      parts.push({ output: 'working memory', bytes: units * t.bytes, strings: 0, what: `${t.bytes} bytes × ${what}` });
  }
  return parts;
}

function measure(t: ScratchTerm, bound: BoundArgs): [number, string] {
  if ('nnz' in t) {
    const v = bound.values[t.nnz] as Data | Data[] | null;
    const n = (Array.isArray(v) ? v : v ? [v] : []).reduce(
      (s, x) => s + (x.kind === 'dense' ? sizeOf(x.shape) : x.values.length),
      0,
    );
    return [n, `${n} entries of ${t.nnz}`];
  }
  if ('size' in t) {
    const n = sizeOf((bound.values[t.size] as Data).shape);
    return [n, `${n} elements of ${t.size}`];
  }
  if ('dims' in t) {
    const [arg, axes] = t.dims;
    const shape = (bound.values[arg] as Data | null)?.shape ?? [];
    const n = axes.reduce((p, a) => p * (shape[a < 0 ? shape.length + a : a] ?? 1), 1);
    return [n, `${n} (dims ${axes.join(', ')} of ${arg})`];
  }
  const given = t.min.map((name) => bound.values[name] as number | null).filter((v) => v !== null);
  const n = given.length === 0 ? 0 : Math.max(0, Math.min(...given));
  return [n, `${n} (${t.min.join(', ')})`];
}
