// exp as V8 computes Math.exp (fdlibm's e_exp.c, as in V8's base/ieee754.cc, exp(1) special case included), so
// that the wasm softmax gives the JS kernel's values to the bit. AssemblyScript's own Math.exp (ARM's table
// method) differs from it by one ulp on a few percent of inputs.

const LN2_HI: f64 = reinterpret<f64>(0x3fe62e42fee00000); //  6.93147180369123816490e-01
const LN2_LO: f64 = reinterpret<f64>(0x3dea39ef35793c76); //  1.90821492927058770002e-10
const INV_LN2: f64 = reinterpret<f64>(0x3ff71547652b82fe); // 1.44269504088896338700e+00
const P1: f64 = reinterpret<f64>(0x3fc555555555553e); //  1.66666666666666019037e-01
const P2: f64 = reinterpret<f64>(0xbf66c16c16bebd93); // -2.77777777770155933842e-03
const P3: f64 = reinterpret<f64>(0x3f11566aaf25de2c); //  6.61375632143793436117e-05
const P4: f64 = reinterpret<f64>(0xbebbbd41c5d26bf1); // -1.65339022054652515390e-06
const P5: f64 = reinterpret<f64>(0x3e66376972bea4d0); //  4.13813679705723846039e-08
const O_THRESHOLD: f64 = reinterpret<f64>(0x40862e42fefa39ef); //  7.09782712893383973096e+02
const U_THRESHOLD: f64 = reinterpret<f64>(0xc0874910d52d3051); // -7.45133219101941108420e+02
const E: f64 = reinterpret<f64>(0x4005bf0a8b145769); // 2.718281828459045
const TWO_M1000: f64 = reinterpret<f64>(0x0170000000000000); // 2^-1000
const TWO_1023: f64 = reinterpret<f64>(0x7fe0000000000000); // 2^1023

export function fdlibmExp(x: f64): f64 {
  const bits = reinterpret<u64>(x);
  let hx = <u32>(bits >> 32);
  const xsb = <i32>(hx >> 31);
  hx &= 0x7fffffff;
  // Non-finite, overflow, underflow.
  if (hx >= 0x40862e42) {
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | (<u32>bits)) != 0) return x + x;
      return xsb == 0 ? x : 0.0;
    }
    if (x > O_THRESHOLD) return Infinity;
    if (x < U_THRESHOLD) return 0.0;
  }
  let hi: f64 = 0;
  let lo: f64 = 0;
  let k: i32 = 0;
  // Argument reduction: x = k ln2 + r, |r| <= 0.5 ln2.
  if (hx > 0x3fd62e42) {
    if (hx < 0x3ff0a2b2) {
      if (x == 1.0) return E;
      hi = xsb == 0 ? x - LN2_HI : x + LN2_HI;
      lo = xsb == 0 ? LN2_LO : -LN2_LO;
      k = 1 - xsb - xsb;
    } else {
      k = <i32>(INV_LN2 * x + (xsb == 0 ? 0.5 : -0.5));
      const t = <f64>k;
      hi = x - t * LN2_HI;
      lo = t * LN2_LO;
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) {
    return 1.0 + x;
  }
  const t = x * x;
  const twopk = reinterpret<f64>((<u64>(<u32>(0x3ff00000 + ((k >= -1021 ? k : k + 1000) << 20)))) << 32);
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k == 0) return 1.0 - ((x * c) / (c - 2.0) - x);
  const y = 1.0 - (lo - (x * c) / (2.0 - c) - hi);
  if (k >= -1021) {
    if (k == 1024) return y * 2.0 * TWO_1023;
    return y * twopk;
  }
  return y * twopk * TWO_M1000;
}

