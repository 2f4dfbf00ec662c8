import {
  crossPlan,
  type CsrData,
  type DenseData,
  rememberedProductsBound,
  sizeOf,
  type SparseData,
} from '@sparse/kernel-abi';
import type { DType } from './dtype.js';
import { ResourceExhaustedError } from './errors.js';
import { jsHeapRoom } from '#platform-memory';
import type { EntriesTerm, OpMeta, OutputMeta } from './op-meta.js';
import { shapeText } from './shape.js';
import type { BoundArgs } from './bind-args.js';

type Data = SparseData | DenseData | CsrData;

// Bytes of one value in its store; a string is a reference to a string the inputs already hold.
const VALUE_BYTES: Record<DType, number> = { float32: 4, float64: 8, int32: 4, int64: 8, bool: 1, string: 8 };
// An index is a float64 per dim (SparseData.indices).
const INDEX_BYTES = 8;
// A CSR matrix's pointers and column indices are int32.
const CSR_INDEX_BYTES = 4;

/** What an output will take, where the spec bounds it before the kernel runs; undefined where it does not. */
export interface OutputBytes {
  output: string;
  bytes: number;
  /** Its string values, which live in the JavaScript heap (a reference each, as its array holds them). */
  strings: number;
  /** `dense shape [2, 1000000000]`, `at most 1000000002 entries of rank 2`: how the bytes were counted. */
  what: string;
}

/**
 * Refuses a call whose outputs and working memory would take more than `maxBytes`, before anything is allocated:
 * dense outputs by their shape, sparse outputs by the bound their spec gives on their entries, each with the
 * kernel's working bytes per element or entry. Inputs are already in memory and are not counted. Returns the bytes
 * counted.
 */
export function guardBytes(
  op: OpMeta,
  bound: BoundArgs,
  outputs: readonly { meta: OutputMeta; shape?: number[]; dense: boolean }[],
  maxBytes: number,
): number {
  let total = 0;
  const parts: OutputBytes[] = [];
  for (const o of outputs) {
    const part = outputBytes(op, o.meta, bound, o.shape, o.dense);
    if (!part) continue;
    total += part.bytes;
    parts.push(part);
  }
  guardJsHeap(op, parts);
  if (total > maxBytes) {
    const largest = parts.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    throw new ResourceExhaustedError(
      `${op.name}: ${largest.output} (${largest.what}) would take ${bytesText(largest.bytes)}` +
        (parts.length > 1 ? ` of the ${bytesText(total)} this call needs` : '') +
        `, more than this runtime's budget of ${bytesText(maxBytes)} (createRuntime({ maxBytes }) sets it)`,
    );
  }
  return total;
}

function outputBytes(
  op: OpMeta,
  o: OutputMeta,
  bound: BoundArgs,
  shape: number[] | undefined,
  dense: boolean,
): OutputBytes | undefined {
  const dtype = bound.dtypes[o.dtype] ?? (o.dtype as DType);
  const valueBytes = VALUE_BYTES[dtype] ?? 8;
  const isString = dtype === 'string';
  if (dense) {
    if (!shape) return undefined;
    const n = sizeOf(shape);
    return {
      output: o.name,
      bytes: n * (valueBytes + op.workspace),
      strings: isString ? n : 0,
      what: `dense shape ${shapeText(shape)}`,
    };
  }
  if (!o.entries) return undefined;
  const entries = o.entries.reduce((sum, t) => sum + termValue(t, bound), 0);
  if (o.type === 'csr' && shape) {
    // A column index and a value per entry; rows + 1 row pointers per matrix of the batch, batch + 1 batch pointers.
    const batch = shape.length === 3 ? shape[0] : 1;
    const pointers = batch * (shape[shape.length - 2] + 1) + batch + 1;
    return {
      output: o.name,
      bytes: entries * (CSR_INDEX_BYTES + valueBytes + op.workspace) + pointers * CSR_INDEX_BYTES,
      strings: 0,
      what: `at most ${entries} entries of a CSR matrix of dense shape ${shapeText(shape)}`,
    };
  }
  const rank = shape?.length ?? rankOfFirst(o.entries, bound);
  return {
    output: o.name,
    bytes: entries * (rank * INDEX_BYTES + valueBytes + op.workspace),
    strings: isString ? entries : 0,
    what: `at most ${entries} entries of rank ${rank}`,
  };
}

