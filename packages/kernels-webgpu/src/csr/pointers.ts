/**
 * A CSR result's pointers from its entry count per global row (b · rows + r): each matrix's row pointers from 0,
 * the batch pointers their running totals. O(batch · rows), on the host after the one read.
 */
export function pointersFromCounts(
  counts: Uint32Array,
  batch: number,
  rows: number,
): { batchPointers: Int32Array; rowPointers: Int32Array } {
  const rowPointers = new Int32Array(batch * (rows + 1));
  const batchPointers = new Int32Array(batch + 1);
  for (let b = 0; b < batch; b++) {
    let total = 0;
    for (let r = 0; r < rows; r++) {
      total += counts[b * rows + r];
      rowPointers[b * (rows + 1) + r + 1] = total;
    }
    batchPointers[b + 1] = batchPointers[b] + total;
  }
  return { batchPointers, rowPointers };
}
