// FarmHash's Fingerprint64 (its `farmhashna::Hash64`, which TensorFlow's `Fingerprint64` is) and TensorFlow's
// `FingerprintCat64`, bit for bit. Both are unsigned 64-bit arithmetic; here each 64-bit value is two 32-bit
// halves, each held as the int32 of its bits (BigInt arithmetic allocates at every step and is about 10 times
// slower, as packages/kernels-js/README.md measures). An int32 is a small integer to V8 in Node, never a heap
// number, so the halves cross function calls and typed arrays without allocating (uint32 values past 2^31 would be
// boxed, and the garbage collector would dominate). Bytes are read little-endian, as FarmHash reads them on any
// platform (its fingerprints never depend on the machine).

// The result of the last 64-bit step below, [high, low].
const R = new Int32Array(2);

// FarmHash's constants k0, k1, k2, and FingerprintCat64's multiplier, as [high, low] halves.
const K0H = 0xc3a5c85c | 0;
const K0L = 0x97cb3127 | 0;
const K1H = 0xb492b66f | 0;
const K1L = 0xbe98f273 | 0;
const K2H = 0x9ae16a3b | 0;
const K2L = 0x2f90404f | 0;
const KMULH = 0xc6a4a793 | 0;
const KMULL = 0x5bd1e995 | 0;

/** (a × b) mod 2^64. */
function mul(ah: number, al: number, bh: number, bl: number): void {
  // The full 64-bit product of the low halves from 16-bit limbs (each partial product exact below 2^32), then the
  // low 32 bits of the cross terms, which is all of them that reaches the result.
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  R[1] = (mid << 16) | (p00 & 0xffff) | 0;
  R[0] = (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(ah, bl) + Math.imul(al, bh)) | 0;
}

/** (a + b) mod 2^64. */
function add(ah: number, al: number, bh: number, bl: number): void {
  const low = (al >>> 0) + (bl >>> 0);
  R[1] = low | 0;
  R[0] = (ah + bh + (low > 0xffffffff ? 1 : 0)) | 0;
}

/** a rotated right by `shift` bits, 0 < shift < 64. */
function rotate(ah: number, al: number, shift: number): void {
  let h = ah;
  let l = al;
  let s = shift;
  if (s >= 32) {
    h = al;
    l = ah;
    s -= 32;
  }
  if (s === 0) {
    R[0] = h;
    R[1] = l;
    return;
  }
  R[0] = (h >>> s) | (l << (32 - s)) | 0;
  R[1] = (l >>> s) | (h << (32 - s)) | 0;
}

/** a ^ (a >> 47). */
function shiftMix(ah: number, al: number): void {
  R[0] = ah;
  R[1] = (al ^ (ah >>> 15)) | 0;
}

/** The 8 bytes at p, little-endian. */
function fetch64(b: Uint8Array, p: number): void {
  R[1] = b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24) | 0;
  R[0] = b[p + 4] | (b[p + 5] << 8) | (b[p + 6] << 16) | (b[p + 7] << 24) | 0;
}

/** The 4 bytes at p, little-endian (as a 64-bit value, high half 0). */
function fetch32(b: Uint8Array, p: number): number {
  return b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24) | 0;
}

/** FarmHash's HashLen16(u, v, mul): a Murmur-style mix of two values. */
function hashLen16(uh: number, ul: number, vh: number, vl: number, mh: number, ml: number): void {
  mul((uh ^ vh) | 0, (ul ^ vl) | 0, mh, ml);
  shiftMix(R[0], R[1]);
  const ah = R[0];
  const al = R[1];
  mul((vh ^ ah) | 0, (vl ^ al) | 0, mh, ml);
  shiftMix(R[0], R[1]);
  mul(R[0], R[1], mh, ml);
}

/** k2 + 2 × len: the multiplier of the short-input paths. */
function lengthMul(len: number): void {
  add(K2H, K2L, Math.floor((len * 2) / 0x100000000), (len * 2) | 0);
}

