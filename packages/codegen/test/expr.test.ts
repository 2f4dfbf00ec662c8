import { describe, expect, it } from 'vitest';
import { parseExpr } from '../src/expr/parse.js';
import { checkExpr } from '../src/expr/check.js';
import { emitJs } from '../src/expr/emit-js.js';
import { keepsZero } from '../src/expr/zero-check.js';
import { variablesOf } from '../src/expr/variables.js';
import { ExprError } from '../src/expr/ast.js';
import * as h from '../src/expr/js-runtime.js';
import type { DTypeName } from '../src/spec-types.js';

function errorOf(f: () => unknown): ExprError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ExprError);
    return e as ExprError;
  }
  throw new Error('no error');
}

/** Runs an expression over a, b in one dtype, exactly as a generated kernel would. */
function run(src: string, dtype: DTypeName, a: number | bigint, b: number | bigint = 0): unknown {
  const e = parseExpr(src);
  checkExpr(e, dtype, ['a', 'b'], 'value');
  const f = new Function('h', 'a', 'b', `return ${emitJs(e, dtype, { a: 'a', b: 'b' })};`);
  return f(h, a, b);
}

describe('parse', () => {
  it('honours precedence and associativity', () => {
    expect(run('a - b - 1', 'float64', 10, 3)).toBe(6);
    expect(run('a + b * 2', 'float64', 1, 3)).toBe(7);
    expect(run('-a * b', 'float64', 2, 3)).toBe(-6);
    expect(run('where(a < b && b > 0, a, b)', 'float64', 1, 2)).toBe(1);
    expect(run('(a + b) / 2', 'float64', 1, 2)).toBe(1.5);
  });

  it('reports syntax errors, unknown functions and wrong arities at their position', () => {
    expect(errorOf(() => parseExpr('a + * b')).pos).toBe(4);
    expect(errorOf(() => parseExpr('a + b)')).message).toMatch(/unexpected '\)'/);
    const unknown = errorOf(() => parseExpr('1 + lgamma(a)'));
    expect(unknown.message).toMatch(/unknown function 'lgamma'/);
    expect(unknown.pos).toBe(4);
    expect(errorOf(() => parseExpr('max(a)')).message).toMatch(/max takes 2 argument\(s\), got 1/);
    expect(errorOf(() => parseExpr('a $ b')).message).toMatch(/unexpected character '\$'/);
  });
});

describe('variablesOf', () => {
  it('names every variable an expression reads, through operators and calls, and nothing else', () => {
    expect([...variablesOf(parseExpr('where(thresh <= abs(out), -a, max(b, 1)) + inf'))].sort()).toEqual([
      'a',
      'b',
      'out',
      'thresh',
    ]);
    expect([...variablesOf(parseExpr('2 * max_value'))]).toEqual([]);
  });
});

describe('check', () => {
  it('refuses unknown variables, naming those in scope', () => {
    const e = errorOf(() => checkExpr(parseExpr('a + c'), 'float32', ['a', 'b'], 'value'));
    expect(e.message).toMatch(/unknown variable 'c' \(variables here: a, b\)/);
    expect(e.pos).toBe(4);
  });

  it('knows what each dtype can do', () => {
    expect(errorOf(() => checkExpr(parseExpr('sqrt(a)'), 'int32', ['a'], 'value')).message).toMatch(
      /sqrt is defined for float32 and float64, not int32/,
    );
    expect(errorOf(() => checkExpr(parseExpr('a + 0.5'), 'int64', ['a'], 'value')).message).toMatch(
      /0.5 is not a whole number/,
    );
    expect(errorOf(() => checkExpr(parseExpr('a + 3000000000'), 'int32', ['a'], 'value')).message).toMatch(
      /does not fit in int32/,
    );
    expect(errorOf(() => checkExpr(parseExpr('max(a, -inf)'), 'int32', ['a'], 'value')).message).toMatch(
      /inf is not a int32 value/,
    );
    expect(errorOf(() => checkExpr(parseExpr('a < 1'), 'float32', ['a'], 'value')).message).toMatch(
      /expected a value, got a condition/,
    );
    expect(errorOf(() => checkExpr(parseExpr('where(a, a, 0)'), 'float32', ['a'], 'value')).message).toMatch(
      /condition of where needs a condition/,
    );
    expect(() => checkExpr(parseExpr('abs(a) >= 1'), 'int64', ['a'], 'bool')).not.toThrow();
  });
});

