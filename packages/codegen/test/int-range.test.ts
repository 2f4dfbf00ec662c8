import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExpr } from '../src/expr/parse.js';
import { checkExpr } from '../src/expr/check.js';
import { emitJs } from '../src/expr/emit-js.js';
import { emitIntRange, int32Blocker } from '../src/expr/emit-int-range.js';
import * as R from '../src/expr/int-range-runtime.js';
import * as h from '../src/expr/js-runtime.js';

const VARS = { a: 'a', b: 'b' };
const E = 2 ** 24;

/** The range of an int32 expression over a, b, as the generated GPU bound computes it. */
function range(src: string, a: R.Maybe, b: R.Maybe = R.lit(0)): R.Maybe {
  const e = parseExpr(src);
  checkExpr(e, 'int32', ['a', 'b'], 'value');
  return new Function('R', 'a', 'b', `return ${emitIntRange(e, VARS)};`)(R, a, b);
}
const iv = (lo: number, hi: number): R.Range => ({ lo, hi, int: true });

describe('int32 ranges (emit-int-range.ts): when float32 computes an int32 expression exactly', () => {
  it('names what is not float arithmetic in int32', () => {
    expect(int32Blocker(parseExpr('a / b'))).toMatch(/^division/);
    expect(int32Blocker(parseExpr('max(a, 1 + pow(a, b))'))).toMatch(/^pow/);
    expect(int32Blocker(parseExpr('where(a < b, -sqrt(a), b)'))).toMatch(/^sqrt/);
    expect(int32Blocker(parseExpr('a + floor(b)'))).toMatch(/^floor \(not an integer\)/);
    expect(range('round(a) * 2', iv(-7, 9))).toEqual(iv(-14, 18));
    for (const ok of ['a + b', 'max(acc, x)', 'thresh <= abs(out)', 'where(a < 0, -a, sign(b) * b)', 'min_value'])
      expect(int32Blocker(parseExpr(ok)), ok).toBeUndefined();
    expect(() => emitIntRange(parseExpr('a / b'), VARS)).toThrow(/no float32 range/);
  });

  it('bounds every arithmetic step by 2^24, and lets min, max and comparisons take the dtype limits', () => {
    expect(range('a * b', iv(-4096, 4096), iv(-4096, 4096))).toEqual(iv(-E, E));
    expect(range('a * b', iv(-4096, 4097), iv(0, 4096))).toBeUndefined();
    // every step, not only the result: (a + b) - b passes 2^24 on the way
    expect(range('(a + b) - b', iv(0, E), iv(1, 1))).toBeUndefined();
    expect(range('-a', iv(-E - 1, 0))).toBeUndefined();
    expect(range('abs(a)', iv(-5, 3))).toEqual(iv(0, 5));
    expect(range('max(a, min_value)', iv(-7, 9))).toEqual(iv(-7, 9));
    expect(range('min(max_value, a) + 1', iv(-7, 9))).toEqual(iv(-6, 10));
    expect(range('a + max_value', iv(0, 0))).toBeUndefined();
    expect(range('sign(max_value)', iv(0, 0))).toEqual(iv(1, 1));
    expect(range('where(a < max_value, a, b)', iv(1, 2), iv(-3, -3))).toEqual(iv(-3, 2));
    // a literal float32 cannot hold is not what the GPU compares with
    expect(range('where(a < 16777217, a, 0)', iv(0, 1))).toBeUndefined();
    expect(range('a', R.lit(0.1))).toBeUndefined();
  });

  it('property: where a range is given, float32 step by step equals int32 and stays in the range', () => {
    const exprs = [
      'a + b',
      'a - b',
      'a * b',
      '-a',
      'abs(a - b)',
      'sign(a) * b',
      'max(a, b) - min(a, 0)',
      'where(a < b && !(b == 3), a * a, b)',
      'max(min_value, a) * b',
      'a * b * a',
    ];
    const compiled = exprs.map((src) => {
      const e = parseExpr(src);
      const js = (dtype: 'int32' | 'float32') =>
        new Function('h', 'a', 'b', `return ${emitJs(e, dtype, VARS)};`) as (
          h: unknown,
          a: number,
          b: number,
        ) => number;
      return { src, int32: js('int32'), float32: js('float32') };
    });
    const bound = fc.oneof(fc.integer({ min: -100, max: 100 }), fc.integer({ min: -(2 ** 26), max: 2 ** 26 }));
    const interval = fc.tuple(bound, bound).map(([x, y]) => iv(Math.min(x, y), Math.max(x, y)));
    const point = (r: R.Range) => fc.integer({ min: r.lo, max: r.hi });
    const sample = fc
      .tuple(fc.constantFrom(...compiled), interval, interval)
      .chain(([f, ra, rb]) => fc.tuple(fc.constant(f), fc.constant(ra), fc.constant(rb), point(ra), point(rb)));
    let exact = 0;
    fc.assert(
      fc.property(sample, ([f, ra, rb, a, b]) => {
        const r = range(f.src, ra, rb);
        if (!R.exact(r)) return;
        exact++;
        // float32 (Math.fround at every step, as the GPU rounds) against int32 (wrapping, as the JS kernels do);
        // + 0 turns float32's -0 into the 0 an Int32Array stores
        const want = f.int32(h, a, b);
        expect(f.float32(h, Math.fround(a), Math.fround(b)) + 0, `${f.src} at a=${a}, b=${b}`).toBe(want);
        expect(want).toBeGreaterThanOrEqual(r.lo);
        expect(want).toBeLessThanOrEqual(r.hi);
      }),
      { numRuns: 2000 },
    );
    expect(exact).toBeGreaterThan(200);
  });
});
