import { DTYPE_NAMES } from './spec-types.js';

type Report = (path: (string | number)[], message: string) => void;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Checks that an example value has the case value form (docs/cases.md) its argument or output type calls for. */
export function checkCaseValues(value: unknown, type: string, report: Report): void {
  switch (type) {
    case 'sparse':
      checkSparse(value, [], report);
      return;
    case 'sparse_or_sparse_list':
      if (Array.isArray(value)) value.forEach((v, i) => checkSparse(v, [i], report));
      else checkSparse(value, [], report);
      return;
    case 'int_or_int_list':
      if (!Number.isInteger(value) && !(Array.isArray(value) && value.every(Number.isInteger)))
        report([], `expected a whole number or a list of them, got ${JSON.stringify(value)}`);
      return;
    case 'sparse_list':
      if (!Array.isArray(value)) report([], 'a list of SparseTensors must be a list');
      else value.forEach((v, i) => checkSparse(v, [i], report));
      return;
    case 'dense':
    case 'scalar':
      if (isObject(value)) checkDense(value, [], report);
      return;
    case 'sparse_or_dense':
      if (isObject(value) && 'sparse' in value) checkSparse(value, [], report);
      else if (isObject(value)) checkDense(value, [], report);
      return;
    case 'int':
      if (!Number.isInteger(value)) report([], `expected a whole number, got ${JSON.stringify(value)}`);
      return;
    case 'bool':
      if (typeof value !== 'boolean') report([], `expected true or false, got ${JSON.stringify(value)}`);
      return;
    case 'shape':
    case 'int_list':
      if (
        !Array.isArray(value) ||
        !value.every((v) => Number.isInteger(v) || (typeof v === 'string' && /^-?\d+$/.test(v)))
      ) {
        report([], `expected a list of whole numbers, got ${JSON.stringify(value)}`);
      }
      return;
    case 'axes':
      if (!(value === null || Number.isInteger(value) || (Array.isArray(value) && value.every(Number.isInteger)))) {
        report([], `expected null, an axis or a list of axes, got ${JSON.stringify(value)}`);
      }
      return;
  }
}

function checkDtype(v: Record<string, unknown>, path: (string | number)[], report: Report): void {
  if (!(DTYPE_NAMES as readonly unknown[]).includes(v.dtype)) {
    report([...path, 'dtype'], `unknown dtype ${JSON.stringify(v.dtype)} (dtypes: ${DTYPE_NAMES.join(', ')})`);
  }
}

function checkSparse(v: unknown, path: (string | number)[], report: Report): void {
  if (!isObject(v) || !isObject(v.sparse)) {
    report(path, 'a SparseTensor is written {sparse: {indices, values, dense_shape}, dtype}');
    return;
  }
  const extra = Object.keys(v).filter((k) => k !== 'sparse' && k !== 'dtype');
  if (extra.length) report([...path, extra[0]], 'unknown field');
  checkDtype(v, path, report);
  const s = v.sparse;
  for (const k of ['indices', 'values', 'dense_shape']) {
    if (!Array.isArray(s[k])) report([...path, 'sparse', k], `'${k}' must be a list`);
  }
  const extraS = Object.keys(s).filter((k) => !['indices', 'values', 'dense_shape'].includes(k));
  if (extraS.length) report([...path, 'sparse', extraS[0]], 'unknown field');
}

function checkDense(v: Record<string, unknown>, path: (string | number)[], report: Report): void {
  if (!('dense' in v)) {
    report(path, 'a dense tensor is written {dense: NESTED, dtype} (with `shape` for a zero-sized dim)');
    return;
  }
  const extra = Object.keys(v).filter((k) => !['dense', 'dtype', 'shape'].includes(k));
  if (extra.length) report([...path, extra[0]], 'unknown field');
  checkDtype(v, path, report);
}
