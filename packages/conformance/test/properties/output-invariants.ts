import type { LoadedSpec } from '@sparse/codegen';
import { int64Entry, isDenseForm, isSparseForm } from '@sparse/case-format';
import { resultView, type Case, type SparseView, type TensorView } from '../../src/index.js';

// What the spec says of every output, whatever the op computes: the output's kind and dtype, and for a sparse output
// indices inside its dense shape, in canonical order without repeats where every sparse input was canonical, and
// always where the spec says the output is canonical by construction (`order`: the runtime then never checks it).

/** Lexicographic order of index tuples: negative if x comes first. */
function compareIndex(x: readonly (number | bigint)[], y: readonly (number | bigint)[]): number {
  for (let d = 0; d < x.length; d++) if (x[d] !== y[d]) return x[d] < y[d] ? -1 : 1;
  return 0;
}

const isCanonical = (indices: readonly (readonly (number | bigint)[])[]) =>
  indices.every((ix, i) => i === 0 || compareIndex(indices[i - 1], ix) < 0);

/** Every SparseTensor form among a case's arguments. */
function sparseInputs(x: unknown): { sparse: { indices: number[][] } }[] {
  if (isSparseForm(x)) return [x as { sparse: { indices: number[][] } }];
  if (Array.isArray(x)) return x.flatMap(sparseInputs);
  return [];
}

/** The dtype a case gives the dtype variable `v`: that of a tensor form passed to an argument declared with it. */
function dtypeOfVar(spec: LoadedSpec, c: Case, v: string): string | undefined {
  const forms = (x: unknown): unknown[] =>
    isSparseForm(x) || isDenseForm(x) ? [x] : Array.isArray(x) ? x.flatMap(forms) : [];
  for (const a of spec.args.filter((a) => a.dtype === v)) {
    const f = forms(c.args[a.name])[0] as { dtype?: unknown } | undefined;
    if (typeof f?.dtype === 'string') return f.dtype;
  }
  return undefined;
}

function sparseProblems(name: string, t: SparseView, ordered: boolean): string[] {
  const problems: string[] = [];
  const outside = t.indices.findIndex(
    (ix) => ix.length !== t.denseShape.length || ix.some((x, d) => !(x >= 0 && x < t.denseShape[d])),
  );
  if (outside >= 0)
    problems.push(`${name}.indices[${outside}] = [${t.indices[outside]}] is outside the dense shape [${t.denseShape}]`);
  if (ordered && !isCanonical(t.indices))
    problems.push(`${name}: the indices are not in canonical order (or repeat), though the spec or the inputs say so`);
  return problems;
}

/** The ways a run's outputs break what the spec says of them; none if they hold. */
export function outputProblems(spec: LoadedSpec, c: Case, outputs: Record<string, unknown>): string[] {
  const ordered = Object.values(c.args)
    .flatMap(sparseInputs)
    .every((s) => isCanonical(s.sparse.indices.map((row) => row.map((x) => int64Entry(x)!))));
  return spec.outputs.flatMap((o) => {
    const view = resultView(outputs[o.name]);
    if ('unrecognized' in view) return [`${o.name}: ${view.unrecognized}, not a tensor`];
    const tensors: TensorView[] = Array.isArray(view) ? view : [view];
    const kinds = {
      sparse: ['sparse'],
      dense: ['dense'],
      sparse_list: ['sparse'],
      sparse_or_dense: ['sparse', 'dense'],
      csr: ['csr'],
    }[o.type];
    const dtype = o.dtype in spec.dtypes ? dtypeOfVar(spec, c, o.dtype) : o.dtype;
    return [
      ...(Array.isArray(view) !== (o.type === 'sparse_list')
        ? [`${o.name}: a list where the spec says ${o.type}, or the other way`]
        : []),
      ...tensors.flatMap((t, i) => {
        const name = Array.isArray(view) ? `${o.name}[${i}]` : o.name;
        return [
          ...(kinds.includes(t.kind) ? [] : [`${name}: a ${t.kind} tensor where the spec says ${o.type}`]),
          ...(dtype === undefined || t.dtype === dtype
            ? []
            : [`${name}: dtype ${t.dtype} where the spec says ${o.dtype} = ${dtype}`]),
          ...(t.kind === 'sparse' ? sparseProblems(name, t, ordered || spec.order[o.name] === 'canonical') : []),
        ];
      }),
    ];
  });
}
