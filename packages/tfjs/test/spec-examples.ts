import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CsrMatrix, SparseTensor, tensor, type DType } from '@sparse/runtime';

// The spec examples, as codegen writes them for the conformance suite (read as a file: this package's tests do not
// depend on @sparse/conformance), with their tensor forms made into runtime values.

export interface Example {
  op: string;
  name: string;
  args: Record<string, unknown>;
  expect?: Record<string, unknown>;
  expect_error?: unknown;
}

const CASES = join(import.meta.dirname, '../../conformance/generated/cases.json');

/** Every spec example with an expected result (not an error), by op id. */
export function examplesByOp(): Map<string, Example[]> {
  const { cases } = JSON.parse(readFileSync(CASES, 'utf8')) as { cases: Example[] };
  const by = new Map<string, Example[]>();
  for (const c of cases) if (c.expect) by.set(c.op, [...(by.get(c.op) ?? []), c]);
  return by;
}

const SPECIAL: Record<string, number> = { nan: NaN, inf: Infinity, '-inf': -Infinity };

function leaf(v: unknown, dtype: unknown): unknown {
  if (typeof v === 'string' && (dtype === 'float32' || dtype === 'float64') && v in SPECIAL) return SPECIAL[v];
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return v;
}

function leaves(x: unknown, dtype: unknown): unknown {
  return Array.isArray(x) ? x.map((e) => leaves(e, dtype)) : leaf(x, dtype);
}

/** A case value as a runtime value: `{sparse}`, `{dense}`, `{csr}` forms made tensors, lists mapped, the rest as is. */
export function toValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(toValue);
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  const dtype = o.dtype as DType | undefined;
  if ('sparse' in o) {
    const s = o.sparse as Record<string, unknown>;
    return new SparseTensor(
      leaves(s.indices, 'int64') as never,
      leaves(s.values, dtype) as never,
      leaves(s.dense_shape, 'int64') as never,
      dtype,
    );
  }
  if ('dense' in o) return tensor(leaves(o.dense, dtype) as never, dtype, o.shape as number[] | undefined);
  if ('csr' in o) {
    const c = o.csr as Record<string, unknown>;
    return CsrMatrix.fromJSON({ ...c, values: leaves(c.values, dtype), dtype } as never);
  }
  return v;
}

export const TF_DTYPES = new Set(['float32', 'int32', 'bool', 'string']);

/** Whether `x` is a tensor form of the case format (`{sparse}`, `{dense}`, `{csr}`, with its dtype), not a record. */
const isForm = (x: object) =>
  ['sparse', 'dense', 'csr'].some((k) => k in x) &&
  Object.keys(x).every((k) => ['sparse', 'dense', 'csr', 'dtype', 'shape'].includes(k));

/** Whether every tensor form in `x` has a dtype TF.js holds (or is a CsrMatrix, which stays one). */
export function tfHolds(x: unknown): boolean {
  if (Array.isArray(x)) return x.every(tfHolds);
  if (typeof x !== 'object' || x === null) return true;
  const o = x as Record<string, unknown>;
  if (!isForm(o)) return Object.values(o).every(tfHolds);
  return 'csr' in o || TF_DTYPES.has(o.dtype as string);
}

/** `x` with its float64 tensors as float32 (int64 ones stay: an int64 output is refused, not narrowed). */
export function narrow(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(narrow);
  if (typeof x !== 'object' || x === null) return x;
  if (!isForm(x)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, narrow(v)]));
  const o = x as Record<string, unknown>;
  return o.dtype === 'float64' ? { ...o, dtype: 'float32' } : o;
}

/** The example to run: one whose arguments and outputs TF.js holds, else the first with float64 made float32. */
export function pick(examples: Example[]): Example {
  return (
    examples.find((e) => tfHolds(e.args) && tfHolds(e.expect)) ??
    examples.map((e) => ({ ...e, args: narrow(e.args) as never, expect: narrow(e.expect) as never }))[0]
  );
}
