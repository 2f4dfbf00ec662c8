import type { Expr } from './ast.js';

/** The names of the variables an expression reads. */
export function variablesOf(e: Expr, into = new Set<string>()): Set<string> {
  switch (e.kind) {
    case 'var':
      into.add(e.name);
      break;
    case 'unary':
      variablesOf(e.arg, into);
      break;
    case 'binary':
      variablesOf(e.left, into);
      variablesOf(e.right, into);
      break;
    case 'call':
      for (const a of e.args) variablesOf(a, into);
      break;
  }
  return into;
}
