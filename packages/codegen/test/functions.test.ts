import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionName } from '../src/expr/functions.js';
import { gpuHelpers } from '../src/expr/gpu-math.js';
import { parseExpr } from '../src/expr/parse.js';

// The helpers' accuracy is tested on the GPU itself (conformance/test/value-map-accuracy.test.ts); here, that an op's
// kernels get exactly the helpers its expressions call.

const nameOf = (source: string) => /^function (\w+)\(/.exec(source)![1];

describe('gpuHelpers: the helper functions a GPU kernel needs', () => {
  it('every function that calls a helper on the GPU has it, and its GPU code calls it', () => {
    for (const [fn, def] of Object.entries(FUNCTIONS)) {
      if (!def.gpuHelper) continue;
      const sources = gpuHelpers([parseExpr(`${fn}(x)`)]);
      expect(sources.map(nameOf), fn).toContain(def.gpuHelper);
      expect(def.gpu(['x']), fn).toContain(`${def.gpuHelper}(`);
    }
  });

  it('lists each once, a helper after the helpers it calls, and none for Math.* functions', () => {
    const names = gpuHelpers([parseExpr('tanh(x) + sinh(x) * tanh(x)'), parseExpr('asin(a)')]).map(nameOf);
    expect(names).toEqual(['spExpm1', 'spTanh', 'spSinh', 'spAtan', 'spAsin']);
    expect(gpuHelpers([parseExpr('sqrt(abs(x)) + floor(x) * exp(x)')])).toEqual([]);
  });

  it('every helper calls only helpers it lists or GLSL functions gpu.js knows', () => {
    const all = gpuHelpers(
      Object.keys(FUNCTIONS).map((fn) =>
        parseExpr(
          `${fn}(${'x, '.repeat(FUNCTIONS[fn as FunctionName].arity - 1)}x)`.replace('where(x, ', 'where(x < 0, '),
        ),
      ),
    );
    const defined = new Set(all.map(nameOf));
    for (const source of all) {
      const called = [...source.matchAll(/\b(sp\w+)\(/g)].map((m) => m[1]);
      for (const c of called) expect(defined, `${nameOf(source)} calls ${c}`).toContain(c);
      const before = all.slice(0, all.indexOf(source)).map(nameOf);
      for (const c of called.filter((c) => c !== nameOf(source)))
        expect(before, `${nameOf(source)} after ${c}`).toContain(c);
    }
  });
});

describe('the spec format reference', () => {
  it('names every function of the expression language', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../../specs/README.md'), 'utf8');
    const row = readme.split('\n').find((l) => l.startsWith('| functions'))!;
    const named = new Set([...row.matchAll(/`(\w+)[(`]/g)].map((m) => m[1]));
    expect(Object.keys(FUNCTIONS).filter((fn) => fn !== 'where' && !named.has(fn))).toEqual([]);
  });
});
