import { formatValue } from './format-value.js';
import type { CasePath, Report } from './report.js';

/** The parts of a CSR form once each is known to be a list (checkTensorFields). */
export interface CsrParts {
  batch_pointers?: unknown[];
  row_pointers: unknown[];
  col_indices: unknown[];
  values: unknown[];
  dense_shape: unknown[];
}

/** The structure of a CSR form, read: what a CsrView holds besides its values. */
export interface CsrStructure {
  batchPointers: number[];
  rowPointers: number[];
  colIndices: number[];
  denseShape: number[];
}

const isWhole = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

/**
 * Reads and checks the structure of a CSR matrix (or batch of them) as TensorFlow's CSRSparseMatrix holds it: a dense
 * shape of rank 2 or 3, `batch * (rows + 1)` row pointers, each batch's starting at 0 and never decreasing, as many
 * column indices as values, each inside the columns and increasing within its row, and batch pointers (derived
 * when left out) that agree. Reports under `at` and returns the structure when nothing was reported.
 */
export function readCsrStructure(parts: CsrParts, at: CasePath, report: Report): CsrStructure | undefined {
  const shape = parts.dense_shape;
  if (!(shape.length === 2 || shape.length === 3) || !shape.every(isWhole)) {
    report(
      [...at, 'dense_shape'],
      `must be 2 or 3 whole numbers >= 0 (a matrix or a batch of them), got ${formatValue(shape)}`,
    );
    return undefined;
  }
  const [batch, rows, cols] = shape.length === 3 ? shape : [1, ...shape];
  const rp = parts.row_pointers;
  if (rp.length !== batch * (rows + 1)) {
    report([...at, 'row_pointers'], `must hold batch * (rows + 1) = ${batch * (rows + 1)} pointers, got ${rp.length}`);
    return undefined;
  }
  const batchPointers = [0];
  for (let b = 0; b < batch; b++) {
    const base = b * (rows + 1);
    for (let r = 0; r <= rows; r++) {
      const p = rp[base + r];
      const prev = r === 0 ? 0 : (rp[base + r - 1] as number);
      if (!isWhole(p) || (r === 0 && p !== 0) || p < prev) {
        report(
          [...at, 'row_pointers', base + r],
          r === 0
            ? `each batch's row pointers start at 0, got ${formatValue(p)}`
            : `${formatValue(p)} is below the pointer before it (${prev})`,
        );
        return undefined;
      }
    }
    batchPointers.push(batchPointers[b] + (rp[base + rows] as number));
  }
  const nnz = batchPointers[batch];
  if (parts.col_indices.length !== nnz || parts.values.length !== nnz) {
    report(
      at,
      `the row pointers count ${nnz} entries; col_indices has ${parts.col_indices.length}, values ${parts.values.length}`,
    );
    return undefined;
  }
  if (parts.batch_pointers !== undefined && formatValue(parts.batch_pointers) !== formatValue(batchPointers)) {
    report(
      [...at, 'batch_pointers'],
      `must be ${formatValue(batchPointers)} (from the row pointers), got ${formatValue(parts.batch_pointers)}`,
    );
    return undefined;
  }
  for (let b = 0; b < batch; b++) {
    for (let r = 0; r < rows; r++) {
      const from = batchPointers[b] + (rp[b * (rows + 1) + r] as number);
      const to = batchPointers[b] + (rp[b * (rows + 1) + r + 1] as number);
      for (let k = from; k < to; k++) {
        const c = parts.col_indices[k];
        if (!isWhole(c) || c >= cols || (k > from && c <= (parts.col_indices[k - 1] as number))) {
          report(
            [...at, 'col_indices', k],
            `${formatValue(c)} is not a column of ${cols} increasing within its row (batch ${b}, row ${r})`,
          );
          return undefined;
        }
      }
    }
  }
  return {
    batchPointers,
    rowPointers: rp as number[],
    colIndices: parts.col_indices as number[],
    denseShape: shape as number[],
  };
}
