import type { CasePath, Report } from './report.js';
import { checkValueType, type ValueType } from './value-types.js';

export interface SignatureArg {
  readonly name: string;
  readonly type: ValueType;
  /** Other names the argument is accepted under (deprecated ones, as TensorFlow keeps them). */
  readonly aliases?: readonly string[];
  /** Absent: the argument is required. */
  readonly default?: unknown;
  /** null stands for the default (TensorFlow's None, read as it). */
  readonly none_means_default?: boolean;
}

export interface SignatureOutput {
  readonly name: string;
  readonly type: ValueType;
}

/** What an op spec says of the calls its examples make: the op, its arguments and its outputs. */
export interface OpSignature {
  readonly op: string;
  readonly args: readonly SignatureArg[];
  readonly outputs: readonly SignatureOutput[];
}

/**
 * Checks an example's `args` against its op: each one the op's (by name or alias) and given once, every required
 * one there, and with `checkTypes`, each value of a form its type calls for.
 */
export function checkArgsAgainst(
  args: Record<string, unknown>,
  signature: OpSignature,
  checkTypes: boolean,
  report: Report,
): void {
  const given = new Set<string>();
  for (const [key, value] of Object.entries(args)) {
    const at: CasePath = ['args', key];
    const arg = signature.args.find((a) => a.name === key || a.aliases?.includes(key));
    if (!arg) {
      report(at, `unknown argument '${key}' (arguments: ${signature.args.map((a) => a.name).join(', ')})`);
      continue;
    }
    if (given.has(arg.name)) report(at, `'${arg.name}' is given twice`);
    given.add(arg.name);
    // `null` asks for a default of null, whatever the type, or for the default where null stands for it.
    const asksDefault = value === null && (arg.default === null || arg.none_means_default === true);
    if (checkTypes && !asksDefault) checkValueType(value, arg.type, at, report);
  }
  for (const a of signature.args) {
    if (a.default === undefined && !given.has(a.name)) report(['args'], `the required argument '${a.name}' is missing`);
  }
}

/** Checks an example's `expect` against its op: each output one of the op's, of a form its type calls for. */
export function checkExpectAgainst(expect: Record<string, unknown>, signature: OpSignature, report: Report): void {
  for (const [key, value] of Object.entries(expect)) {
    const output = signature.outputs.find((o) => o.name === key);
    if (output) checkValueType(value, output.type, ['expect', key], report);
    else
      report(['expect', key], `unknown output '${key}' (outputs: ${signature.outputs.map((o) => o.name).join(', ')})`);
  }
}
