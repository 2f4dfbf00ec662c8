import { ExprError, type Expr } from './ast.js';
import { parseExpr } from './parse.js';
import { checkExpr, type ExprType } from './check.js';
import type { ArgSpec, DTypeName, KernelSpec, OpSpec } from '../spec-types.js';

export type ExprField = 'expr' | 'only_a' | 'only_b' | 'keep' | 'init' | 'combine' | 'finalize';
type Family = 'cwise' | 'merge' | 'reduce' | 'map';

/** Which arguments play which part in a family kernel. */
export interface FamilyRoles {
  /** cwise, map, reduce: the sparse operand. */
  sparse?: string;
  /** cwise: the dense operand. */
  dense?: string;
  /** merge: the two operands, in order (each sparse, or sparse_or_dense). */
  a?: string;
  b?: string;
  /** reduce: the axes and keepdims arguments. */
  axes?: string;
  keepdims?: string;
  /** Scalar arguments an expression may read by name (sparse_add's thresh). */
  scalars: string[];
}

export interface CompiledKernel {
  family: Family;
  roles: FamilyRoles;
  /** The value dtypes the kernel is instantiated for. */
  dtypes: DTypeName[];
  /** Every expression of the kernel, defaults filled in (merge's only_a / only_b). */
  exprs: Partial<Record<ExprField, Expr>>;
  join?: 'union' | 'intersection';
  implicitZeros: 'ignore' | 'include';
}

/** Per family: each expression field, the variables it reads, what it yields, and whether it is required. */
const FIELDS: Record<Family, Partial<Record<ExprField, { vars: string[]; type: ExprType; required: boolean }>>> = {
  cwise: { expr: { vars: ['a', 'b'], type: 'value', required: true } },
  merge: {
    expr: { vars: ['a', 'b'], type: 'value', required: true },
    only_a: { vars: ['a'], type: 'value', required: false },
    only_b: { vars: ['b'], type: 'value', required: false },
    keep: { vars: ['out', 'a', 'b'], type: 'bool', required: false },
  },
  reduce: {
    init: { vars: [], type: 'value', required: true },
    combine: { vars: ['acc', 'x'], type: 'value', required: true },
    finalize: { vars: ['acc', 'count'], type: 'value', required: false },
  },
  map: { expr: { vars: ['x'], type: 'value', required: true } },
};

const ALL_FIELDS: readonly (keyof KernelSpec)[] = [
  'expr',
  'join',
  'only_a',
  'only_b',
  'keep',
  'init',
  'combine',
  'finalize',
  'implicit_zeros',
];

const isExpressionFamily = (f: string): f is Family => f in FIELDS;

type Report = (path: (string | number)[], message: string) => void;

/**
 * Parses and checks the kernel of an expression-family spec: the arguments fit the family, every expression
 * parses and type-checks for every dtype the op allows, and a map keeps zeros (f(0) = 0).
 * Problems go to `report` with the field and the position in the expression.
 */
