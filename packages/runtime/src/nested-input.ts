import { DTypeScan, newValues, writeValues, type DType, type Position, type Values } from './dtype.js';
import { isAllocationFailure } from './allocation-failure.js';
import { InvalidArgumentError } from './errors.js';
import { MAX_RANK } from './shape.js';

// Nested lists are read where they are, one innermost list (a row) at a time: their dtype is inferred over the rows,
// then each row is written into the dtype's storage. No flat copy of the values is made, so no JS array longer than
// the caller's own is ever built (V8 ends the process when one grows past ~1.3e8 entries), and a value that is not
// one (a hole of `new Array(n)`, undefined, an object) is refused at its position when it is reached.

/**
 * The shape nested lists imply, read down their first entries (a non-list is a scalar, shape []); an empty list ends
 * it. At most MAX_RANK dims; rectangularity is checked as the values are read.
 */
export function nestedShape(value: unknown, what: string): number[] {
  const shape: number[] = [];
  for (let v = value; Array.isArray(v); v = v[0]) {
    if (shape.length === MAX_RANK) {
      throw new InvalidArgumentError(
        `${what}: the lists are nested more than ${MAX_RANK} deep, the most dims a tensor has`,
      );
    }
    shape.push(v.length);
    if (v.length === 0) break;
  }
  return shape;
}

/** The dtype TensorFlow gives nested lists of `shape` (see DTypeScan), each value read once. */
export function inferNestedDType(value: unknown, shape: readonly number[], what: string): DType {
  const scan = new DTypeScan();
  forEachRow(value, shape, what, (row, _offset, position) => scan.read(row, what, position, true));
  return scan.dtype;
}

/** The values of nested lists of `shape`, row-major in the dtype's storage. */
export function nestedValues(value: unknown, shape: readonly number[], dtype: DType, what: string): Values {
  let n = 1;
  for (const d of shape) n *= d;
  const out = newValues(dtype, n, what);
  try {
    forEachRow(value, shape, what, (row, offset, position) =>
      writeValues(out, offset, row, dtype, what, position, true),
    );
  } catch (e) {
    // A string store is a JS array, which V8 refuses to fill past ~1.3e8 entries: an error, never a crash.
    if (isAllocationFailure(e))
      throw new InvalidArgumentError(`${what}: ${n} values of ${dtype} do not fit in memory (${e.message})`);
    throw e;
  }
  return out;
}

/**
 * Calls `visit` with each innermost list of `value` (of `shape`'s last dim), in row-major order, with the offset of
 * its first value and the position of its entries; each list on the way is checked to have its dim's length before
 * it is entered. A scalar (shape []) is one row of itself, with no position.
 */
function forEachRow(
  value: unknown,
  shape: readonly number[],
  what: string,
  visit: (row: ArrayLike<unknown>, offset: number, position: Position) => void,
): void {
  const rank = shape.length;
  if (rank === 0) {
    visit([value], 0, () => '');
    return;
  }
  // The position of the list being read; formatted only for an error.
  const at: number[] = [];
  const prefix = () => at.map((i) => `[${i}]`).join('');
  const position: Position = (i) => `${prefix()}[${i}]`;
  const width = shape[rank - 1];
  let offset = 0;
  const walk = (v: unknown, d: number): void => {
    if (!Array.isArray(v) || v.length !== shape[d]) {
      throw new TypeError(
        `${what}: the nesting is not rectangular at ${at.length ? prefix() : 'the top'}: expected ${shape[d]} entries`,
      );
    }
    if (d === rank - 1) {
      visit(v, offset, position);
      offset += width;
      return;
    }
    for (let i = 0; i < v.length; i++) {
      at.push(i);
      walk(v[i], d + 1);
      at.pop();
    }
  };
  walk(value, 0);
}
