import { U64 } from './u64.js';

/**
 * Indices as the GPU sees a Float64Array: each index two u32 words, its float64 bits (low word first), uploaded
 * and read back as they are, so the host never converts them. WGSL decodes them to U64 integers (u64.ts) and
 * encodes integers back, exactly for whole numbers below 2^53 (every index of a dim up to 2^53 - 1).
 */

/** The float64 bits of `indices` as u32 words, sharing their memory (two words an index). */
export function indexWords(indices: Float64Array): Uint32Array {
  return new Uint32Array(indices.buffer, indices.byteOffset, indices.length * 2);
}

/** Float64 words read back from the GPU as the indices they encode. */
export function indicesOf(bytes: ArrayBuffer): Float64Array {
  return new Float64Array(bytes);
}

/**
 * `decodeIndex(lo, hi)`: the index whose float64 bits are (lo, hi) as a U64 value, and whether it is one: a whole
 * number in [0, 2^53) (+0 included; -0, negatives, fractions, 2^53 and beyond, inf and nan are not).
 * `encodeIndex(v)`: the float64 bits of v (below 2^53), +0 for 0.
 */
export const FLOAT64_INDEX = /* wgsl */ `${U64}
struct Index { v: vec2u, ok: bool }

fn decodeIndex(lo: u32, hi: u32) -> Index {
  if ((lo | hi) == 0u) { return Index(vec2u(0u), true); }
  let e = hi >> 20u; // the biased exponent, with the sign bit above it (a sign makes e too large)
  if (e < 1023u || e > 1075u) { return Index(vec2u(0u), false); }
  let s = 1075u - e; // the 53-bit significand's fraction bits
  let m = vec2u(lo, (hi & 0xfffffu) | 0x100000u);
  return Index(shr64(m, s), all(shl64(shr64(m, s), s) == m));
}

fn encodeIndex(v: vec2u) -> vec2u {
  if ((v.x | v.y) == 0u) { return vec2u(0u); }
  let p = select(firstLeadingBit(v.x), 32u + firstLeadingBit(v.y), v.y != 0u);
  let m = shl64(v, 52u - p);
  return vec2u(m.x, ((1023u + p) << 20u) | (m.y & 0xfffffu));
}
`;
