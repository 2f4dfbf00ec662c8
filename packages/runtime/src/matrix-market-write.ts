import { describe, getValue } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { sparseDataOf, SparseTensor } from './sparse-tensor.js';
import { denseDataOf, Tensor } from './tensor.js';

/** Options of `toMatrixMarket` and `matrixMarketChunks`. */
export interface WriteMatrixMarketOptions {
  /** Comment lines written after the header (each line of it behind a %). */
  comment?: string;
}

/** Text per chunk `matrixMarketChunks` yields, about. */
const CHUNK_CHARS = 1 << 16;

/**
 * A matrix (rank 2) as Matrix Market text, in chunks of about 64 KiB, for a file or a stream of any size: a
 * SparseTensor in coordinate format (its entries in their order, 1-based), a dense Tensor in array format (column by
 * column). float32 and float64 values are `real`, written exactly (each reads back as the same number); int32 and
 * int64 are `integer`; bool is `integer` 0 or 1. String values, and other ranks, are refused.
 */
export function* matrixMarketChunks(
  x: SparseTensor | Tensor,
  options: WriteMatrixMarketOptions = {},
): Generator<string> {
  if (!(x instanceof SparseTensor) && !(x instanceof Tensor))
    throw new TypeError(`toMatrixMarket: x must be a SparseTensor or a Tensor, got ${describe(x)}`);
  if (x.isOnDevice)
    throw new InvalidArgumentError('toMatrixMarket: its values live on a device: read them first (await x.data())');
  const shape = x instanceof SparseTensor ? x.denseShape : x.shape;
  if (shape.length !== 2)
    throw new InvalidArgumentError(
      `toMatrixMarket: a Matrix Market file holds a matrix (rank 2), got rank ${shape.length}`,
    );
  if (x.dtype === 'string') throw new TypeError('toMatrixMarket: string values have no Matrix Market field');
  const field = x.dtype === 'float32' || x.dtype === 'float64' ? 'real' : 'integer';
  const sparse = x instanceof SparseTensor;
  let text = `%%MatrixMarket matrix ${sparse ? 'coordinate' : 'array'} ${field} general\n`;
  if (options.comment !== undefined) for (const line of String(options.comment).split('\n')) text += `%${line}\n`;
  const [rows, cols] = shape;
  const value = (values: ArrayLike<unknown>, k: number) => {
    const v = getValue(values as never, k);
    // String(-0) is "0": the sign is written, as it reads back.
    return typeof v === 'boolean' ? (v ? '1' : '0') : Object.is(v, -0) ? '-0' : String(v);
  };
  if (sparse) {
    const d = sparseDataOf(x);
    const n = d.values.length;
    text += `${rows} ${cols} ${n}\n`;
    for (let k = 0; k < n; k++) {
      text += `${Number(d.indices[2 * k]) + 1} ${Number(d.indices[2 * k + 1]) + 1} ${value(d.values, k)}\n`;
      if (text.length >= CHUNK_CHARS) {
        yield text;
        text = '';
      }
    }
  } else {
    const d = denseDataOf(x);
    text += `${rows} ${cols}\n`;
    for (let j = 0; j < cols; j++)
      for (let i = 0; i < rows; i++) {
        text += `${value(d.data, i * cols + j)}\n`;
        if (text.length >= CHUNK_CHARS) {
          yield text;
          text = '';
        }
      }
  }
  if (text) yield text;
}

/** A matrix as Matrix Market text (see matrixMarketChunks, which writes one of any size in pieces). */
export function toMatrixMarket(x: SparseTensor | Tensor, options?: WriteMatrixMarketOptions): string {
  let text = '';
  for (const chunk of matrixMarketChunks(x, options)) text += chunk;
  return text;
}
