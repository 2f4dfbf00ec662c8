/// <reference types="@webgpu/types" />
import { ENTRY, type WebGpuContext } from '../context.js';
import { recordScan } from './scan.js';
import { moveValue } from './value-words.js';

/**
 * Each kept entry i (after the scan, pos[i] is its place: kept where the next place differs, the last one where its
 * place is below m) moves its row of `width` words, word d less shift[d], and its value (`valueWidth` words) to
 * place pos[i]. p = [n, m, width, shift 0, …].
 */
const compact = (valueWidth: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> pos: array<u32>;
@group(0) @binding(2) var<storage, read> rowsIn: array<u32>;
@group(0) @binding(3) var<storage, read> valsIn: array<u32>;
@group(0) @binding(4) var<storage, read_write> rows: array<u32>;
@group(0) @binding(5) var<storage, read_write> vals: array<u32>;
${ENTRY}
  let n = p[0];
  if (i >= n) { return; }
  let k = pos[i];
  var next = p[1];
  if (i + 1u < n) { next = pos[i + 1u]; }
  if (next == k) { return; }
  let w = p[2];
  for (var d = 0u; d < w; d++) { rows[k * w + d] = rowsIn[i * w + d] - p[3u + d]; }
  ${moveValue(valueWidth, 'vals', 'k', 'valsIn', 'i')}
}
`;

/** What a compaction moves: `n` entries, each a row of `width` words (in `rows`) and a value (in `values`). */
export interface Compaction {
  /** One word a entry, 1 where it is kept and 0 where not; scanned in place. */
  flags: GPUBuffer;
  n: number;
  /** How many are kept (the flags' sum, which the caller knows to size the outputs). */
  m: number;
  rows: GPUBuffer;
  width: number;
  /** Subtracted from each kept row, word by word (wrapping u32 subtraction; zeros move the row unchanged). */
  shift: readonly number[];
  values: GPUBuffer;
  /** Words a value (value-words.ts): 1, or 2 for float64 and int64; default 1. */
  valueWidth?: number;
}

/**
 * Records a stable stream compaction: the flags' exclusive scan (scan.ts) gives each kept entry its place, then one
 * pass moves its row (less `shift`) and its value there, in input order. O(n). Returns the output buffers (m rows of
 * `width` words, m values of `valueWidth` words); the buffers it takes go to `owned`.
 */
export function recordCompaction(
  ctx: WebGpuContext,
  c: Compaction,
  owned: GPUBuffer[],
): { rows: GPUBuffer; values: GPUBuffer } {
  recordScan(ctx, c.flags, c.n, owned);
  const p = ctx.upload(Uint32Array.of(c.n, c.m, c.width, ...c.shift));
  const rows = ctx.buffer(c.m * c.width * 4);
  const vw = c.valueWidth ?? 1;
  const values = ctx.buffer(c.m * vw * 4);
  owned.push(p, rows, values);
  ctx.dispatch({ code: compact(vw), buffers: [p, c.flags, c.rows, c.values, rows, values], threads: c.n });
  return { rows, values };
}