function hashLen0to16(s: Uint8Array, p: number, len: number): void {
  if (len >= 8) {
    lengthMul(len);
    const mh = R[0];
    const ml = R[1];
    fetch64(s, p);
    add(R[0], R[1], K2H, K2L);
    const ah = R[0];
    const al = R[1];
    fetch64(s, p + len - 8);
    const bh = R[0];
    const bl = R[1];
    rotate(bh, bl, 37); // c = Rotate(b, 37) * mul + a
    mul(R[0], R[1], mh, ml);
    add(R[0], R[1], ah, al);
    const ch = R[0];
    const cl = R[1];
    rotate(ah, al, 25); // d = (Rotate(a, 25) + b) * mul
    add(R[0], R[1], bh, bl);
    mul(R[0], R[1], mh, ml);
    hashLen16(ch, cl, R[0], R[1], mh, ml);
    return;
  }
  if (len >= 4) {
    lengthMul(len);
    const mh = R[0];
    const ml = R[1];
    const a = fetch32(s, p);
    // len + (a << 3), with a widened to 64 bits first
    add(a >>> 29, (a << 3) | 0, 0, len);
    hashLen16(R[0], R[1], 0, fetch32(s, p + len - 4), mh, ml);
    return;
  }
  if (len > 0) {
    const y = s[p] + (s[p + (len >> 1)] << 8);
    const z = len + (s[p + len - 1] << 2);
    mul(0, y, K2H, K2L);
    const yh = R[0];
    const yl = R[1];
    mul(0, z, K0H, K0L);
    shiftMix((yh ^ R[0]) | 0, (yl ^ R[1]) | 0);
    mul(R[0], R[1], K2H, K2L);
    return;
  }
  R[0] = K2H;
  R[1] = K2L;
}

function hashLen17to32(s: Uint8Array, p: number, len: number): void {
  lengthMul(len);
  const mh = R[0];
  const ml = R[1];
  fetch64(s, p);
  mul(R[0], R[1], K1H, K1L);
  const ah = R[0];
  const al = R[1];
  fetch64(s, p + 8);
  const bh = R[0];
  const bl = R[1];
  fetch64(s, p + len - 8);
  mul(R[0], R[1], mh, ml);
  const ch = R[0];
  const cl = R[1];
  fetch64(s, p + len - 16);
  mul(R[0], R[1], K2H, K2L);
  const dh = R[0];
  const dl = R[1];
  // u = Rotate(a + b, 43) + Rotate(c, 30) + d
  add(ah, al, bh, bl);
  rotate(R[0], R[1], 43);
  const uh = R[0];
  const ul = R[1];
  rotate(ch, cl, 30);
  add(R[0], R[1], uh, ul);
  add(R[0], R[1], dh, dl);
  const u2h = R[0];
  const u2l = R[1];
  // v = a + Rotate(b + k2, 18) + c
  add(bh, bl, K2H, K2L);
  rotate(R[0], R[1], 18);
  add(R[0], R[1], ah, al);
  add(R[0], R[1], ch, cl);
  hashLen16(u2h, u2l, R[0], R[1], mh, ml);
}

