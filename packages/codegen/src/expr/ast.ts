/** The typed IR of a kernel expression: parsed once, checked per dtype, emitted per target. */
import type { FunctionName } from './functions.js';

export type { FunctionName };
export type BinaryOp = '+' | '-' | '*' | '/' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||';
export type UnaryOp = '-' | '!';
/** The dtype's limits: `inf` (floats), `max_value` / `min_value` (the highest / lowest value the dtype holds: ±inf for floats). */
export type ConstantName = 'inf' | 'max_value' | 'min_value';

export type Expr =
  | { kind: 'number'; text: string; pos: number }
  | { kind: 'var'; name: string; pos: number }
  | { kind: 'const'; name: ConstantName; pos: number }
  | { kind: 'unary'; op: UnaryOp; arg: Expr; pos: number }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; pos: number }
  | { kind: 'call'; fn: FunctionName; args: Expr[]; pos: number };

export const CONSTANTS: readonly ConstantName[] = ['inf', 'max_value', 'min_value'];

/** A problem in an expression, at a character offset (0-based) of its text. */
export class ExprError extends Error {
  override name = 'ExprError';
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

/** A whole-number literal's exact value (digits stay exact beyond 2^53), or undefined if it is not whole. */
export function wholeLiteral(text: string): bigint | undefined {
  if (/^\d+$/.test(text)) return BigInt(text);
  const v = Number(text);
  return Number.isInteger(v) && !text.includes('.') ? BigInt(v) : undefined;
}
