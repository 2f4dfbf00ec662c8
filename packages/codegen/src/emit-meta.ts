import { VariableDeclarationKind } from 'ts-morph';
import { buildTsFile } from './ts-file.js';
import type { KernelFamily, LoadedSpec } from './spec-types.js';

// The reduce family keeps a count per group (a float64 per dense output element) beside its output; a derived
// gradient keeps the value each step started from and an adjoint (two float64 per output element).
const FAMILY_WORKSPACE: Partial<Record<KernelFamily, number>> = { reduce: 8, gradient: 16 };

/** `runtime/src/generated/ops-meta.ts`: what the runtime needs of each spec to bind, check and dispatch. */
export function emitOpsMeta(specs: LoadedSpec[]): string {
  const meta = Object.fromEntries(
    specs.map((s) => [
      s.name,
      {
        name: s.name,
        apiName: s.apiName,
        family: s.kernel.family,
        dtypes: s.dtypes,
        dtypeDefaults: s.dtype_defaults ?? {},
        dtypeFallbacks: s.dtype_fallbacks ?? {},
        args: s.args.map((a) => ({
          name: a.name,
          type: a.type,
          ...(a.dtype !== undefined && { dtype: a.dtype }),
          ...(a.default !== undefined && { default: a.default }),
          aliases: a.aliases ?? [],
          ...(a.bounds === 'except_last' && { bounds: a.bounds }),
          ...(a.one_of && { oneOf: a.one_of }),
          ...(a.none_means_default && { noneMeansDefault: true }),
          ...(a.cast_to && { castTo: a.cast_to }),
        })),
        outputs: s.outputs.map((o) => ({
          name: o.name,
          type: o.type,
          dtype: o.dtype,
          shape: o.shape,
          ...(s.entries[o.name] && { entries: s.entries[o.name] }),
          ...(s.order[o.name] && { order: s.order[o.name] }),
        })),
        workspace: s.kernel.workspace ?? FAMILY_WORKSPACE[s.kernel.family] ?? 0,
        ...(s.kernel.scratch && { scratch: s.kernel.scratch }),
        checks: s.checks ?? [],
        ...(s.kernel.wide_dims && { wideDims: s.kernel.wide_dims }),
        ...(s.kernel.wide_axis && { wideAxis: s.kernel.wide_axis }),
        ...(s.gradientOf && { gradient: s.gradientOf }),
        ...(s.tensorflow && { tensorflow: s.tensorflow }),
        ...(s.not_differentiable && { notDifferentiable: s.not_differentiable.trim() }),
      },
    ]),
  );
  return buildTsFile('ops-meta.ts', (f) => {
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '../op-meta.js', namedImports: ['OpMeta'] });
    f.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ['Every op of specs/, keyed by op id.'],
      declarations: [
        { name: 'OPS', type: 'Readonly<Record<string, OpMeta>>', initializer: JSON.stringify(meta, null, 2) },
      ],
    });
  });
}
