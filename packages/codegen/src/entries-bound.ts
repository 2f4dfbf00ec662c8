import type { CompiledKernel } from './expr/family.js';
import type { ArgSpec, EntriesTerm, OpSpec, OutputSpec } from './spec-types.js';

type Report = (path: readonly (string | number)[], message: string) => void;

const NNZ_ARGS = ['sparse', 'sparse_list', 'sparse_or_sparse_list', 'sparse_or_dense'];
const SIZE_ARGS = ['dense', 'scalar', 'sparse_or_dense'];
const DIM_ARGS = ['sparse', 'dense', 'sparse_or_dense'];
const CROSS_ARGS = ['sparse_or_dense_list'];

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
      const [kind, arg, types] =
        'nnz' in t
          ? ['nnz', t.nnz, NNZ_ARGS]
          : 'size' in t
            ? ['size', t.size, SIZE_ARGS]
            : 'cross' in t
              ? ['cross', t.cross, CROSS_ARGS]
              : ['dim', t.dim[0], DIM_ARGS];
      const a = args.get(arg);
      if (!a) report(['outputs', i, 'entries', j, kind], `unknown argument '${arg}'`);
      else if (!types.includes(a.type))
        report(
          ['outputs', i, 'entries', j, kind],
          `'${arg}' is a ${a.type} argument; ${kind} needs ${types.join(' or ')}`,
        );
    });
    out[o.name] = terms;
  });
  return out;
}
