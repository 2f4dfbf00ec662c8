/**
 * WGSL for unsigned 64-bit integers as `vec2u` (x the low word, y the high one): WGSL has no 64-bit integers, and
 * index positions in a dense shape reach past 2^32 (a dims' product up to 2^64). Comparison, addition,
 * subtraction and multiplication wrap modulo 2^64; division is exact for a divisor below 2^63.
 */
export const U64 = /* wgsl */ `fn lt64(a: vec2u, b: vec2u) -> bool {
  return a.y < b.y || (a.y == b.y && a.x < b.x);
}

fn add64(a: vec2u, b: vec2u) -> vec2u {
  let lo = a.x + b.x;
  return vec2u(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn sub64(a: vec2u, b: vec2u) -> vec2u {
  return vec2u(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

/** The full 64-bit product of two u32, from their 16-bit halves. */
fn mul32x32(a: u32, b: u32) -> vec2u {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2u((p00 & 0xffffu) | (mid << 16u), a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}

fn mul64(a: vec2u, b: vec2u) -> vec2u {
  let r = mul32x32(a.x, b.x);
  return vec2u(r.x, r.y + a.x * b.y + a.y * b.x);
}

/** v shifted left by s (0 to 63) bits; WGSL takes shift amounts modulo 32, so each case is its own. */
fn shl64(v: vec2u, s: u32) -> vec2u {
  if (s == 0u) { return v; }
  if (s < 32u) { return vec2u(v.x << s, (v.y << s) | (v.x >> (32u - s))); }
  return vec2u(0u, v.x << (s - 32u));
}

/** v shifted right by s (0 to 63) bits. */
fn shr64(v: vec2u, s: u32) -> vec2u {
  if (s == 0u) { return v; }
  if (s < 32u) { return vec2u((v.x >> s) | (v.y << (32u - s)), v.y >> s); }
  return vec2u(v.y >> (s - 32u), 0u);
}

/** [n / d, n % d]: native where both fit a u32, else a shift-and-subtract long division (64 steps). */
fn divmod64(n: vec2u, d: vec2u) -> array<vec2u, 2> {
  if (n.y == 0u && d.y == 0u) { return array<vec2u, 2>(vec2u(n.x / d.x, 0u), vec2u(n.x % d.x, 0u)); }
  var q = vec2u(0u);
  var r = vec2u(0u);
  for (var k = 0u; k < 64u; k++) {
    let b = 63u - k;
    let bit = (select(n.x, n.y, b >= 32u) >> (b & 31u)) & 1u;
    r = shl64(r, 1u) | vec2u(bit, 0u);
    if (!lt64(r, d)) {
      r = sub64(r, d);
      q = q | shl64(vec2u(1u, 0u), b);
    }
  }
  return array<vec2u, 2>(q, r);
}
`;

/** A whole number below 2^64 as the two u32 words of a U64 value (low word first). */
export function u64Words(x: number | bigint): [number, number] {
  const b = BigInt(x);
  return [Number(b & 0xffffffffn), Number(b >> 32n)];
}
