import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExpr } from '../src/expr/parse.js';
import { chain, derive, exprText, variable } from '../src/expr/derive.js';
import { emitJs } from '../src/expr/emit-js.js';
import * as h from '../src/expr/js-runtime.js';
import { loadSpecs } from '../src/index.js';
import { specProblems } from './spec-problems.js';

const d = (src: string, wrt: string) => exprText(derive(parseExpr(src), wrt));
const vjp = (src: string, wrt: string) => exprText(chain(variable('grad'), derive(parseExpr(src), wrt)));

/** A vector-Jacobian product as the generated JS kernel computes it, in float64. */
function vjpAt(src: string, wrt: string, vars: Record<string, number>): number {
  const e = chain(variable('grad'), derive(parseExpr(src), wrt));
  const names = Object.keys(vars);
  const code = emitJs(e, 'float64', Object.fromEntries(names.map((n) => [n, n])));
  return new Function('h', ...names, `return ${code};`)(h, ...names.map((n) => vars[n])) as number;
}

describe('symbolic differentiation of the expression IR', () => {
  it('folds structural zeros and ones away', () => {
    expect(d('a + b', 'a')).toBe('1');
    expect(d('a * b', 'a')).toBe('b');
    expect(d('x * x', 'x')).toBe('x + x');
    expect(d('-x', 'x')).toBe('-1');
    expect(d('sign(x)', 'x')).toBe('0');
    expect(d('a', 'b')).toBe('0');
    expect(vjp('a + b', 'b')).toBe('grad');
  });

  it("follows TensorFlow's rules: ties of min and max to the first operand, abs by sign, pow's exponent where the base is positive", () => {
    expect(vjp('max(a, b)', 'a')).toBe('where(a >= b, grad, 0)');
    expect(vjp('max(a, b)', 'b')).toBe('where(a >= b, 0, grad)');
    expect(vjp('min(acc, x)', 'x')).toBe('where(acc <= x, 0, grad)');
    expect(d('abs(x)', 'x')).toBe('sign(x)');
    expect(d('pow(a, b)', 'b')).toBe('where(a > 0, pow(a, b) * log(a), 0)');
    expect(d('sqrt(x)', 'x')).toBe('0.5 / sqrt(x)');
    expect(d('exp(x)', 'x')).toBe('exp(x)');
    expect(d('log(x)', 'x')).toBe('1 / x');
  });

  it('never multiplies an infinite grad by a zero branch', () => {
    expect(vjpAt('max(a, b)', 'b', { grad: Infinity, a: 2, b: 1 })).toBe(0);
    expect(vjpAt('where(a > 0, a * b, b)', 'a', { grad: Infinity, a: -1, b: 3 })).toBe(0);
  });

  it('gives the derivative of each rule at a point (against a central difference)', () => {
    const cases: [string, string, Record<string, number>][] = [
      ['a / b', 'b', { a: 3, b: -2 }],
      ['a / b', 'a', { a: 3, b: -2 }],
      ['pow(a, b)', 'a', { a: 1.5, b: 2.5 }],
      ['pow(a, b)', 'b', { a: 1.5, b: 2.5 }],
      ['where(a < b, a * a, exp(a) - b)', 'a', { a: 2, b: 1 }],
      ['sqrt(x) * abs(x - 3)', 'x', { x: 2 }],
    ];
    for (const [src, wrt, at] of cases) {
      const f = (v: number) => {
        const names = Object.keys(at);
        const code = emitJs(parseExpr(src), 'float64', Object.fromEntries(names.map((n) => [n, n])));
        const vals = names.map((n) => (n === wrt ? v : at[n]));
        return new Function('h', ...names, `return ${code};`)(h, ...vals) as number;
      };
      const step = 1e-6;
      const numeric = (f(at[wrt] + step) - f(at[wrt] - step)) / (2 * step);
      expect(vjpAt(src, wrt, { ...at, grad: 1 })).toBeCloseTo(numeric, 6);
    }
  });
});

describe('gradients in the specs', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const SPECS = join(import.meta.dirname, '../../../specs');
  /** A copy of the specs with one file edited. */
  function edited(file: string, edit: (yaml: string) => string): string {
    const dir = mkdtempSync(join(tmpdir(), 'specs-'));
    dirs.push(dir);
    cpSync(SPECS, dir, { recursive: true });
    writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
    return dir;
  }

  it('derives <op>_grad for every expression-family op with a float dtype, right after it', () => {
    const specs = loadSpecs(SPECS, SPECS);
    const names = specs.map((s) => s.name);
    const square = specs.find((s) => s.name === 'sparse_square_grad')!;
    expect(names.indexOf('sparse_square_grad')).toBe(names.indexOf('sparse_square') + 1);
    expect(square.kernel.family).toBe('gradient');
    expect(square.dtypes.T).toEqual(['float32', 'float64']);
    expect(square.outputs.map((o) => o.name)).toEqual(['sp_input_grad']);
    expect(specs.find((s) => s.name === 'sparse_square')!.gradientOf).toEqual({
      op: 'sparse_square_grad',
      args: { sp_input: { arg: 'sp_input' }, grad: { upstream: true } },
      outputs: { sp_input: 'sp_input_grad' },
    });
  });

  it('refuses a family op without gradient examples', () => {
    const dir = edited('sparse_square.yaml', (y) => y.replace(/\ngradient:\n( {2}.*\n|\n)*?(?=examples:)/, '\n'));
    expect(specProblems(() => loadSpecs(dir, dir))).toMatch(
      /sparse_square\.yaml:\d+: gradient: the gradient of sparse_square is derived from its expressions: give it gradient\.examples/,
    );
  });

  it('refuses a gradient op that does not exist, an unbound argument and an unknown output', () => {
    const dir = edited('sparse_softmax.yaml', (y) =>
      y.replace('args: { sp_output: output }', 'args: {}').replace('sp_input: sp_input_grad', 'sp_input: nope'),
    );
    const msg = specProblems(() => loadSpecs(dir, dir));
    expect(msg).toMatch(/the argument 'sp_output' of sparse_softmax_grad is bound to nothing/);
    expect(msg).toMatch(/gradient\.outputs\.sp_input: sparse_softmax_grad has no output 'nope'/);
    const missing = edited('sparse_softmax.yaml', (y) =>
      y.replace('op: sparse_softmax_grad', 'op: sparse_nothing_grad'),
    );
    expect(specProblems(() => loadSpecs(missing, missing))).toMatch(
      /gradient\.op: no spec is named sparse_nothing_grad/,
    );
  });
});
