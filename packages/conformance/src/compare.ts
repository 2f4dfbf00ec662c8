import {
  formatValue,
  isFloatDType,
  type CsrView,
  type DenseView,
  type OutputView,
  type SparseView,
  type TensorView,
  type Tolerance,
} from '@sparse/case-format';
import { expectedView } from './expected-view.js';
import { describeKind, resultView } from './result-view.js';
import { isClose, resolveTolerance } from './tolerance.js';

/** Past this many mismatches the rest are counted, not listed: one wrong shape can make thousands. */
const MAX_LISTED = 10;

/** Collects mismatch messages such as `output.values[3]: got 0.5, want 0.25`. */
class Mismatches {
  readonly listed: string[] = [];
  unlisted = 0;

  add(message: string): void {
    if (this.listed.length < MAX_LISTED) this.listed.push(message);
    else this.unlisted++;
  }

  text(): string {
    const more = this.unlisted > 0 ? [`… and ${this.unlisted} more mismatches`] : [];
    return [...this.listed, ...more].join('; ');
  }
}

/**
 * Compares a run's outputs with a case's `expect` (keyed by output name). Only the outputs the case names are
 * compared. Returns '' when everything agrees, else every difference found (the first ten, then a count).
 */
export function compareOutputs(
  got: Record<string, unknown>,
  expect: Record<string, unknown>,
  tolerance?: Tolerance,
): string {
  if (typeof got !== 'object' || got === null) {
    return `the op returned ${formatValue(got)}, not outputs keyed by name`;
  }
  const found = new Mismatches();
  for (const [name, want] of Object.entries(expect)) {
    if (!(name in got)) {
      found.add(`${name}: missing from the outputs (got ${formatValue(Object.keys(got))})`);
      continue;
    }
    compareViews(got[name], expectedView(want, name), name, tolerance, found);
  }
  return found.text();
}

/** Compares one output with its expected view; returns '' when they agree. */
export function compareOutput(got: unknown, want: OutputView, path: string, tolerance?: Tolerance): string {
  const found = new Mismatches();
  compareViews(got, want, path, tolerance, found);
  return found.text();
}

function compareViews(
  got: unknown,
  want: OutputView,
  path: string,
  tolerance: Tolerance | undefined,
  found: Mismatches,
): void {
  const view = resultView(got);
  if ('unrecognized' in view) {
    found.add(`${path}: got ${view.unrecognized}, want ${describeKind(want)}`);
    return;
  }
  if (Array.isArray(want) !== Array.isArray(view)) {
    found.add(`${path}: got ${describeKind(view)}, want ${describeKind(want)}`);
    return;
  }
  if (Array.isArray(want) && Array.isArray(view)) {
    if (view.length !== want.length) {
      found.add(`${path}: got a list of ${view.length} tensors, want ${want.length}`);
      return;
    }
    want.forEach((w, i) => compareTensor(view[i], w, `${path}[${i}]`, tolerance, found));
    return;
  }
  compareTensor(view as TensorView, want as TensorView, path, tolerance, found);
}

function compareTensor(
  got: TensorView,
  want: TensorView,
  path: string,
  tolerance: Tolerance | undefined,
  found: Mismatches,
): void {
  if (got.kind !== want.kind) {
    found.add(`${path}: got ${describeKind(got)}, want ${describeKind(want)}`);
    return;
  }
  // Values of another dtype cannot be compared meaningfully; say so and stop.
  if (got.dtype !== want.dtype) {
    found.add(`${path}.dtype: got ${got.dtype}, want ${want.dtype}`);
    return;
  }
  if (want.kind === 'sparse') compareSparse(got as SparseView, want, path, tolerance, found);
  else if (want.kind === 'csr') compareCsr(got as CsrView, want, path, tolerance, found);
  else compareDense(got as DenseView, want, path, tolerance, found);
}

function compareSparse(
  got: SparseView,
  want: SparseView,
  path: string,
  tolerance: Tolerance | undefined,
  found: Mismatches,
): void {
  if (!sameList(got.denseShape, want.denseShape)) {
    found.add(`${path}.dense_shape: got ${formatValue(got.denseShape)}, want ${formatValue(want.denseShape)}`);
  }
  if (got.indices.length !== want.indices.length || got.values.length !== want.values.length) {
    // With a different number of entries, entry-by-entry messages would all be noise.
    const show = (v: SparseView) => (v.indices.length <= MAX_LISTED ? ` ${formatValue(v.indices)}` : '');
    found.add(
      `${path}.indices: got ${got.indices.length} entries${show(got)}, want ${want.indices.length}${show(want)}`,
    );
    return;
  }
  want.indices.forEach((w, i) => {
    if (!sameList(got.indices[i], w))
      found.add(`${path}.indices[${i}]: got ${formatValue(got.indices[i])}, want ${formatValue(w)}`);
  });
  compareValues(got.values, want.values, want.dtype, (i) => `${path}.values[${i}]`, tolerance, found);
}

/** A CSR matrix: its shape and structure exactly (pointers, columns), then its values with the tolerance. */
function compareCsr(
  got: CsrView,
  want: CsrView,
  path: string,
  tolerance: Tolerance | undefined,
  found: Mismatches,
): void {
  const parts = [
    ['dense_shape', got.denseShape, want.denseShape],
    ['batch_pointers', got.batchPointers, want.batchPointers],
    ['row_pointers', got.rowPointers, want.rowPointers],
    ['col_indices', got.colIndices, want.colIndices],
  ] as const;
  for (const [name, g, w] of parts) {
    if (sameList(g, w)) continue;
    // A wrong structure makes every later comparison noise.
    found.add(`${path}.${name}: got ${formatValue(g)}, want ${formatValue(w)}`);
    return;
  }
  compareValues(got.values, want.values, want.dtype, (i) => `${path}.values[${i}]`, tolerance, found);
}

function compareDense(
  got: DenseView,
  want: DenseView,
  path: string,
  tolerance: Tolerance | undefined,
  found: Mismatches,
): void {
  if (!sameList(got.shape, want.shape)) {
    found.add(`${path}.shape: got ${formatValue(got.shape)}, want ${formatValue(want.shape)}`);
    return;
  }
  if (got.data.length !== want.data.length) {
    found.add(`${path}: got ${got.data.length} values, want ${want.data.length}`);
    return;
  }
  compareValues(got.data, want.data, want.dtype, (i) => `${path}${multiIndex(i, want.shape)}`, tolerance, found);
}

function compareValues(
  got: unknown[],
  want: unknown[],
  dtype: string,
  at: (i: number) => string,
  tolerance: Tolerance | undefined,
  found: Mismatches,
): void {
  const tol = isFloatDType(dtype) ? resolveTolerance(dtype, tolerance) : undefined;
  want.forEach((w, i) => {
    const g = got[i];
    const same = tol ? typeof g === 'number' && isClose(g, w as number, tol) : g === w;
    if (!same) found.add(`${at(i)}: got ${formatValue(g)}, want ${formatValue(w)}`);
  });
}

/** `[1][2]` for row-major position `flat` in `shape`; '' for a scalar. */
function multiIndex(flat: number, shape: number[]): string {
  const parts: number[] = [];
  for (let d = shape.length - 1; d >= 0; d--) {
    parts.unshift(flat % shape[d]);
    flat = Math.floor(flat / shape[d]);
  }
  return parts.map((p) => `[${p}]`).join('');
}

const sameList = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
