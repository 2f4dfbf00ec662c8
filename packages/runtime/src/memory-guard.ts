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
import { scratchParts, type PartBytes } from './working-memory.js';

type Data = SparseData | DenseData | CsrData;

// Bytes of one value in its store; a string is a reference to a string the inputs already hold.
const VALUE_BYTES: Record<DType, number> = { float32: 4, float64: 8, int32: 4, int64: 8, bool: 1, string: 8 };
// An index is a float64 per dim (SparseData.indices).
const INDEX_BYTES = 8;
// A CSR matrix's pointers and column indices are int32.
const CSR_INDEX_BYTES = 4;

// The most entries a CsrMatrix holds: its row pointers and column indices are int32, as TensorFlow's.
const MAX_CSR_ENTRIES = 0x7fffffff;

/**
 * Refuses a call whose outputs and working memory would take more than `maxBytes`, before anything is allocated:
 * dense outputs by their shape, sparse outputs by the bound their spec gives on their entries, each with the
 * kernel's working bytes per element or entry, and the working memory the spec declares (`kernel.scratch`). What
 * is read in O(1) is counted and refused first; a bound that takes a pass over the inputs (a CSR product's, a
 * cross's) only then, so that its pass never runs for a call refused anyway. Inputs are already in memory and are
 * not counted. Returns the bytes counted.
 */
export function guardBytes(
  op: OpMeta,
  bound: BoundArgs,
  outputs: readonly { meta: OutputMeta; shape?: number[]; dense: boolean }[],
  maxBytes: number,
): number {
  const parts: PartBytes[] = scratchParts(op, bound);
  const later: (typeof outputs)[number][] = [];
  for (const o of outputs) {
    if (!o.dense && o.meta.entries?.some((t) => 'products' in t || 'cross' in t)) {
      later.push(o);
      const pointers = csrPointerBytes(o.meta, o.shape);
      if (pointers) parts.push(pointers);
      continue;
    }
    const part = outputBytes(op, o.meta, bound, o.shape, o.dense);
    if (part) parts.push(part);
  }
  refuseOver(op, parts, maxBytes);
  for (const o of later) {
    const part = outputBytes(op, o.meta, bound, o.shape, o.dense, true);
    if (part) parts.push(part);
  }
  guardJsHeap(op, parts);
  return refuseOver(op, parts, maxBytes);
}

/** The parts' total, or a ResourceExhaustedError naming the largest where it passes `maxBytes`. */
function refuseOver(op: OpMeta, parts: PartBytes[], maxBytes: number): number {
  const total = parts.reduce((n, p) => n + p.bytes, 0);
  if (total <= maxBytes) return total;
  const largest = parts.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  throw new ResourceExhaustedError(
    `${op.name}: ${largest.output} (${largest.what}) would take ${bytesText(largest.bytes)}` +
      (parts.length > 1 ? ` of the ${bytesText(total)} this call needs` : '') +
      `, more than this runtime's budget of ${bytesText(maxBytes)} (createRuntime({ maxBytes }) sets it)`,
  );
}

/** A CSR output's row and batch pointers: rows + 1 per matrix of the batch, batch + 1. */
function csrPointerBytes(o: OutputMeta, shape: number[] | undefined): PartBytes | undefined {
  if (o.type !== 'csr' || !shape) return undefined;
  const batch = shape.length === 3 ? shape[0] : 1;
  const pointers = batch * (shape[shape.length - 2] + 1) + batch + 1;
  return {
    output: o.name,
    bytes: pointers * CSR_INDEX_BYTES,
    strings: 0,
    what: `the row pointers of a CSR matrix of dense shape ${shapeText(shape)}`,
  };
}

function outputBytes(
  op: OpMeta,
  o: OutputMeta,
  bound: BoundArgs,
  shape: number[] | undefined,
  dense: boolean,
  pointersCounted = false,
): PartBytes | undefined {
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
    if (entries > MAX_CSR_ENTRIES)
      throw new ResourceExhaustedError(
        `${op.name}: ${o.name} may hold up to ${entries} entries, more than a CsrMatrix's int32 row pointers can index (${MAX_CSR_ENTRIES})`,
      );
    // A column index and a value per entry, and the pointers (counted apart where the entries took a pass).
    const pointers = pointersCounted ? 0 : (csrPointerBytes(o, shape)?.bytes ?? 0);
    return {
      output: o.name,
      bytes: entries * (CSR_INDEX_BYTES + valueBytes + op.workspace) + pointers,
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
function guardJsHeap(op: OpMeta, parts: PartBytes[]): void {
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
