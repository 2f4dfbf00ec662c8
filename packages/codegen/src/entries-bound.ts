import type { CompiledKernel } from './expr/family.js';
import type { ArgSpec, EntriesTerm, OpSpec, OutputSpec } from './spec-types.js';

type Report = (path: readonly (string | number)[], message: string) => void;

const NNZ_ARGS = ['sparse', 'sparse_list', 'sparse_or_sparse_list', 'sparse_or_dense', 'csr'];
const SIZE_ARGS = ['dense', 'scalar', 'sparse_or_dense'];
const DIM_ARGS = ['sparse', 'dense', 'sparse_or_dense', 'csr'];
const CROSS_ARGS = ['sparse_or_dense_list'];
const TERM_ARGS: Record<string, string[]> = {
  nnz: NNZ_ARGS,
  size: SIZE_ARGS,
  dim: DIM_ARGS,
  min: ['int'],
  cross: CROSS_ARGS,
};

/** What a family's kernel stores at most, from its roles: one entry per stored input entry (both, for a union). */
function familyEntries(k: CompiledKernel): EntriesTerm[] {
  if (k.family === 'merge')
    return k.join === 'union' ? [{ nnz: k.roles.a! }, { nnz: k.roles.b! }] : [{ nnz: k.roles.a! }];
  return [{ nnz: k.roles.sparse! }];
}

/**
 * The bound on the stored entries of each sparse output, which the runtime's byte budget reads: declared in the
 * spec (`entries`), or derived from the family of an expression-family op. A sparse output without one is an error:
 * an op whose output the budget cannot bound could exhaust memory unchecked.
 */
export function entriesBounds(
  spec: OpSpec,
  compiled: CompiledKernel | undefined,
  report: Report,
): Record<string, EntriesTerm[]> {
  const args = new Map<string, ArgSpec>(spec.args.map((a) => [a.name, a]));
  const out: Record<string, EntriesTerm[]> = {};
  spec.outputs.forEach((o: OutputSpec, i) => {
    if (o.type === 'dense') return;
    const terms = o.entries ?? (compiled ? familyEntries(compiled) : undefined);
    if (!terms) {
      report(
        ['outputs', i, 'entries'],
        `a sparse output needs \`entries\`, a bound on its stored entries (e.g. [{nnz: sp_input}]), for the byte budget`,
      );
      return;
    }
    terms.forEach((t, j) => {
      if ('products' in t) {
        checkProducts(t.products, ['outputs', i, 'entries', j, 'products'], args, report);
        return;
      }
      const [kind, names] =
        'nnz' in t
          ? ['nnz', [t.nnz]]
          : 'size' in t
            ? ['size', [t.size]]
            : 'dim' in t
              ? ['dim', [t.dim[0]]]
              : 'cross' in t
                ? ['cross', [t.cross]]
                : ['min', t.min];
      const types = TERM_ARGS[kind];
      for (const arg of names) {
        const a = args.get(arg);
        if (!a) report(['outputs', i, 'entries', j, kind], `unknown argument '${arg}'`);
        else if (!types.includes(a.type))
          report(
            ['outputs', i, 'entries', j, kind],
            `'${arg}' is a ${a.type} argument; ${kind} needs ${types.join(' or ')}`,
          );
      }
    });
    out[o.name] = terms;
  });
  return out;
}

/** A products term names two csr arguments and, for each, the bool arguments that transpose it. */
function checkProducts(
  p: { a: string; b: string; transpose_a: string[]; transpose_b: string[] },
  at: (string | number)[],
  args: Map<string, ArgSpec>,
  report: Report,
): void {
  for (const k of ['a', 'b'] as const)
    if (args.get(p[k])?.type !== 'csr') report([...at, k], `'${p[k]}' is not a csr argument`);
  for (const k of ['transpose_a', 'transpose_b'] as const)
    for (const flag of p[k])
      if (args.get(flag)?.type !== 'bool') report([...at, k], `'${flag}' is not a bool argument`);
}
