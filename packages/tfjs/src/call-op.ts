import { checkOptions, refuseExtraArguments } from './options.js';
import { runOp, type RunOpOptions, type TfOutput } from './tf-op.js';

/**
 * One call of an op's function (generated/ops.ts): `fn`'s arguments and options checked (an unknown option is a
 * TypeError naming `fn`), then `runOp` with the spec's argument names, which `args` makes of the options.
 */
export function callOp<O extends RunOpOptions>(
  fn: string,
  given: number,
  params: number,
  options: O | undefined,
  names: readonly string[],
  opId: string,
  args: (o: O) => Record<string, unknown>,
): Record<string, TfOutput> {
  refuseExtraArguments(fn, given, params);
  checkOptions(fn, options, names);
  const o = options ?? ({} as O);
  return runOp(opId, args(o), o.runtime ? { runtime: o.runtime } : {});
}
