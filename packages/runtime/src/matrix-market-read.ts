import { allocValues, type Values } from '@sparse/kernel-abi';
import { describe, isDType, type DType } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { assertAllocatable } from './shape.js';
import { adoptSparse, SparseTensor } from './sparse-tensor.js';
import { adoptDense, type Tensor } from './tensor.js';

/** Options of `readMatrixMarket` and `parseMatrixMarket`. */
export interface ReadMatrixMarketOptions {
  /**
   * The dtype of the values. Default: float64 for `real` and `pattern` files (pattern entries are 1), int64 for
   * `integer` ones, as scipy's mmread reads them; float32 for TensorFlow.js's habits.
   */
  dtype?: DType;
  /** Called as entries are read, every 65,536 of them and at the end: how many so far, of how many the file says. */
  onProgress?: (read: number, total: number) => void;
}

const OPTION_NAMES = ['dtype', 'onProgress'];
const PROGRESS_EVERY = 65_536;

type Field = 'real' | 'integer' | 'pattern';
type Symmetry = 'general' | 'symmetric' | 'skew-symmetric';

/**
 * A Matrix Market file read line by line as its text arrives: the header, comments, the size line, then the entries.
 * Coordinate files give a SparseTensor (entries in the file's order, the mirrored ones of a symmetric or
 * skew-symmetric file after them; `.reorder()` for canonical order); array files give a dense Tensor. Each error
 * names the line.
 */
class MatrixMarketParser {
  #line = 0;
  #rest = '';
  #format: 'coordinate' | 'array' | undefined;
  #field: Field = 'real';
  #symmetry: Symmetry = 'general';
  #rows = 0;
  #cols = 0;
  #total = -1;
  #read = 0;
  #ri: Float64Array = new Float64Array(0);
  #ci: Float64Array = new Float64Array(0);
  #vals = new Float64Array(0);
  #big: bigint[] = [];
  readonly #dtype: DType | undefined;
  #out: DType = 'float64';
  readonly #progress: ((read: number, total: number) => void) | undefined;

  constructor(options: ReadMatrixMarketOptions) {
    this.#dtype = options.dtype;
    this.#progress = options.onProgress;
  }

  push(text: string): void {
    let start = 0;
    const all = this.#rest + text;
    for (let nl = all.indexOf('\n'); nl >= 0; nl = all.indexOf('\n', start)) {
      this.#take(all, start, nl);
      start = nl + 1;
    }
    this.#rest = all.slice(start);
  }

