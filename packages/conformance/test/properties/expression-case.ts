import type { Case } from '../../src/index.js';
import { ArithmeticRefusal } from './dtype-arithmetic.js';

/**
 * A case of `op` whose expected outputs an oracle computes. Where the arithmetic refuses (an integer division by
 * zero, a negative integer power), every backend must refuse too: the case expects that InvalidArgumentError.
 */
export function oracleCase(op: string, args: Record<string, unknown>, outputs: () => Record<string, unknown>): Case {
  try {
    return { op, name: 'property', args, expect: outputs() };
  } catch (e) {
    if (!(e instanceof ArithmeticRefusal)) throw e;
    return { op, name: 'property', args, expect_error: { kind: 'InvalidArgument', match: e.match } };
  }
}
