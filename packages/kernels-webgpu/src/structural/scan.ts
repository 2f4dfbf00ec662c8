/// <reference types="@webgpu/types" />
import { ENTRY, WORKGROUP, type WebGpuContext } from '../context.js';

/** Elements a workgroup scans: WORKGROUP threads, each a run of PER_THREAD neighbours. */
export const PER_THREAD = 16;
export const TILE = WORKGROUP * PER_THREAD;

/**
 * The WGSL a workgroup kernel starts with: `g`, the workgroup's flat index (dispatches past
 * `maxComputeWorkgroupsPerDimension` groups wrap into a second dimension, as ENTRY's threads do), and `lid`, the
 * thread's index in it. Groups past `count` return (a uniform value, so the barriers below stay uniform).
 */
export const groupEntry = (count: string) => `@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nw: vec3u, @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * nw.x;
  if (g >= ${count}) { return; }`;

/** Records a dispatch of `groups` workgroups (ctx.dispatch counts threads of WORKGROUP a group). */
export function dispatchGroups(ctx: WebGpuContext, code: string, buffers: readonly GPUBuffer[], groups: number): void {
  ctx.dispatch({ code, buffers, threads: groups * WORKGROUP });
}

/**
 * The exclusive scan of each workgroup's tile of TILE words, in place, and the tile's total to sums[g]. Each
 * thread adds its run serially, the workgroup scans the 64 run totals (Hillis–Steele), then each thread rewrites
 * its run. p = [n].
 */
const SCAN_TILE = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;
var<workgroup> part: array<u32, ${WORKGROUP}>;
${groupEntry(`(p[0] + ${TILE - 1}u) / ${TILE}u`)}
  let n = p[0];
  let base = g * ${TILE}u + lid * ${PER_THREAD}u;
  var s = 0u;
  for (var k = 0u; k < ${PER_THREAD}u; k++) {
    if (base + k < n) { s += data[base + k]; }
  }
  part[lid] = s;
  workgroupBarrier();
  for (var off = 1u; off < ${WORKGROUP}u; off <<= 1u) {
    var v = 0u;
    if (lid >= off) { v = part[lid - off]; }
    workgroupBarrier();
    part[lid] += v;
    workgroupBarrier();
  }
  var run = part[lid] - s;
  for (var k = 0u; k < ${PER_THREAD}u; k++) {
    if (base + k < n) {
      let x = data[base + k];
      data[base + k] = run;
      run += x;
    }
  }
  if (lid == ${WORKGROUP - 1}u) { sums[g] = part[lid]; }
}
`;

/** Each element plus its tile's offset (the tile totals' exclusive scan). p = [n]. */
const ADD_TILE = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;
@group(0) @binding(2) var<storage, read> sums: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  data[i] += sums[i / ${TILE}u];
}
`;

/**
 * Records the exclusive prefix sum of the first `n` u32 words of `data`, in place (sums past 2^32 wrap: callers
 * keep totals below it). A tile scan a level, the tile totals scanned the same way (recursively: a level a factor of
 * TILE), then each tile's offset added back: O(n) work, log_TILE(n) levels. The buffers it takes go to `owned`, for
 * the caller to release once read.
 */
export function recordScan(ctx: WebGpuContext, data: GPUBuffer, n: number, owned: GPUBuffer[]): void {
  if (n <= 0) return;
  const groups = Math.ceil(n / TILE);
  const p = ctx.upload(Uint32Array.of(n));
  const sums = ctx.buffer(groups * 4);
  owned.push(p, sums);
  dispatchGroups(ctx, SCAN_TILE, [p, data, sums], groups);
  if (groups > 1) {
    recordScan(ctx, sums, groups, owned);
    ctx.dispatch({ code: ADD_TILE, buffers: [p, data, sums], threads: n });
  }
}
