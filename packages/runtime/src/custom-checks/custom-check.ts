/**
 * A check only one op needs, named by its spec (`rule: custom`). It sees the op's arguments in kernel form
 * (SparseData, DenseData, scalars, plain numbers), defaults filled in, and throws InvalidArgumentError or
 * TypeError naming the op, the argument and the offending index or value (or ResourceExhaustedError, for what the
 * byte budget cannot see: sparse_cross's new strings).
 */
export type CustomCheck = (op: string, args: Record<string, unknown>) => void;
