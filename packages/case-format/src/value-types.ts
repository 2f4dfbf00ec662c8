import { formatValue } from './format-value.js';
import { isDigitString } from './number-spellings.js';
import type { CasePath, Report } from './report.js';
import { isCsrForm, isDenseForm, isRecord, isSparseForm } from './value-forms.js';
import { DTYPE_NAMES, isDTypeName } from './dtypes.js';

/** The types an op spec gives its arguments and outputs; each calls for some of the value forms. */
export type ValueType =
  | 'sparse'
  | 'sparse_or_null'
  | 'sparse_list'
  | 'sparse_or_sparse_list'
  | 'sparse_or_dense_list'
  | 'dense'
  | 'scalar'
  | 'sparse_or_dense'
  | 'int'
  | 'bool'
  | 'int_list'
  | 'int_or_int_list'
  | 'shape'
  | 'axes'
  | 'string'
  | 'dtype'
  | 'csr';

const SPARSE_FORM = 'a SparseTensor is written {sparse: {indices, values, dense_shape}, dtype}';
const CSR_FORM = 'a CSR matrix is written {csr: {row_pointers, col_indices, values, dense_shape}, dtype}';
const DENSE_FORM = 'a dense tensor is written {dense: NESTED, dtype} (with `shape` for a zero-sized dim)';

/**
 * Checks that a value has a form its type calls for: a `sparse` argument a `{sparse}` value, a `shape` a list of
 * whole numbers, and so on. A tensor form's own fields are checked apart (`checkTensorFields`); a dense argument
 * may also be a plain value, which the runtime converts.
 */
export function checkValueType(value: unknown, type: ValueType, path: CasePath, report: Report): void {
  const sparse = (v: unknown, at: CasePath) => {
    if (!isSparseForm(v)) report(at, SPARSE_FORM);
  };
  const got = `got ${formatValue(value)}`;
  switch (type) {
    case 'sparse':
      sparse(value, path);
      return;
    case 'sparse_or_null':
      if (value !== null) sparse(value, path);
      return;
    case 'sparse_list':
      if (!Array.isArray(value)) report(path, `expected a list of SparseTensors, ${got}`);
      else value.forEach((v, i) => sparse(v, [...path, i]));
      return;
    case 'sparse_or_sparse_list':
      if (Array.isArray(value)) value.forEach((v, i) => sparse(v, [...path, i]));
      else sparse(value, path);
      return;
    case 'sparse_or_dense_list':
      if (!Array.isArray(value)) report(path, `expected a list of SparseTensors and dense tensors, ${got}`);
      else
        value.forEach((v, i) => {
          if (isRecord(v) && !isSparseForm(v) && !isDenseForm(v)) report([...path, i], `${SPARSE_FORM}; ${DENSE_FORM}`);
        });
      return;
    case 'dense':
    case 'scalar':
      if (isRecord(value) && !isDenseForm(value)) report(path, DENSE_FORM);
      return;
    case 'sparse_or_dense':
      if (isRecord(value) && !isSparseForm(value) && !isDenseForm(value)) report(path, `${SPARSE_FORM}; ${DENSE_FORM}`);
      return;
    case 'int':
      if (!Number.isInteger(value)) report(path, `expected a whole number, ${got}`);
      return;
    case 'bool':
      if (typeof value !== 'boolean') report(path, `expected true or false, ${got}`);
      return;
    case 'int_list':
    case 'shape':
      // int64 dims past 2^53 are digit strings.
      if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v) || isDigitString(v)))
        report(path, `expected a list of whole numbers, ${got}`);
      return;
    case 'int_or_int_list':
      if (!Number.isInteger(value) && !(Array.isArray(value) && value.every(Number.isInteger)))
        report(path, `expected a whole number or a list of them, ${got}`);
      return;
    case 'csr':
      if (!isCsrForm(value)) report(path, CSR_FORM);
      return;
    case 'axes':
      if (!(value === null || Number.isInteger(value) || (Array.isArray(value) && value.every(Number.isInteger))))
        report(path, `expected null, an axis or a list of axes, ${got}`);
      return;
    case 'string':
      if (typeof value !== 'string') report(path, `expected a string, ${got}`);
      return;
    case 'dtype':
      if (!isDTypeName(value)) report(path, `expected a dtype name (${DTYPE_NAMES.join(', ')}), ${got}`);
      return;
  }
}
