import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { crossPlan, crossTextLengths } from '@sparse/kernel-abi';
import { guardNewStrings } from '../memory-guard.js';

/**
 * sparse_cross: the crosses are new strings (the features joined), which live in the JavaScript heap and could be
 * far longer than the inputs (every feature of a row appears in many crosses): before any is built, each must fit
 * in a JavaScript string and all of them in the heap's room (ResourceExhaustedError).
 */
export function sparseCrossStrings(op: string, args: Record<string, unknown>): void {
  const plan = crossPlan(args.inputs as (SparseData | DenseData)[]);
  if (plan.total === 0) return;
  const separator = args.separator === null ? '_X_' : String(args.separator);
  const { total, longest } = crossTextLengths(plan, separator.length);
  guardNewStrings(op, 'output', plan.total, total, longest);
}
