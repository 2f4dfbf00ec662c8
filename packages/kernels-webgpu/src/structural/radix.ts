/// <reference types="@webgpu/types" />
import { ENTRY, WORKGROUP, type WebGpuContext } from '../context.js';
import { dispatchGroups, groupEntry, PER_THREAD, recordScan, TILE } from './scan.js';

/** Bits a pass sorts on: 16 buckets, so a workgroup's per-thread counts (16 × 64 words) fit its memory. */
const DIGIT_BITS = 4;
const BUCKETS = 1 << DIGIT_BITS;

/**
 * Pass histogram: hist[b·G + g] = how many keys of tile g have digit b ((key >> shift) & 15). Laid out bucket-major,
 * so that its exclusive scan is, for each (bucket, tile), where that tile's keys of that digit start in the output:
 * every key of a lower digit first, then those of the same digit in earlier tiles. p = [n, shift, G].
 */
const HISTOGRAM = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> hist: array<u32>;
var<workgroup> counts: array<atomic<u32>, ${BUCKETS}>;
${groupEntry('p[2]')}
  let n = p[0];
  let shift = p[1];
  let base = g * ${TILE}u;
  for (var k = 0u; k < ${PER_THREAD}u; k++) {
    let e = base + k * ${WORKGROUP}u + lid;
    if (e < n) { atomicAdd(&counts[(keys[e] >> shift) & ${BUCKETS - 1}u], 1u); }
  }
  workgroupBarrier();
  if (lid < ${BUCKETS}u) { hist[lid * p[2] + g] = atomicLoad(&counts[lid]); }
}
`;

/**
 * Pass scatter, stable: thread t of tile g owns the run of PER_THREAD keys from g·TILE + t·PER_THREAD, in order.
 * Each thread counts its run's digits (cnt[b·64 + t]), one thread a bucket turns its column into start positions
 * (the scanned histogram's offset for (b, g) plus the counts of earlier threads), then each thread walks its run in
 * order, placing each key at its digit's next position: keys of one digit keep their input order. The permutation
 * moves with the keys (the first pass starts it as the identity). p = [n, shift, G, first].
 */
const SCATTER = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> keysIn: array<u32>;
@group(0) @binding(2) var<storage, read> permIn: array<u32>;
@group(0) @binding(3) var<storage, read> offs: array<u32>;
@group(0) @binding(4) var<storage, read_write> keysOut: array<u32>;
@group(0) @binding(5) var<storage, read_write> permOut: array<u32>;
var<workgroup> cnt: array<u32, ${BUCKETS * WORKGROUP}>;
${groupEntry('p[2]')}
  let n = p[0];
  let shift = p[1];
  let G = p[2];
  for (var b = 0u; b < ${BUCKETS}u; b++) { cnt[b * ${WORKGROUP}u + lid] = 0u; }
  let base = g * ${TILE}u + lid * ${PER_THREAD}u;
  var mine: array<u32, ${PER_THREAD}>;
  for (var k = 0u; k < ${PER_THREAD}u; k++) {
    if (base + k < n) {
      let key = keysIn[base + k];
      mine[k] = key;
      let c = ((key >> shift) & ${BUCKETS - 1}u) * ${WORKGROUP}u + lid;
      cnt[c] = cnt[c] + 1u;
    }
  }
  workgroupBarrier();
  if (lid < ${BUCKETS}u) {
    var run = offs[lid * G + g];
    for (var t = 0u; t < ${WORKGROUP}u; t++) {
      let c = cnt[lid * ${WORKGROUP}u + t];
      cnt[lid * ${WORKGROUP}u + t] = run;
      run += c;
    }
  }
  workgroupBarrier();
  for (var k = 0u; k < ${PER_THREAD}u; k++) {
    let e = base + k;
    if (e < n) {
      let key = mine[k];
      let c = ((key >> shift) & ${BUCKETS - 1}u) * ${WORKGROUP}u + lid;
      let dst = cnt[c];
      cnt[c] = dst + 1u;
      keysOut[dst] = key;
      if (p[3] == 1u) { permOut[dst] = e; } else { permOut[dst] = permIn[e]; }
    }
  }
}
`;

/** perm[i] = i: the permutation of keys that need no pass. p = [n]. */
const IOTA = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read_write> perm: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  perm[i] = i;
}
`;

/** The sorted keys and, at each position, the input position of the key that went there. */
export interface Sorted {
  keys: GPUBuffer;
  perm: GPUBuffer;
}

/** How many 4-bit passes keys up to `maxKey` need (0: they are all 0). */
export function passesFor(maxKey: number): number {
  let passes = 0;
  while (passes * DIGIT_BITS < 32 && maxKey >= 2 ** (passes * DIGIT_BITS)) passes++;
  return passes;
}

/**
 * Records a stable LSD radix sort of `n` u32 keys (`keys`, read, never written), 4 bits a pass over the bits that
 * `maxKey` needs (none where `sorted`: keys already in order keep it, the identity permutation). Each pass: a digit
 * histogram per workgroup tile, its exclusive scan (bucket-major, recordScan), a stable scatter of keys and
 * permutation. O(n) a pass, at most 8 passes. Buffers it takes go to `owned`.
 */
export function recordRadixSort(
  ctx: WebGpuContext,
  keys: GPUBuffer,
  n: number,
  maxKey: number,
  sorted: boolean,
  owned: GPUBuffer[],
): Sorted {
  const passes = sorted ? 0 : passesFor(maxKey);
  if (passes === 0) {
    const p = ctx.upload(Uint32Array.of(n));
    const perm = ctx.buffer(n * 4);
    owned.push(p, perm);
    ctx.dispatch({ code: IOTA, buffers: [p, perm], threads: n });
    return { keys, perm };
  }
  const groups = Math.ceil(n / TILE);
  const hist = ctx.buffer(BUCKETS * groups * 4);
  const ping = [ctx.buffer(n * 4), ctx.buffer(n * 4)];
  const pong = [ctx.buffer(n * 4), ctx.buffer(n * 4)];
  owned.push(hist, ...ping, ...pong);
  let src: [GPUBuffer, GPUBuffer] = [keys, pong[1]]; // the first pass's permutation is the identity, not read
  for (let pass = 0; pass < passes; pass++) {
    const dst: [GPUBuffer, GPUBuffer] = pass % 2 === 0 ? [ping[0], ping[1]] : [pong[0], pong[1]];
    const p = ctx.upload(Uint32Array.of(n, pass * DIGIT_BITS, groups, pass === 0 ? 1 : 0));
    owned.push(p);
    dispatchGroups(ctx, HISTOGRAM, [p, src[0], hist], groups);
    recordScan(ctx, hist, BUCKETS * groups, owned);
    dispatchGroups(ctx, SCATTER, [p, src[0], src[1], hist, dst[0], dst[1]], groups);
    src = dst;
  }
  return { keys: src[0], perm: src[1] };
}

/** The bytes the sort binds beyond its n keys: none may pass the device's binding limit. */
export function sortBytes(n: number): number {
  return Math.max(n * 4, BUCKETS * Math.ceil(n / TILE) * 4);
}
