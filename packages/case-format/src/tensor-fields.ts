import { DTYPE_NAMES, isDTypeName } from './dtypes.js';
import { formatValue } from './format-value.js';
import { missingField, Tally, type CasePath, type Report } from './report.js';
import {
  isCsrForm,
  isDenseForm,
  isRecord,
  isSparseForm,
  type CsrForm,
  type DenseForm,
  type SparseForm,
} from './value-forms.js';

/**
 * How strictly a tensor form's `dtype` is held: `known` (an expected output, or an example's argument) must name
 * one of the dtypes; `any` (a case file's argument) may leave it out for the runtime to infer, or name one the
 * runtime is to refuse.
 */
export type DTypeRule = 'known' | 'any';

const SPARSE_FIELDS = ['sparse', 'dtype'];
const SPARSE_PARTS = ['indices', 'values', 'dense_shape'];
const DENSE_FIELDS = ['dense', 'dtype', 'shape'];
const CSR_FIELDS = ['csr', 'dtype'];
const CSR_PARTS = ['row_pointers', 'col_indices', 'values', 'dense_shape'];
const CSR_OPTIONAL_PARTS = ['batch_pointers'];

/**
 * Checks the fields of a tensor form: no unknown keys, a SparseTensor's three lists, a dense tensor's `shape` a list
 * if given, and the dtype by `dtypes`. Not the values inside: those are checked, where they are, by the expected
 * output reader. Returns whether nothing was reported.
 */
export function checkTensorFields(
  form: SparseForm | DenseForm | CsrForm,
  path: CasePath,
  report: Report,
  dtypes: DTypeRule,
): boolean {
  const tally = new Tally(report);
  if (isCsrForm(form)) {
    onlyFields(form, CSR_FIELDS, path, tally.report);
    const parts = form.csr;
    if (!isRecord(parts)) {
      tally.report([...path, 'csr'], `must be {${CSR_PARTS.join(', ')}}, got ${formatValue(parts)}`);
    } else {
      onlyFields(parts, [...CSR_PARTS, ...CSR_OPTIONAL_PARTS], [...path, 'csr'], tally.report);
      for (const k of [...CSR_PARTS, ...CSR_OPTIONAL_PARTS]) {
        if (parts[k] === undefined) {
          if (CSR_PARTS.includes(k)) tally.report([...path, 'csr'], missingField(k));
        } else if (!Array.isArray(parts[k]))
          tally.report([...path, 'csr', k], `must be a list, got ${formatValue(parts[k])}`);
      }
    }
  } else if (isSparseForm(form)) {
    onlyFields(form, SPARSE_FIELDS, path, tally.report);
    const parts = form.sparse;
    if (!isRecord(parts)) {
      tally.report([...path, 'sparse'], `must be {indices, values, dense_shape}, got ${formatValue(parts)}`);
    } else {
      onlyFields(parts, SPARSE_PARTS, [...path, 'sparse'], tally.report);
      for (const k of SPARSE_PARTS) {
        if (parts[k] === undefined) tally.report([...path, 'sparse'], missingField(k));
        else if (!Array.isArray(parts[k]))
          tally.report([...path, 'sparse', k], `must be a list, got ${formatValue(parts[k])}`);
      }
    }
  } else {
    onlyFields(form, DENSE_FIELDS, path, tally.report);
    if (form.shape !== undefined && !Array.isArray(form.shape))
      tally.report([...path, 'shape'], `must be a list of dims, got ${formatValue(form.shape)}`);
  }
  checkDType(form.dtype, path, tally.report, dtypes);
  return tally.clean;
}

/** The fields of every tensor form in an argument value, wherever it is nested in lists. */
export function checkTensorFormsIn(value: unknown, path: CasePath, report: Report, dtypes: DTypeRule): void {
  if (Array.isArray(value)) value.forEach((v, i) => checkTensorFormsIn(v, [...path, i], report, dtypes));
  else if (isSparseForm(value) || isDenseForm(value) || isCsrForm(value))
    checkTensorFields(value, path, report, dtypes);
}

/** Reports each key of `x` that is not one of `allowed`. */
export function onlyFields(
  x: Record<string, unknown>,
  allowed: readonly string[],
  path: CasePath,
  report: Report,
): void {
  for (const k of Object.keys(x))
    if (!allowed.includes(k)) report([...path, k], `unknown field (allowed: ${allowed.join(', ')})`);
}

function checkDType(dtype: unknown, path: CasePath, report: Report, rule: DTypeRule): void {
  if (rule === 'any') {
    if (dtype !== undefined && typeof dtype !== 'string')
      report([...path, 'dtype'], `must be a dtype name, got ${formatValue(dtype)}`);
  } else if (dtype === undefined) {
    report(path, `${missingField('dtype')} (one of ${DTYPE_NAMES.join(', ')})`);
  } else if (!isDTypeName(dtype)) {
    report([...path, 'dtype'], `must be one of ${DTYPE_NAMES.join(', ')}, got ${formatValue(dtype)}`);
  }
}
