import type { ArgSpec, OpSpec } from './spec-types.js';

type Report = (path: readonly (string | number)[], message: string) => void;

const MEASURE_ARGS: Record<string, string[]> = {
  nnz: ['sparse', 'sparse_list', 'sparse_or_sparse_list', 'sparse_or_dense', 'csr'],
  size: ['dense', 'scalar', 'sparse_or_dense'],
  dims: ['sparse', 'dense', 'sparse_or_dense', 'csr'],
  min: ['int'],
};

/**
 * Checks `kernel.scratch`, the working memory the byte budget counts besides the outputs: each term measures
 * arguments of a type that has that measure, and its `when`/`unless` name bool arguments.
 */
export function checkScratch(spec: OpSpec, report: Report): void {
  const args = new Map<string, ArgSpec>(spec.args.map((a) => [a.name, a]));
  (spec.kernel.scratch ?? []).forEach((t, i) => {
    const at = ['kernel', 'scratch', i];
    const [kind, names] =
      'nnz' in t
        ? ['nnz', [t.nnz]]
        : 'size' in t
          ? ['size', [t.size]]
          : 'dims' in t
            ? ['dims', [t.dims[0]]]
            : ['min', t.min];
    for (const name of names) {
      const a = args.get(name);
      if (!a) report([...at, kind], `unknown argument '${name}'`);
      else if (!MEASURE_ARGS[kind].includes(a.type))
        report([...at, kind], `'${name}' is a ${a.type} argument; ${kind} needs ${MEASURE_ARGS[kind].join(' or ')}`);
    }
    for (const key of ['when', 'unless'] as const)
      for (const flag of t[key] ?? [])
        if (args.get(flag)?.type !== 'bool') report([...at, key], `'${flag}' is not a bool argument`);
  });
}
