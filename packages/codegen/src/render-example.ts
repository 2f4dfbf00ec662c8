import { camelCase } from './naming.js';
import type { CaseSpec, LoadedSpec } from './spec-types.js';
import type { ErrorKind } from '@sparse/case-format';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A case value as TS source that builds it with @sparse/runtime. */
function valueToTs(v: unknown): string {
  if (isObject(v) && isObject(v.sparse)) {
    const s = v.sparse;
    return `new SparseTensor(${json(s.indices)}, ${json(s.values)}, ${json(s.dense_shape)}, '${v.dtype}')`;
  }
  if (isObject(v) && isObject(v.csr)) return `CsrMatrix.fromJSON(${json({ ...v.csr, dtype: v.dtype })})`;
  if (isObject(v) && 'dense' in v) {
    return v.shape
      ? `tensor(${json(v.dense)}, '${v.dtype}', ${json(v.shape)})`
      : `tensor(${json(v.dense)}, '${v.dtype}')`;
  }
  if (Array.isArray(v) && v.some((x) => isObject(x))) return `[${v.map(valueToTs).join(', ')}]`;
  return json(v);
}

/** A case value as a short readable result (the dense data, or a sparse tensor's triple). */
function valueToText(v: unknown): string {
  if (isObject(v) && isObject(v.sparse)) {
    const s = v.sparse;
    return `SparseTensor(indices=${json(s.indices)}, values=${json(s.values)}, dense_shape=${json(s.dense_shape)}) ${v.dtype}`;
  }
  if (isObject(v) && isObject(v.csr)) {
    const c = v.csr;
    return `CsrMatrix(row_pointers=${json(c.row_pointers)}, col_indices=${json(c.col_indices)}, values=${json(c.values)}, dense_shape=${json(c.dense_shape)}) ${v.dtype}`;
  }
  if (isObject(v) && 'dense' in v) return `${json(v.dense)} ${v.dtype}`;
  if (Array.isArray(v)) return `[${v.map(valueToText).join(', ')}]`;
  return json(v);
}

function json(v: unknown): string {
  return JSON.stringify(v).replace(/,/g, ', ').replace(/:/g, ': ');
}

/** The call of the typed API that a case makes: required args positional, the rest in the options object. */
export function callToTs(spec: LoadedSpec, ex: CaseSpec, receiver = 'sparse'): string {
  const positional: string[] = [];
  const options: string[] = [];
  for (const a of spec.args) {
    const key = [a.name, ...(a.aliases ?? [])].find((k) => k in ex.args);
    if (a.default === undefined) positional.push(key === undefined ? 'undefined' : valueToTs(ex.args[key]));
    else if (key !== undefined) options.push(`${camelCase(a.name)}: ${valueToTs(ex.args[key])}`);
  }
  if (options.length) positional.push(`{ ${options.join(', ')} }`);
  return `${receiver}.${spec.apiName}(${positional.join(', ')})`;
}

/** What a case expects, in words. */
/** The runtime's error class of each kind a case may expect. */
const ERROR_CLASS: Record<ErrorKind, string> = {
  InvalidArgument: 'InvalidArgumentError',
  TypeError: 'TypeError',
  ResourceExhausted: 'ResourceExhaustedError',
};

export function expectationText(ex: CaseSpec): string {
  if (ex.expect_error)
    return `throws ${ERROR_CLASS[ex.expect_error.kind]}${ex.expect_error.match ? ` (/${ex.expect_error.match}/)` : ''}`;
  return Object.entries(ex.expect ?? {})
    .map(([k, v]) => `${k}: ${valueToText(v)}`)
    .join('\n');
}