// A string value costs its array a reference, and an array growing to hold them up to half as much again.
const JS_BYTES_PER_STRING = 16;

/**
 * Refuses string outputs the JavaScript heap has no room for: V8 ends the process when its heap is exhausted,
 * with nothing to catch, so they must not be tried. (Typed arrays live outside that heap, under the byte budget.)
 */
function guardJsHeap(op: OpMeta, parts: OutputBytes[]): void {
  const strings = parts.reduce((n, p) => n + p.strings, 0);
  if (strings === 0) return; // the common case: no need to ask V8 for its heap statistics
  const room = jsHeapRoom();
  if (room === undefined || strings * JS_BYTES_PER_STRING <= room / 2) return;
  const largest = parts.reduce((a, b) => (b.strings > a.strings ? b : a));
  throw new ResourceExhaustedError(
    `${op.name}: ${largest.output} (${largest.what}) would hold ${strings} string values, ${bytesText(strings * JS_BYTES_PER_STRING)} of a JavaScript heap that has ${bytesText(room)} left (strings live there, and the process cannot survive running out of it)`,
  );
}

// The longest string V8 makes (2^29 - 24 UTF-16 code units; other engines allow longer).
const MAX_STRING_LENGTH = 2 ** 29 - 24;
// Bytes a new string's characters may take: two per UTF-16 code unit where it is not all Latin-1.
const BYTES_PER_CHAR = 2;

/**
 * Refuses new strings a kernel would build (sparse_cross joins features into strings that are not in its inputs):
 * `count` strings of `chars` characters in all, the longest of `longest`. Each must fit in a JavaScript string, and
 * all of them in the JavaScript heap's room, as guardJsHeap counts: where they live, and where running out ends
 * the process.
 */
export function guardNewStrings(op: string, output: string, count: number, chars: number, longest: number): void {
  if (longest > MAX_STRING_LENGTH) {
    throw new ResourceExhaustedError(
      `${op}: ${output} would hold a string of ${longest} characters, longer than a JavaScript string can be (${MAX_STRING_LENGTH})`,
    );
  }
  const room = jsHeapRoom();
  const bytes = chars * BYTES_PER_CHAR + count * JS_BYTES_PER_STRING;
  if (room === undefined || bytes <= room / 2) return;
  throw new ResourceExhaustedError(
    `${op}: ${output} would hold ${count} new strings of ${chars} characters in all, ${bytesText(bytes)} of a JavaScript heap that has ${bytesText(room)} left (strings live there, and the process cannot survive running out of it)`,
  );
}

function termValue(t: EntriesTerm, bound: BoundArgs): number {
  if ('products' in t) {
    const p = t.products;
    const anyOf = (flags: string[]) => flags.some((f) => bound.values[f] === true);
    return rememberedProductsBound(
      bound.values[p.a] as CsrData,
      bound.values[p.b] as CsrData,
      anyOf(p.transpose_a),
      anyOf(p.transpose_b),
    );
  }
  if ('nnz' in t) {
    const v = bound.values[t.nnz] as Data | Data[];
    return (Array.isArray(v) ? v : [v]).reduce(
      (n, x) => n + (x.kind === 'dense' ? sizeOf(x.shape) : x.values.length),
      0,
    );
  }
  if ('size' in t) return sizeOf((bound.values[t.size] as Data).shape);
  if ('min' in t) {
    const given = t.min.map((name) => bound.values[name] as number | null).filter((v) => v !== null);
    return Math.max(0, Math.min(...given));
  }
  if ('cross' in t) return crossPlan(bound.values[t.cross] as (SparseData | DenseData)[]).total;
  const [arg, axis] = t.dim;
  return (bound.values[arg] as Data).shape[axis] ?? 0;
}

/** The rank of the tensor a bound's first term counts (an output whose shape the spec leaves to the kernel). */
function rankOfFirst(terms: EntriesTerm[], bound: BoundArgs): number {
  const t = terms[0];
  if ('min' in t) return 1;
  if ('cross' in t) return 2; // [row, position in the row]
  const arg = 'nnz' in t ? t.nnz : 'size' in t ? t.size : 'dim' in t ? t.dim[0] : t.products.a;
  const v = bound.values[arg] as Data | Data[];
  return (Array.isArray(v) ? v[0] : v)?.shape.length ?? 1;
}

function bytesText(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  let x = n;
  while (x >= 1024 && u < units.length - 1) {
    x /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${x.toFixed(1)} ${units[u]}`;
}
