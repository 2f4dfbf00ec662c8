import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExpr } from '../src/expr/parse.js';
import { checkExpr } from '../src/expr/check.js';
import { emitJs } from '../src/expr/emit-js.js';
import { emitMagnitude } from '../src/expr/emit-magnitude.js';
import * as M from '../src/expr/magnitude-runtime.js';
import * as h from '../src/expr/js-runtime.js';

const VARS = { a: 'a', b: 'b' };

/** The magnitudes of a float32 expression over a, b, as the generated GPU bound computes them. */
function bound(src: string, a: M.Maybe, b: M.Maybe): M.Maybe {
  const e = parseExpr(src);
  checkExpr(e, 'float32', ['a', 'b'], 'value');
  return new Function('M', 'a', 'b', `return ${emitMagnitude(e, VARS)};`)(M, a, b);
}

describe('float32 magnitudes (emit-magnitude.ts): when no step can take a subnormal value', () => {
  it('lets a product reach 2^-126 and no lower, a cancelling sum of values down to 2^-103 and no lower', () => {
    expect(bound('a * b', M.span(2 ** -63, 1), M.span(2 ** -63, 4))).toBeDefined();
    expect(bound('a * b', M.span(2 ** -63, 1), M.span(2 ** -64, 4))).toBeUndefined();
    expect(bound('a * a', M.span(2 ** -64, 1), M.lit(0))).toBeUndefined();
    expect(bound('a + b', M.span(2 ** -103, 1), M.span(1, 1))).toBeDefined();
    expect(bound('a - b', M.span(2 ** -104, 1), M.span(1, 1))).toBeUndefined();
    // a sum of a step that could be subnormal: every step counts, not only the result
    expect(bound('a * a + 1', M.span(2 ** -64, 1), M.lit(0))).toBeUndefined();
    // selections and signs compute nothing new
    expect(bound('max(a, b) + sign(a) - abs(b)', M.span(2 ** -103, 8), M.span(1, 2))).toBeDefined();
    expect(bound('a + b', M.lit(0), M.span(2 ** -120, 1))).toEqual(M.span(2 ** -120, 1));
  });

  it('keeps the reciprocal of a division normal, and gives the steps a GPU approximates a margin', () => {
    expect(bound('a / b', M.span(1, 1), M.span(1, 2 ** 125))).toBeDefined();
    // 1 / 2^126 is still normal, but a GPU may form it as a reciprocal within a few ulps of 2^-126
    expect(bound('a / b', M.span(1, 1), M.span(1, 2 ** 126))).toBeUndefined();
    expect(bound('a / b', M.span(2 ** -100, 1), M.span(1, 2 ** 30))).toBeUndefined();
    expect(bound('exp(a)', M.span(1, 80), M.lit(0))).toBeDefined();
    expect(bound('exp(a)', M.span(1, 88), M.lit(0))).toBeUndefined();
    expect(bound('pow(a, b)', M.span(0.5, 2), M.span(1, 100))).toBeDefined();
    expect(bound('pow(a, b)', M.span(0.5, 2), M.span(1, 126))).toBeUndefined();
    expect(bound('sqrt(a)', M.span(2 ** -126, 1), M.lit(0))).toBeDefined();
    expect(bound('log(a)', M.span(0.5, 2), M.lit(0))).toBeDefined();
    // a literal or scalar float32 holds as a subnormal
    expect(bound('a * 1e-39', M.span(1, 1), M.lit(0))).toBeUndefined();
  });

  it('bounds the functions the GPU computes with helpers, and marks where a helper gives its sentinel', () => {
    const FLOAT32_MAX = 3.4028234663852886e38;
    // near 0 these functions are about x itself: normal down to twice the smallest normal (the factor-2 margin)
    for (const fn of ['expm1', 'log1p', 'sin', 'tan', 'tanh', 'asin', 'atan', 'sinh', 'asinh', 'atanh']) {
      expect(bound(`${fn}(a)`, M.span(2 ** -124, 0.25), M.lit(0)), fn).toBeDefined();
      expect(bound(`${fn}(a)`, M.span(2 ** -126, 0.25), M.lit(0)), fn).toBeUndefined();
      expect(bound(`${fn}(a)`, M.span(2 ** -124, 0.25), M.lit(0))!.hi, fn).toBeLessThan(1);
    }
    // past the helpers' ranges, the largest float32 (rerun on the JS kernels)
    expect(bound('sin(a)', M.span(1, M.TRIG_RANGE), M.lit(0))!.hi).toBeLessThanOrEqual(2);
    expect(bound('sin(a)', M.span(1, 2 * M.TRIG_RANGE), M.lit(0))!.hi).toBe(FLOAT32_MAX);
    expect(bound('tan(a)', M.span(1, 2), M.lit(0))!.hi).toBe(FLOAT32_MAX);
    expect(bound('expm1(a)', M.span(1, 89), M.lit(0))!.hi).toBe(FLOAT32_MAX);
    expect(bound('log1p(a)', M.span(0.5, 1), M.lit(0))!.hi).toBe(FLOAT32_MAX);
    expect(bound('asin(a)', M.span(0.5, 2), M.lit(0))!.hi).toBe(FLOAT32_MAX);
    // sin near a multiple of π stays normal
    expect(bound('sin(a)', M.span(1, 2 ** 100), M.lit(0))!.lo).toBeGreaterThanOrEqual(2 ** -31);
    // the roundings give 0 or a whole number
    expect(bound('floor(a)', M.span(2 ** -100, 3.5), M.lit(0))).toEqual({ lo: 1, hi: 4.5, grid: 1 });
    expect(bound('rint(a) * 1e-37', M.span(0.25, 3), M.lit(0))).toBeDefined();
    expect(bound('rint(a) * 1e-38', M.span(0.25, 3), M.lit(0))).toBeUndefined();
  });

  it('property: where magnitudes are given, float32 step by step (as the JS kernels compute) gives no subnormal', () => {
    const exprs = [
      'a + b',
      'a - b',
      'a * b',
      'a / b',
      'a * b + a',
      'abs(a) - b * b',
      'sqrt(abs(a)) * b',
      'exp(a) * b',
      'log(abs(a)) + b',
      'pow(abs(a), b)',
      'max(a, b) * b',
      'where(a < b, a * a, b / a)',
      'a * a * a',
      'sign(a) * b - a',
      'expm1(a) * b',
      'log1p(a) + b',
      'sin(a) * b',
      'tan(a) - b',
      'tanh(a) * b',
      'asin(a) + b',
      'atan(a) * b',
      'sinh(a) * b',
      'asinh(a) - b',
      'atanh(a) + b',
      'floor(a) * b',
      'ceil(a) - b',
      'rint(a) + b',
      'round(a) * b',
    ];
    const compiled = exprs.map((src) => {
      const e = parseExpr(src);
      const f = new Function('h', 'a', 'b', `return ${emitJs(e, 'float32', VARS)};`) as (
        h: unknown,
        a: number,
        b: number,
      ) => number;
      return { src, f };
    });
    // A magnitude: a float32 from 2^-130 to 2^130, or one of the edges of the rules.
    const magnitude = fc.oneof(
      fc.double({ min: 2 ** -130, max: 2 ** 130, noNaN: true }).map(Math.fround),
      fc.constantFrom(2 ** -126, 2 ** -103, 2 ** -63, 2 ** -64, 1, 2 ** 63, 2 ** 125, 2 ** 126),
    );
    const span = fc.tuple(magnitude, magnitude).map(([x, y]) => [Math.min(x, y), Math.max(x, y)] as const);
    /** A float32 value within the span, of either sign, or 0. */
    const point = ([lo, hi]: readonly [number, number]) =>
      fc.oneof(
        fc.constant(0),
        fc
          .tuple(
            fc.oneof(
              fc.constantFrom(lo, hi),
              fc.double({ min: lo, max: hi, noNaN: true }).map((v) => Math.min(hi, Math.max(lo, Math.fround(v)))),
            ),
            fc.boolean(),
          )
          .map(([v, negative]) => (negative ? -v : v)),
      );
    const sample = fc
      .tuple(fc.constantFrom(...compiled), span, span)
      .chain(([f, sa, sb]) => fc.tuple(fc.constant(f), fc.constant(sa), fc.constant(sb), point(sa), point(sb)));
    let bounded = 0;
    fc.assert(
      fc.property(sample, ([f, sa, sb, a, b]) => {
        const m = bound(f.src, M.span(...sa), M.span(...sb));
        if (!m) return;
        bounded++;
        const r = f.f(h, a, b);
        // inf and nan (a division by zero, log(0), a negative base) are screened in the GPU's results
        if (!Number.isFinite(r) || r === 0) return;
        const at = `${f.src} at a=${a}, b=${b}: ${r}`;
        expect(Math.abs(r), at).toBeGreaterThanOrEqual(M.MIN_NORMAL);
        expect(Math.abs(r), at).toBeGreaterThanOrEqual(m.lo);
        expect(Math.abs(r), at).toBeLessThanOrEqual(m.hi);
        expect(Number.isInteger(r / m.grid), at).toBe(true);
      }),
      { numRuns: 5000 },
    );
    expect(bounded).toBeGreaterThan(1000);
  });
});