  finish(): SparseTensor | Tensor {
    if (this.#rest.length) this.#take(this.#rest, 0, this.#rest.length);
    this.#rest = '';
    if (!this.#format) throw this.#error('the file is empty: a Matrix Market file starts with %%MatrixMarket');
    if (this.#total < 0) throw this.#error('the file ends before its size line');
    if (this.#read !== this.#total)
      throw this.#error(`the file holds ${this.#read} entries; its size line says ${this.#total}`);
    this.#progress?.(this.#read, this.#total);
    return this.#format === 'coordinate' ? this.#sparse() : this.#dense();
  }

  #fail(message: string): never {
    throw this.#error(message);
  }

  #error(message: string): InvalidArgumentError {
    return new InvalidArgumentError(`readMatrixMarket: line ${this.#line}: ${message}`);
  }

  // One line: s[from, to), without its newline.
  #take(s: string, from: number, to: number): void {
    this.#line++;
    if (to > from && s.charCodeAt(to - 1) === 13) to--; // \r\n
    if (!this.#format) return this.#header(s.slice(from, to));
    let a = from;
    while (a < to && (s.charCodeAt(a) === 32 || s.charCodeAt(a) === 9)) a++;
    if (a === to || s.charCodeAt(a) === 37) return; // blank, or a % comment
    if (this.#total < 0) return this.#sizeLine(s.slice(a, to));
    if (this.#read >= this.#total) throw this.#error(`more entries than the ${this.#total} the size line says`);
    this.#entry(s, a, to);
    this.#read++;
    if (this.#progress && this.#read % PROGRESS_EVERY === 0) this.#progress(this.#read, this.#total);
  }

  #header(line: string): void {
    const words = line.trim().toLowerCase().split(/\s+/);
    if (words[0] !== '%%matrixmarket' || words.length !== 5)
      throw this.#error(
        `a Matrix Market file starts with "%%MatrixMarket matrix <format> <field> <symmetry>", got ${describe(line)}`,
      );
    const [, object, format, field, symmetry] = words;
    if (object !== 'matrix') throw this.#error(`only matrix objects are read, not ${describe(object)}`);
    if (format !== 'coordinate' && format !== 'array')
      throw this.#error(`the format is coordinate or array, not ${describe(format)}`);
    if (field === 'complex' || symmetry === 'hermitian')
      throw this.#error('complex values are not read: sparse has no complex dtype');
    if (field !== 'real' && field !== 'double' && field !== 'integer' && field !== 'pattern')
      throw this.#error(`the field is real, integer or pattern, not ${describe(field)}`);
    if (symmetry !== 'general' && symmetry !== 'symmetric' && symmetry !== 'skew-symmetric')
      throw this.#error(`the symmetry is general, symmetric or skew-symmetric, not ${describe(symmetry)}`);
    if (format === 'array' && field === 'pattern') throw this.#error('an array file has no pattern field');
    this.#format = format;
    this.#field = field === 'double' ? 'real' : field;
    this.#symmetry = symmetry;
  }

  #sizeLine(line: string): void {
    const dims = line.trim().split(/\s+/).map(Number);
    const want = this.#format === 'coordinate' ? 3 : 2;
    if (dims.length !== want || !dims.every((d) => Number.isSafeInteger(d) && d >= 0))
      throw this.#error(
        `the size line is ${want === 3 ? '"rows cols entries"' : '"rows cols"'}, got ${describe(line)}`,
      );
    const [rows, cols] = dims;
    this.#rows = rows;
    this.#cols = cols;
    if (this.#symmetry !== 'general' && rows !== cols)
      throw this.#error(`a ${this.#symmetry} matrix is square, not ${rows} × ${cols}`);
    if (this.#format === 'coordinate') {
      this.#total = dims[2];
      // Mirrored entries of a symmetric file at most double them.
      const stored = this.#symmetry === 'general' ? this.#total : 2 * this.#total;
      assertAllocatable([stored, 2], 'readMatrixMarket: the entries');
      this.#ri = new Float64Array(stored);
      this.#ci = new Float64Array(stored);
    } else {
      // Symmetric array files hold the lower triangle, column by column.
      this.#total =
        this.#symmetry === 'general'
          ? rows * cols
          : this.#symmetry === 'symmetric'
            ? (rows * (rows + 1)) / 2
            : (rows * (rows - 1)) / 2;
      assertAllocatable([rows, cols], 'readMatrixMarket: the matrix');
    }
    // The values' dtype, fixed by the header's field unless given.
    this.#out = this.#dtype ?? (this.#field === 'integer' ? 'int64' : 'float64');
    if (this.#out === 'int64') this.#big = [];
    else this.#vals = new Float64Array(this.#format === 'coordinate' ? this.#ri.length : this.#total);
  }

  // One entry line from s[a, to): "i j [value]" (coordinate) or "value" (array).
  #entry(s: string, a: number, to: number): void {
    // Token boundaries without allocating: at most three tokens an entry (more is an error).
    const bounds = this.#bounds;
    let count = 0;
    let p = a;
    while (p < to) {
      let c = s.charCodeAt(p);
      while (c === 32 || c === 9) c = s.charCodeAt(++p);
      if (p >= to) break;
      if (count === 3) {
        count++;
        break;
      }
      bounds[2 * count] = p;
      while (p < to && (c = s.charCodeAt(p)) !== 32 && c !== 9) p++;
      bounds[2 * count + 1] = p;
      count++;
    }
    const coordinate = this.#format === 'coordinate';
    const want = (coordinate ? 2 : 0) + (this.#field === 'pattern' ? 0 : 1);
    if (count !== want) throw this.#error(`an entry of this file has ${want} numbers, got ${describe(s.slice(a, to))}`);
    const k = this.#read;
    if (coordinate) {
      this.#ri[k] = this.#index(s, bounds[0], bounds[1], this.#rows, 'row');
      this.#ci[k] = this.#index(s, bounds[2], bounds[3], this.#cols, 'column');
    }
    if (this.#field === 'pattern') this.#value(k, '1');
    else this.#value(k, s.slice(bounds[2 * want - 2], bounds[2 * want - 1]));
  }

  readonly #bounds = new Int32Array(6);

  #index(s: string, b: number, e: number, dim: number, what: string): number {
    let x = 0;
    for (let p = b; p < e; p++) {
      const c = s.charCodeAt(p) - 48;
      if (c < 0 || c > 9) throw this.#error(`the ${what} index ${describe(s.slice(b, e))} is not a whole number`);
      x = x * 10 + c;
    }
    if (x < 1 || x > dim) throw this.#error(`the ${what} index ${x} is outside 1 … ${dim}`);
    return x - 1;
  }

  #value(k: number, text: string): void {
    if (this.#out === 'int64') {
      if (!/^[+-]?\d+$/.test(text)) throw this.#error(`${describe(text)} is not an integer`);
      this.#big[k] = BigInt(text);
      return;
    }
    let v = Number(text);
    if (Number.isNaN(v)) v = special(text) ?? this.#fail(`${describe(text)} is not a number`);
    if (this.#field === 'integer' && !Number.isInteger(v)) throw this.#error(`${describe(text)} is not an integer`);
    (this.#vals as Float64Array)[k] = v;
  }

  // The result's values: position k takes entry from[k] of the file (negated where neg[k]), or 0 where from[k] < 0.
  #values(from: Float64Array, neg?: Uint8Array): Values {
    const dtype = this.#out;
    const n = from.length;
    const out = allocValues(dtype, n) as Exclude<Values, string[]>;
    if (dtype === 'int64') {
      const big = out as BigInt64Array;
      for (let k = 0; k < n; k++) {
        if (from[k] < 0) continue;
        const v = this.#big[from[k]];
        big[k] = BigInt.asIntN(64, neg?.[k] ? -v : v);
      }
      return big;
    }
    const src = this.#vals as Float64Array;
    for (let k = 0; k < n; k++) {
      if (from[k] < 0) continue;
      const v = neg?.[k] ? -src[from[k]] : src[from[k]];
      if (dtype === 'int32' && !(Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31))
        throw new InvalidArgumentError(`readMatrixMarket: ${v} does not fit int32 (read with { dtype: 'int64' })`);
      (out as Float64Array)[k] = dtype === 'bool' ? (v !== 0 ? 1 : 0) : v;
    }
    return out;
  }

  #sparse(): SparseTensor {
    const n = this.#read;
    // The mirror of each off-diagonal entry of a symmetric file, after the file's own; negated where skew.
    const mirror: number[] = [];
    if (this.#symmetry !== 'general') for (let k = 0; k < n; k++) if (this.#ri[k] !== this.#ci[k]) mirror.push(k);
    const m = n + mirror.length;
    const indices = new Float64Array(2 * m);
    const from = new Float64Array(m);
    const neg = this.#symmetry === 'skew-symmetric' ? new Uint8Array(m) : undefined;
    for (let k = 0; k < n; k++) {
      indices[2 * k] = this.#ri[k];
      indices[2 * k + 1] = this.#ci[k];
      from[k] = k;
    }
    mirror.forEach((k, q) => {
      indices[2 * (n + q)] = this.#ci[k];
      indices[2 * (n + q) + 1] = this.#ri[k];
      from[n + q] = k;
      if (neg) neg[n + q] = 1;
    });
    const dtype = this.#out;
    const values = this.#values(from, neg);
    return adoptSparse({ kind: 'sparse', indices, values, shape: [this.#rows, this.#cols], dtype });
  }

  #dense(): Tensor {
    const [rows, cols] = [this.#rows, this.#cols];
    // Column-major in the file; a symmetric file holds the lower triangle (below the diagonal, where skew).
    const from = new Float64Array(rows * cols).fill(-1);
    const sym = this.#symmetry;
    const neg = sym === 'skew-symmetric' ? new Uint8Array(rows * cols) : undefined;
    let k = 0;
    for (let j = 0; j < cols; j++)
      for (let i = sym === 'general' ? 0 : sym === 'symmetric' ? j : j + 1; i < rows; i++) {
        from[i * cols + j] = k;
        if (sym !== 'general') from[j * cols + i] = k;
        if (neg) neg[j * cols + i] = 1;
        k++;
      }
    const dtype = this.#out;
    return adoptDense({ kind: 'dense', data: this.#values(from, neg), shape: [rows, cols], dtype }, true);
  }
}

/** inf and nan as C's printf writes them (scipy's mmwrite too), which Number() does not read. */
function special(text: string): number | undefined {
  const m = /^([+-]?)(nan|inf|infinity)$/i.exec(text);
  if (!m) return undefined;
  return m[2].toLowerCase() === 'nan' ? NaN : m[1] === '-' ? -Infinity : Infinity;
}

/** Reads Matrix Market text at once (see readMatrixMarket). */
export function parseMatrixMarket(text: string, options: ReadMatrixMarketOptions = {}): SparseTensor | Tensor {
  const parser = new MatrixMarketParser(checkOptions(options));
  if (typeof text !== 'string') throw new TypeError(`parseMatrixMarket: text must be a string, got ${describe(text)}`);
  parser.push(text);
  return parser.finish();
}

/**
 * Reads a Matrix Market file (`.mtx`): a coordinate file as a SparseTensor (entries in the file's order, the
 * mirrored entries of a symmetric or skew-symmetric one after them), an array file as a dense Tensor. `source` is
 * its text, its bytes, or a stream of either (a Node stream, a web ReadableStream, any async iterable), read as it
 * arrives. Real, integer and pattern fields; general, symmetric and skew-symmetric matrices. An error names the
 * line.
 */
export async function readMatrixMarket(
  source: string | Uint8Array | AsyncIterable<string | Uint8Array> | ReadableStream<string | Uint8Array>,
  options: ReadMatrixMarketOptions = {},
): Promise<SparseTensor | Tensor> {
  const parser = new MatrixMarketParser(checkOptions(options));
  const decoder = new TextDecoder();
  const feed = (chunk: unknown) => {
    if (typeof chunk === 'string') parser.push(chunk);
    else if (chunk instanceof Uint8Array) parser.push(decoder.decode(chunk, { stream: true }));
    else throw new TypeError(`readMatrixMarket: a chunk must be a string or bytes, got ${describe(chunk)}`);
  };
  if (typeof source === 'string' || source instanceof Uint8Array) feed(source);
  else if (typeof (source as ReadableStream).getReader === 'function') {
    const reader = (source as ReadableStream<string | Uint8Array>).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) feed(r.value);
  } else if (typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    for await (const chunk of source as AsyncIterable<unknown>) feed(chunk);
  } else
    throw new TypeError(`readMatrixMarket: source must be text, bytes or a stream of them, got ${describe(source)}`);
  parser.push(decoder.decode());
  return parser.finish();
}

function checkOptions(options: ReadMatrixMarketOptions): ReadMatrixMarketOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`readMatrixMarket: options must be an object, got ${describe(options)}`);
  const unknown = Object.keys(options).find((k) => !OPTION_NAMES.includes(k));
  if (unknown)
    throw new TypeError(`readMatrixMarket: unknown option '${unknown}'; the options are ${OPTION_NAMES.join(', ')}`);
  if (options.dtype !== undefined && (!isDType(options.dtype) || options.dtype === 'string'))
    throw new TypeError(`readMatrixMarket: dtype must be a numeric or bool dtype, got ${describe(options.dtype)}`);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function')
    throw new TypeError(`readMatrixMarket: onProgress must be a function, got ${describe(options.onProgress)}`);
  return options;
}