// Both f64 lanes at once, the same IEEE operations in the same order as the scalar code (so the same bits), every
// branch of it computed and the right one selected per lane: |x| >= 1.5 ln2 (k from x), 0.5 ln2 < |x| < 1.5 ln2
// (k = ±1), 2^-28 <= |x| <= 0.5 ln2 (k = 0: the other final formula; a / (c - 2) is exactly -(a / (2 - c))),
// |x| < 2^-28 (1 + x). A lane beyond 700 in size, NaN or exactly 1 sends the pair through the scalar function.
const GENERAL_MIN: f64 = reinterpret<f64>(0x3ff0a2b200000000); // high word >= 0x3ff0a2b2
const REDUCE_MIN: f64 = reinterpret<f64>(0x3fd62e4300000000); // high word > 0x3fd62e42
const TINY_MAX: f64 = reinterpret<f64>(0x3e30000000000000); // high word < 0x3e300000
const VECTOR_MAX: f64 = 700.0; // 2^k stays a normal number: |k| <= 1010

/** fdlibmExp of both f64 lanes of x. */
@inline export function fdlibmExp2(x: v128): v128 {
  const ax = f64x2.abs(x);
  const one = f64x2.splat(1.0);
  if (!i64x2.all_true(v128.andnot(f64x2.le(ax, f64x2.splat(VECTOR_MAX)), f64x2.eq(x, one)))) {
    return f64x2.replace_lane(f64x2.splat(fdlibmExp(f64x2.extract_lane(x, 0))), 1, fdlibmExp(f64x2.extract_lane(x, 1)));
  }
  const sign = v128.and(x, i64x2.splat(0x8000000000000000));
  const general = f64x2.ge(ax, f64x2.splat(GENERAL_MIN));
  const reduce = f64x2.ge(ax, f64x2.splat(REDUCE_MIN));
  // k as a float: trunc(x / ln2 ± 0.5), ±1, or 0.
  const kFromX = f64x2.trunc(f64x2.add(f64x2.mul(f64x2.splat(INV_LN2), x), v128.or(f64x2.splat(0.5), sign)));
  const t = v128.bitselect(kFromX, v128.and(reduce, v128.or(one, sign)), general);
  const hi = f64x2.sub(x, f64x2.mul(t, f64x2.splat(LN2_HI)));
  const lo = f64x2.mul(t, f64x2.splat(LN2_LO));
  // Not reduced: x itself (x - 0 - 0 is x).
  const r = v128.bitselect(f64x2.sub(hi, lo), x, reduce);
  const rr = f64x2.mul(r, r);
  let p = f64x2.add(f64x2.splat(P4), f64x2.mul(rr, f64x2.splat(P5)));
  p = f64x2.add(f64x2.splat(P3), f64x2.mul(rr, p));
  p = f64x2.add(f64x2.splat(P2), f64x2.mul(rr, p));
  p = f64x2.add(f64x2.splat(P1), f64x2.mul(rr, p));
  const c = f64x2.sub(r, f64x2.mul(rr, p));
  const q = f64x2.div(f64x2.mul(r, c), f64x2.sub(f64x2.splat(2.0), c));
  // k != 0: (1 - ((lo - q) - hi)) × 2^k, 2^k = (k + 1023) << 52.
  const k = i64x2.extend_low_i32x4_s(i32x4.trunc_sat_f64x2_s_zero(t));
  const twopk = i64x2.shl(i64x2.add(k, i64x2.splat(1023)), 52);
  const big = f64x2.mul(f64x2.sub(one, f64x2.sub(f64x2.sub(lo, q), hi)), twopk);
  // k == 0: 1 - ((x c) / (c - 2) - x); tiny: 1 + x.
  const small = f64x2.sub(one, f64x2.sub(f64x2.neg(q), r));
  const tiny = f64x2.add(one, x);
  return v128.bitselect(big, v128.bitselect(small, tiny, f64x2.ge(ax, f64x2.splat(TINY_MAX))), reduce);
}

/** For the tests: fdlibmExp over n f64 at src into out, two at a time as the softmax takes them. */
export function exp_f64(src: usize, n: i32, out: usize): void {
  let i = 0;
  for (; i + 2 <= n; i += 2) v128.store(out + ((<usize>i) << 3), fdlibmExp2(v128.load(src + ((<usize>i) << 3))));
  for (; i < n; i++) store<f64>(out + ((<usize>i) << 3), fdlibmExp(load<f64>(src + ((<usize>i) << 3))));
}