export function compileKernel(
  spec: OpSpec,
  report: Report,
  zeroCheck: (e: Expr, dtype: DTypeName) => boolean,
): CompiledKernel | undefined {
  const k = spec.kernel;
  if (!isExpressionFamily(k.family)) {
    for (const f of ALL_FIELDS)
      if (k[f] !== undefined) report(['kernel', f], `a ${k.family} kernel is hand-written and takes no ${f}`);
    return undefined;
  }
  const family = k.family;
  const fields = FIELDS[family];
  const before = { n: 0 };
  const fail: Report = (p, m) => {
    before.n++;
    report(p, m);
  };
  for (const f of ALL_FIELDS) {
    const known =
      f in fields || (family === 'merge' && f === 'join') || (family === 'reduce' && f === 'implicit_zeros');
    if (k[f] !== undefined && !known) fail(['kernel', f], `a ${family} kernel takes no ${f}`);
  }
  for (const [f, meta] of Object.entries(fields))
    if (meta.required && k[f as ExprField] === undefined) fail(['kernel'], `a ${family} kernel needs ${f}`);
  if (family === 'merge' && k.join === undefined) fail(['kernel'], 'a merge kernel needs join: union or intersection');

  const roles = resolveRoles(spec, family, fail);
  const valueArg = spec.args.find((a) => a.name === (roles.sparse ?? roles.a));
  const dtypes = valueArg?.dtype ? (spec.dtypes[valueArg.dtype] ?? [valueArg.dtype as DTypeName]) : [];
  if (before.n) return undefined;

  const exprs: Partial<Record<ExprField, Expr>> = {};
  for (const [f, meta] of Object.entries(fields) as [ExprField, { vars: string[]; type: ExprType }][]) {
    if (k[f] === undefined) continue;
    const src = String(k[f]);
    try {
      const e = parseExpr(src);
      for (const dt of dtypes) checkExpr(e, dt, [...meta.vars, ...roles.scalars], meta.type);
      exprs[f] = e;
    } catch (err) {
      if (!(err instanceof ExprError)) throw err;
      fail(['kernel', f], `${err.message} (at column ${err.pos + 1} of "${src}")`);
    }
  }
  if (before.n) return undefined;
  if (family === 'merge') {
    exprs.only_a ??= substitute(exprs.expr!, 'b');
    exprs.only_b ??= substitute(exprs.expr!, 'a');
  }
  if (family === 'map') {
    for (const dt of dtypes) {
      if (!zeroCheck(exprs.expr!, dt))
        fail(['kernel', 'expr'], `a map must keep zeros absent, but f(0) != 0 for ${dt}: "${k.expr}"`);
    }
  }
  if (before.n) return undefined;
  return { family, roles, dtypes, exprs, join: k.join, implicitZeros: k.implicit_zeros ?? 'ignore' };
}

function resolveRoles(spec: OpSpec, family: Family, fail: Report): FamilyRoles {
  const of = (...types: ArgSpec['type'][]) => spec.args.filter((a) => types.includes(a.type)).map((a) => a.name);
  const one = (names: string[], what: string): string | undefined => {
    if (names.length !== 1)
      fail(['args'], `a ${family} kernel needs exactly one ${what} argument, found ${names.length}`);
    return names[0];
  };
  const roles: FamilyRoles = { scalars: of('scalar') };
  switch (family) {
    case 'cwise':
      roles.sparse = one(of('sparse'), 'sparse');
      roles.dense = one(of('dense'), 'dense');
      break;
    case 'merge': {
      const ops = of('sparse', 'sparse_or_dense');
      if (ops.length !== 2)
        fail(['args'], `a merge kernel needs exactly two sparse (or sparse_or_dense) arguments, found ${ops.length}`);
      [roles.a, roles.b] = ops;
      break;
    }
    case 'reduce':
      roles.sparse = one(of('sparse'), 'sparse');
      roles.axes = one(of('axes'), 'axes');
      roles.keepdims = one(of('bool'), 'bool (keepdims)');
      break;
    case 'map':
      roles.sparse = one(of('sparse'), 'sparse');
      break;
  }
  for (const s of roles.scalars) {
    if (['a', 'b', 'x', 'acc', 'out', 'count'].includes(s))
      fail(['args'], `the scalar argument '${s}' would hide an expression variable`);
  }
  return roles;
}

/** The expression with variable `name` read as 0 (the missing side of a merge). */
function substitute(e: Expr, name: string): Expr {
  switch (e.kind) {
    case 'var':
      return e.name === name ? { kind: 'number', text: '0', pos: e.pos } : e;
    case 'unary':
      return { ...e, arg: substitute(e.arg, name) };
    case 'binary':
      return { ...e, left: substitute(e.left, name), right: substitute(e.right, name) };
    case 'call':
      return { ...e, args: e.args.map((a) => substitute(a, name)) };
    default:
      return e;
  }
}
