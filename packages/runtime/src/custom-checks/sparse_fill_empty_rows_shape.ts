import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { MAX_DENSE_ELEMENTS, shapeText } from '../shape.js';

/**
 * The rows of `sp_input` can be filled: `empty_row_indicator` (one bool per row) fits in memory, and an empty row
 * has a place `[row, 0, ..., 0]` inside the dense shape (none if a dim after the first is 0).
 */
export function sparseFillEmptyRowsShape(op: string, args: Record<string, unknown>): void {
  const { shape } = args.sp_input as SparseData;
  const rows = shape[0];
  if (rows > MAX_DENSE_ELEMENTS) {
    throw new InvalidArgumentError(
      `${op}: sp_input has ${rows} rows (dense shape ${shapeText(shape)}); empty_row_indicator would hold more than the ${MAX_DENSE_ELEMENTS} elements a dense tensor can hold`,
    );
  }
  const zero = shape.findIndex((d, i) => i > 0 && d === 0);
  if (rows > 0 && zero > 0) {
    throw new InvalidArgumentError(
      `${op}: sp_input has dense shape ${shapeText(shape)}: its rows are empty, but dim ${zero} is 0, so [row, 0, ...] is out of bounds and an empty row cannot be filled`,
    );
  }
}