function hashLen33to64(s: Uint8Array, p: number, len: number): void {
  lengthMul(len);
  const mh = R[0];
  const ml = R[1];
  fetch64(s, p);
  mul(R[0], R[1], K2H, K2L);
  const ah = R[0];
  const al = R[1];
  fetch64(s, p + 8);
  const bh = R[0];
  const bl = R[1];
  fetch64(s, p + len - 8);
  mul(R[0], R[1], mh, ml);
  const ch = R[0];
  const cl = R[1];
  fetch64(s, p + len - 16);
  mul(R[0], R[1], K2H, K2L);
  const dh = R[0];
  const dl = R[1];
  // y = Rotate(a + b, 43) + Rotate(c, 30) + d
  add(ah, al, bh, bl);
  rotate(R[0], R[1], 43);
  const t1h = R[0];
  const t1l = R[1];
  rotate(ch, cl, 30);
  add(R[0], R[1], t1h, t1l);
  add(R[0], R[1], dh, dl);
  const yh = R[0];
  const yl = R[1];
  // z = HashLen16(y, a + Rotate(b + k2, 18) + c, mul)
  add(bh, bl, K2H, K2L);
  rotate(R[0], R[1], 18);
  add(R[0], R[1], ah, al);
  add(R[0], R[1], ch, cl);
  hashLen16(yh, yl, R[0], R[1], mh, ml);
  const zh = R[0];
  const zl = R[1];
  fetch64(s, p + 16); // e = Fetch(s + 16) * mul
  mul(R[0], R[1], mh, ml);
  const eh = R[0];
  const el = R[1];
  fetch64(s, p + 24); // f = Fetch(s + 24)
  const fh = R[0];
  const fl = R[1];
  fetch64(s, p + len - 32); // g = (y + Fetch(s + len - 32)) * mul
  add(R[0], R[1], yh, yl);
  mul(R[0], R[1], mh, ml);
  const gh = R[0];
  const gl = R[1];
  fetch64(s, p + len - 24); // h = (z + Fetch(s + len - 24)) * mul
  add(R[0], R[1], zh, zl);
  mul(R[0], R[1], mh, ml);
  const hh = R[0];
  const hl = R[1];
  // HashLen16(Rotate(e + f, 43) + Rotate(g, 30) + h, e + Rotate(f + a, 18) + g, mul)
  add(eh, el, fh, fl);
  rotate(R[0], R[1], 43);
  const t2h = R[0];
  const t2l = R[1];
  rotate(gh, gl, 30);
  add(R[0], R[1], t2h, t2l);
  add(R[0], R[1], hh, hl);
  const uh = R[0];
  const ul = R[1];
  add(fh, fl, ah, al);
  rotate(R[0], R[1], 18);
  add(R[0], R[1], eh, el);
  add(R[0], R[1], gh, gl);
  hashLen16(uh, ul, R[0], R[1], mh, ml);
}

// The state of the long-input loop: FarmHash's x, y, z and the pairs v, w (each value as [high, low]).
const state = new Int32Array(14);
const X = 0;
const Y = 2;
const Z = 4;
const V1 = 6;
const V2 = 8;
const W1 = 10;
const W2 = 12;

/** FarmHash's WeakHashLen32WithSeeds(s + q, a, b), into the pair at `at` of `state`. */
function weakHashLen32WithSeeds(
  s: Uint8Array,
  q: number,
  ah0: number,
  al0: number,
  bh0: number,
  bl0: number,
  at: number,
): void {
  fetch64(s, q); // w
  add(ah0, al0, R[0], R[1]); // a += w
  const ah = R[0];
  const al = R[1];
  fetch64(s, q + 24); // z
  const zh = R[0];
  const zl = R[1];
  add(bh0, bl0, ah, al); // b = Rotate(b + a + z, 21)
  add(R[0], R[1], zh, zl);
  rotate(R[0], R[1], 21);
  const bh = R[0];
  const bl = R[1];
  fetch64(s, q + 8); // a += x; a += y
  add(ah, al, R[0], R[1]);
  const a2h = R[0];
  const a2l = R[1];
  fetch64(s, q + 16);
  add(a2h, a2l, R[0], R[1]);
  const a3h = R[0];
  const a3l = R[1];
  rotate(a3h, a3l, 44); // b += Rotate(a, 44)
  add(bh, bl, R[0], R[1]);
  const b2h = R[0];
  const b2l = R[1];
  add(a3h, a3l, zh, zl); // (a + z, b + c), c being a before x and y were added
  state[at] = R[0];
  state[at + 1] = R[1];
  add(b2h, b2l, ah, al);
  state[at + 2] = R[0];
  state[at + 3] = R[1];
}

