import type { LoadedSpec } from '@sparse/codegen';
import type { NumericDType } from './grid.js';
import type { CompiledKernel } from './expr-interpreter.js';

// What an expression-family oracle reads from a spec besides the expressions: the dtypes, the output, the checks.

/** The value dtypes the kernel is instantiated for (codegen checked every expression for each of them). */
export const valueDTypes = (kernel: CompiledKernel): NumericDType[] => kernel.dtypes as NumericDType[];

/** The op's one output (a family kernel has one): its name and kind. */
export const outputOf = (spec: LoadedSpec) => spec.outputs[0];

/** Whether the runtime requires `arg` in canonical order (an `indices_ordered` check): else inputs come shuffled. */
export const needsOrder = (spec: LoadedSpec, arg: string): boolean =>
  (spec.checks ?? []).some((c) => c.rule === 'indices_ordered' && c.arg === arg);
