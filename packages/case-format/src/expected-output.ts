import type { DTypeName } from './dtypes.js';
import { formatValue } from './format-value.js';
import { Tally, type CasePath, type Report } from './report.js';
import { checkTensorFields } from './tensor-fields.js';
import { readTensorValue } from './tensor-value.js';
import { int64Entry } from './number-spellings.js';
import type { CsrView, DenseView, OutputView, SparseView, TensorView } from './tensor-view.js';
import { isCsrForm, isDenseForm, isSparseForm, type CsrForm, type DenseForm, type SparseForm } from './value-forms.js';
import { readCsrStructure, type CsrParts } from './csr-parts.js';

/**
 * Reads an expected output of a case (`{sparse}`, `{dense}` or a list of those) into its view. Expected values are
 * the case author's to get right, so this is strict: it reports, under `path`, everything that is not a
 * well-formed tensor of its dtype, and returns the view only when there was nothing to report.
 */
export function readExpectedOutput(value: unknown, path: CasePath, report: Report): OutputView | undefined {
  if (!Array.isArray(value)) return readTensor(value, path, report);
  const views = value.map((v, i) => readTensor(v, [...path, i], report));
  return views.every((v) => v !== undefined) ? views : undefined;
}

function readTensor(value: unknown, path: CasePath, report: Report): TensorView | undefined {
  if (isSparseForm(value)) return readSparse(value, path, report);
  if (isDenseForm(value)) return readDense(value, path, report);
  if (isCsrForm(value)) return readCsr(value, path, report);
  report(
    path,
    `expected {sparse: {indices, values, dense_shape}, dtype}, {dense: NESTED, dtype}, {csr: {row_pointers, col_indices, values, dense_shape}, dtype} or a list of them, got ${formatValue(value)}`,
  );
  return undefined;
}

function readSparse(form: SparseForm, path: CasePath, report: Report): SparseView | undefined {
  if (!checkTensorFields(form, path, report, 'known')) return undefined;
  const tally = new Tally(report);
  const dtype = form.dtype as DTypeName;
  const at = [...path, 'sparse'];
  const { indices, values, dense_shape } = form.sparse as Record<'indices' | 'values' | 'dense_shape', unknown[]>;
  const denseShape = readShape(dense_shape, [...at, 'dense_shape'], tally.report);
  if (denseShape !== undefined) {
    const rank = denseShape.length;
    indices.forEach((row, i) => {
      if (!Array.isArray(row) || row.length !== rank || !row.every((d) => int64Entry(d) !== undefined))
        tally.report(
          [...at, 'indices', i],
          `expected ${rank} whole numbers (the rank of dense_shape), got ${formatValue(row)}`,
        );
    });
  }
  if (indices.length !== values.length) tally.report(at, `${indices.length} indices but ${values.length} values`);
  const read = values.map((v, i) => readValue(v, dtype, [...at, 'values', i], tally.report));
  if (!tally.clean) return undefined;
  const rows = (indices as unknown[][]).map((row) => row.map((d) => int64Entry(d)!));
  return { kind: 'sparse', indices: rows, values: read, denseShape: denseShape!, dtype };
}

function readCsr(form: CsrForm, path: CasePath, report: Report): CsrView | undefined {
  if (!checkTensorFields(form, path, report, 'known')) return undefined;
  const tally = new Tally(report);
  const dtype = form.dtype as DTypeName;
  const at = [...path, 'csr'];
  const parts = form.csr as CsrParts;
  const structure = readCsrStructure(parts, at, tally.report);
  const values = parts.values.map((v, i) => readValue(v, dtype, [...at, 'values', i], tally.report));
  if (!tally.clean || !structure) return undefined;
  return { kind: 'csr', ...structure, values, dtype };
}

function readDense(form: DenseForm, path: CasePath, report: Report): DenseView | undefined {
  if (!checkTensorFields(form, path, report, 'known')) return undefined;
  const tally = new Tally(report);
  const dtype = form.dtype as DTypeName;
  const nesting = nestingShape(form.dense);
  const data: unknown[] = [];
  const walk = (v: unknown, depth: number, at: CasePath): void => {
    if (depth === nesting.length) {
      if (Array.isArray(v)) tally.report(at, 'the nesting is not rectangular: a list where a value belongs');
      else data.push(readValue(v, dtype, at, tally.report));
    } else if (!Array.isArray(v) || v.length !== nesting[depth]) {
      tally.report(at, `the nesting is not rectangular: expected a list of ${nesting[depth]}, got ${formatValue(v)}`);
    } else {
      v.forEach((x, i) => walk(x, depth + 1, [...at, i]));
    }
  };
  walk(form.dense, 0, [...path, 'dense']);
  // `shape` is needed where nesting cannot show it (a zero-sized dim); it must hold exactly the values given.
  const given = form.shape === undefined ? nesting : readShape(form.shape, [...path, 'shape'], tally.report);
  if (!tally.clean || given === undefined) return undefined;
  // A dense tensor's dims are numbers: one past 2^53 could not hold the values given.
  const shape = given.map(Number);
  const size = shape.reduce((a, b) => a * b, 1);
  if (size !== data.length) {
    report(path, `shape ${formatValue(shape)} holds ${size} values but dense gives ${data.length}`);
    return undefined;
  }
  return { kind: 'dense', data, shape, dtype };
}

/** The shape nested lists claim by their first items, one dim per level; a scalar's is []. */
function nestingShape(nested: unknown): number[] {
  const shape: number[] = [];
  for (let v = nested; Array.isArray(v); v = v[0]) {
    shape.push(v.length);
    if (v.length === 0) break;
  }
  return shape;
}

// int64 dims past 2^53 are digit strings.
function readShape(x: unknown, path: CasePath, report: Report): (number | bigint)[] | undefined {
  const dims = Array.isArray(x) ? x.map(int64Entry) : [];
  if (Array.isArray(x) && dims.every((d) => d !== undefined && d >= 0)) return dims as (number | bigint)[];
  report(path, `must be a list of whole numbers >= 0, got ${formatValue(x)}`);
  return undefined;
}

function readValue(v: unknown, dtype: DTypeName, path: CasePath, report: Report): unknown {
  const read = readTensorValue(v, dtype);
  if (read.ok) return read.value;
  report(path, read.problem);
  return undefined;
}