/** One round of the long-input loop over the 64 bytes at q, with multiplier m (k1 in the loop, then its last round's). */
function longRound(s: Uint8Array, q: number, mh: number, ml: number, last: boolean): void {
  const st = state;
  // x = Rotate(x + y + v.first + Fetch(s + 8), 37) * m
  add(st[X], st[X + 1], st[Y], st[Y + 1]);
  add(R[0], R[1], st[V1], st[V1 + 1]);
  const th = R[0];
  const tl = R[1];
  fetch64(s, q + 8);
  add(th, tl, R[0], R[1]);
  rotate(R[0], R[1], 37);
  mul(R[0], R[1], mh, ml);
  const xh = R[0];
  const xl = R[1];
  // y = Rotate(y + v.second + Fetch(s + 48), 42) * m
  add(st[Y], st[Y + 1], st[V2], st[V2 + 1]);
  const uh = R[0];
  const ul = R[1];
  fetch64(s, q + 48);
  add(uh, ul, R[0], R[1]);
  rotate(R[0], R[1], 42);
  mul(R[0], R[1], mh, ml);
  let yh = R[0];
  let yl = R[1];
  // x ^= w.second (× 9 in the last round)
  if (last) mul(st[W2], st[W2 + 1], 0, 9);
  else {
    R[0] = st[W2];
    R[1] = st[W2 + 1];
  }
  st[X] = (xh ^ R[0]) | 0;
  st[X + 1] = (xl ^ R[1]) | 0;
  // y += v.first (× 9 in the last round) + Fetch(s + 40)
  if (last) mul(st[V1], st[V1 + 1], 0, 9);
  else {
    R[0] = st[V1];
    R[1] = st[V1 + 1];
  }
  add(yh, yl, R[0], R[1]);
  yh = R[0];
  yl = R[1];
  fetch64(s, q + 40);
  add(yh, yl, R[0], R[1]);
  st[Y] = R[0];
  st[Y + 1] = R[1];
  // z = Rotate(z + w.first, 33) * m
  add(st[Z], st[Z + 1], st[W1], st[W1 + 1]);
  rotate(R[0], R[1], 33);
  mul(R[0], R[1], mh, ml);
  st[Z] = R[0];
  st[Z + 1] = R[1];
  // v = WeakHashLen32WithSeeds(s, v.second * m, x + w.first)
  mul(st[V2], st[V2 + 1], mh, ml);
  const sah = R[0];
  const sal = R[1];
  add(st[X], st[X + 1], st[W1], st[W1 + 1]);
  weakHashLen32WithSeeds(s, q, sah, sal, R[0], R[1], V1);
  // w = WeakHashLen32WithSeeds(s + 32, z + w.second, y + Fetch(s + 16))
  add(st[Z], st[Z + 1], st[W2], st[W2 + 1]);
  const s2h = R[0];
  const s2l = R[1];
  fetch64(s, q + 16);
  add(st[Y], st[Y + 1], R[0], R[1]);
  weakHashLen32WithSeeds(s, q + 32, s2h, s2l, R[0], R[1], W1);
  // swap(z, x)
  const zh = st[Z];
  const zl = st[Z + 1];
  st[Z] = st[X];
  st[Z + 1] = st[X + 1];
  st[X] = zh;
  st[X + 1] = zl;
}

function hashLong(s: Uint8Array, p: number, len: number): void {
  const st = state;
  // x = seed (81), y = seed * k1 + 113, z = ShiftMix(y * k2 + 113) * k2; v = w = 0; x = x * k2 + Fetch(s)
  mul(0, 81, K1H, K1L);
  add(R[0], R[1], 0, 113);
  st[Y] = R[0];
  st[Y + 1] = R[1];
  mul(R[0], R[1], K2H, K2L);
  add(R[0], R[1], 0, 113);
  shiftMix(R[0], R[1]);
  mul(R[0], R[1], K2H, K2L);
  st[Z] = R[0];
  st[Z + 1] = R[1];
  st.fill(0, V1);
  mul(0, 81, K2H, K2L);
  const xh = R[0];
  const xl = R[1];
  fetch64(s, p);
  add(xh, xl, R[0], R[1]);
  st[X] = R[0];
  st[X + 1] = R[1];
  // Whole 64-byte blocks while at least one byte is left after them; then the last 64 bytes once more.
  const end = p + Math.floor((len - 1) / 64) * 64;
  for (let q = p; q !== end; q += 64) longRound(s, q, K1H, K1L, false);
  const mulL = (K1L + ((st[Z + 1] & 0xff) << 1)) | 0; // k1 + ((z & 0xff) << 1): no carry past the low half
  const mulH = K1H;
  const rest = (len - 1) & 63;
  // w.first += rest; v.first += w.first; w.first += v.first
  add(st[W1], st[W1 + 1], 0, rest);
  st[W1] = R[0];
  st[W1 + 1] = R[1];
  add(st[V1], st[V1 + 1], st[W1], st[W1 + 1]);
  st[V1] = R[0];
  st[V1 + 1] = R[1];
  add(st[W1], st[W1 + 1], st[V1], st[V1 + 1]);
  st[W1] = R[0];
  st[W1 + 1] = R[1];
  longRound(s, p + len - 64, mulH, mulL, true);
  // HashLen16(HashLen16(v.first, w.first, mul) + ShiftMix(y) * k0 + z, HashLen16(v.second, w.second, mul) + x, mul)
  hashLen16(st[V1], st[V1 + 1], st[W1], st[W1 + 1], mulH, mulL);
  const ah = R[0];
  const al = R[1];
  shiftMix(st[Y], st[Y + 1]);
  mul(R[0], R[1], K0H, K0L);
  add(R[0], R[1], ah, al);
  add(R[0], R[1], st[Z], st[Z + 1]);
  const uh = R[0];
  const ul = R[1];
  hashLen16(st[V2], st[V2 + 1], st[W2], st[W2 + 1], mulH, mulL);
  add(R[0], R[1], st[X], st[X + 1]);
  hashLen16(uh, ul, R[0], R[1], mulH, mulL);
}