describe('emitted JS is exact per dtype', () => {
  it('float32 rounds every operation; float64 does not', () => {
    expect(run('a + b', 'float32', 16777216, 1)).toBe(16777216);
    expect(run('a + b', 'float64', 16777216, 1)).toBe(16777217);
    expect(run('a * 0.1', 'float32', 3)).toBe(Math.fround(3 * Math.fround(0.1)));
  });

  it('int32 wraps and divides toward zero, refusing zero', () => {
    expect(run('a + b', 'int32', 2147483647, 1)).toBe(-2147483648);
    expect(run('a * b', 'int32', 65536, 65536)).toBe(0);
    expect(run('a / b', 'int32', -7, 2)).toBe(-3);
    expect(run('-a', 'int32', -2147483648)).toBe(-2147483648);
    expect(run('abs(a)', 'int32', -2147483648)).toBe(-2147483648);
    expect(() => run('a / b', 'int32', 1, 0)).toThrow(/integer division by zero/);
    expect(run('pow(a, b)', 'int32', 3, 4)).toBe(81);
    expect(() => run('pow(a, b)', 'int32', 3, -1)).toThrow(/negative integer powers/);
    expect(run('max_value + 0 * a', 'int32', 0)).toBe(2147483647);
  });

  it('int64 is exact beyond 2^53 and wraps at 64 bits', () => {
    expect(run('a + b', 'int64', 2n ** 53n, 1n)).toBe(2n ** 53n + 1n);
    expect(run('a + 1', 'int64', 2n ** 63n - 1n)).toBe(-(2n ** 63n));
    expect(run('a / b', 'int64', -7n, 2n)).toBe(-3n);
    expect(run('max(a, b)', 'int64', -5n, 3n)).toBe(3n);
    expect(run('sign(a)', 'int64', -5n)).toBe(-1n);
    expect(run('pow(a, b)', 'int64', 3n, 39n)).toBe(3n ** 39n);
    expect(run('min_value + 0 * a', 'int64', 0n)).toBe(-(2n ** 63n));
  });

  it('the float functions are accurate near 0, in float32 as in float64', () => {
    const tiny = Math.fround(1e-6);
    // exp(x) - 1 would give 9.5367432e-7 in float32
    expect(run('expm1(a)', 'float32', tiny)).toBe(Math.fround(1.0000005e-6));
    expect(run('log1p(a)', 'float32', Math.fround(1e-7))).toBe(Math.fround(9.9999994e-8));
    expect(run('expm1(a)', 'float64', 1e-10)).toBe(1.00000000005e-10);
    for (const fn of ['sin', 'tan', 'tanh', 'asin', 'atan', 'sinh', 'asinh', 'atanh'])
      expect(run(`${fn}(a)`, 'float32', tiny), fn).toBe(tiny);
    expect(run('atanh(a)', 'float32', 1)).toBe(Infinity);
    expect(run('asin(a)', 'float64', 2)).toBeNaN();
  });

  it("round and rint round half to even, as C's rint does; round leaves integers as they are", () => {
    const halves = [0.5, -0.5, 1.5, 2.5, -2.5, Math.fround(0.49999997), 4194304.5, 0.49999999999999994];
    for (const fn of ['rint', 'round'])
      for (const dtype of ['float32', 'float64'] as const)
        expect(halves.map((x) => run(`${fn}(a)`, dtype, x))).toEqual([0, -0, 2, 2, -2, 0, 4194304, 0]);
    expect(run('round(a)', 'int32', -2147483648)).toBe(-2147483648);
    expect(run('round(a)', 'int64', 2n ** 63n - 1n)).toBe(2n ** 63n - 1n);
    expect(run('floor(a) + ceil(b)', 'float32', -0.5, 0.5)).toBe(0);
    for (const fn of ['rint', 'floor', 'ceil', 'expm1', 'sin'])
      expect(errorOf(() => checkExpr(parseExpr(`${fn}(a)`), 'int32', ['a'], 'value')).message).toMatch(
        new RegExp(`${fn} is defined for float32 and float64, not int32`),
      );
  });

  it('NaN propagates through min and max; sign keeps NaN and folds -0 to 0', () => {
    expect(run('max(a, b)', 'float64', NaN, 1)).toBeNaN();
    expect(run('min(a, b)', 'float32', 1, NaN)).toBeNaN();
    expect(Object.is(run('sign(a)', 'float64', -0), 0)).toBe(true);
    expect(run('sign(a)', 'float64', NaN)).toBeNaN();
  });
});

describe('keepsZero: a map must keep implicit zeros absent', () => {
  it.each([
    ['abs(x)', true],
    ['x * x', true],
    ['-x', true],
    ['sqrt(x)', true],
    ['x + 1', false],
    ['exp(x)', false],
    ['log(x)', false],
    ...[
      'expm1',
      'log1p',
      'sin',
      'tan',
      'tanh',
      'asin',
      'atan',
      'sinh',
      'asinh',
      'atanh',
      'floor',
      'ceil',
      'rint',
      'round',
    ].map((fn) => [`${fn}(x)`, true] as [string, boolean]),
    ['expm1(x) + 1', false],
  ])('%s → %s', (src, keeps) => {
    expect(keepsZero(parseExpr(src), 'float64')).toBe(keeps);
  });

  it('checks each dtype on its own arithmetic', () => {
    expect(keepsZero(parseExpr('x / 2'), 'int32')).toBe(true);
    expect(keepsZero(parseExpr('2 / x'), 'int32')).toBe(false);
    expect(keepsZero(parseExpr('x - min_value'), 'int64')).toBe(false);
  });
});
