import fc from 'fast-check';
import type { LoadedSpec } from '@sparse/codegen';
import { arithmeticOf, type Num } from './dtype-arithmetic.js';
import type { NumericDType } from './grid.js';
import { scalarArb } from './expression-arbitraries.js';
import { scalarCase } from './expression-values.js';
import type { CompiledKernel } from './expr-interpreter.js';

/** The scalar arguments of a case, and the value each has in the expressions (a variable of the same name). */
export interface Scalars {
  args: Record<string, unknown>;
  vars: Record<string, Num>;
}

/**
 * Random values for the scalar arguments the kernel's expressions read (sparse_add's `thresh`), of the op's value
 * dtype; an argument with a default is sometimes left out, and then has its default.
 */
export function scalarsArb(spec: LoadedSpec, kernel: CompiledKernel, dtype: NumericDType): fc.Arbitrary<Scalars> {
  const each = kernel.roles.scalars.map((name) => {
    const given = scalarArb(dtype).map((v) => ({ arg: scalarCase(v, dtype) as unknown, value: v }));
    const fallback = defaultOf(spec, name, dtype);
    if (fallback === undefined) return given.map((g) => ({ name, ...g }));
    return fc.oneof(given, fc.constant({ arg: undefined, value: fallback })).map((g) => ({ name, ...g }));
  });
  return fc.tuple(...each).map((picked) => ({
    args: Object.fromEntries(picked.filter((p) => p.arg !== undefined).map((p) => [p.name, p.arg])),
    vars: Object.fromEntries(picked.map((p) => [p.name, p.value])),
  }));
}

/** A scalar argument's default as a value of the dtype (`zero`: the dtype's zero), or undefined if it is required. */
function defaultOf(spec: LoadedSpec, name: string, dtype: NumericDType): Num | undefined {
  const d = spec.args.find((a) => a.name === name)?.default;
  const arith = arithmeticOf(dtype);
  if (d === 'zero') return arith.zero;
  return typeof d === 'number' ? arith.literal(String(d)) : undefined;
}