/**
 * FarmHash's Fingerprint64 of `length` bytes of `bytes` from `start` (TensorFlow's `Fingerprint64`), written to
 * `out[at]` (its high 32 bits) and `out[at + 1]` (its low 32 bits), each as an int32.
 */
export function fingerprint64Into(
  out: Int32Array,
  at: number,
  bytes: Uint8Array,
  start = 0,
  length = bytes.length - start,
): void {
  if (length <= 16) hashLen0to16(bytes, start, length);
  else if (length <= 32) hashLen17to32(bytes, start, length);
  else if (length <= 64) hashLen33to64(bytes, start, length);
  else hashLong(bytes, start, length);
  out[at] = R[0];
  out[at + 1] = R[1];
}

/**
 * TensorFlow's FingerprintCat64(a, b): the fingerprint of a sequence, from the fingerprint `a` of what came before
 * and the fingerprint `b` of the next item (not commutative), each given as the int32s of its high and low halves.
 * Written to `out[at]` (high) and `out[at + 1]` (low).
 */
export function fingerprintCat64Into(
  out: Int32Array,
  at: number,
  ah: number,
  al: number,
  bh: number,
  bl: number,
): void {
  // result = (a ^ kMul) ^ (ShiftMix(b * kMul) * kMul); result *= kMul; result = ShiftMix(ShiftMix(result) * kMul)
  mul(bh, bl, KMULH, KMULL);
  shiftMix(R[0], R[1]);
  mul(R[0], R[1], KMULH, KMULL);
  const rh = (ah ^ KMULH ^ R[0]) | 0;
  const rl = (al ^ KMULL ^ R[1]) | 0;
  mul(rh, rl, KMULH, KMULL);
  shiftMix(R[0], R[1]);
  mul(R[0], R[1], KMULH, KMULL);
  shiftMix(R[0], R[1]);
  out[at] = R[0];
  out[at + 1] = R[1];
}

const halves = new Int32Array(2);
const encoder = new TextEncoder();
const toBig = (h: number, l: number): bigint => (BigInt(h >>> 0) << 32n) | BigInt(l >>> 0);

/** Fingerprint64 of bytes, or of a string's UTF-8 bytes, as an unsigned 64-bit bigint. */
export function fingerprint64(data: Uint8Array | string): bigint {
  fingerprint64Into(halves, 0, typeof data === 'string' ? encoder.encode(data) : data);
  return toBig(halves[0], halves[1]);
}

/** FingerprintCat64(a, b) of two unsigned 64-bit bigints. */
export function fingerprintCat64(a: bigint, b: bigint): bigint {
  const lo = (x: bigint) => Number(BigInt.asIntN(32, x));
  const hi = (x: bigint) => Number(BigInt.asIntN(32, x >> 32n));
  fingerprintCat64Into(halves, 0, hi(a), lo(a), hi(b), lo(b));
  return toBig(halves[0], halves[1]);
}
