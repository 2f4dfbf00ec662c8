import {
  boundFunctions,
  compileTemplate,
  emitMagnitude,
  tsHeader,
  type CompiledKernel,
  type ExprField,
  type LoadedSpec,
} from '@sparse/codegen/backend-kit';
import { emitWgsl, NotWgsl, WGSL_TYPE, wgslHelpers, type WgslDtype } from './emit-wgsl.js';

type Family = LoadedSpec & { compiled: CompiledKernel };

/** The first word of a kernel's parameters (P) that holds a scalar argument: P[0..3] are the host's. */
const FIRST_SCALAR = 4;
const DTYPES: readonly WgslDtype[] = ['float32', 'int32'];

/**
 * `src/generated/families.ts`: for every expression-family op that allows float32 or int32, per
 * such dtype the WGSL compute module of its family kernel (or, where WGSL's arithmetic is not TensorFlow's for
 * the dtype, why not), and what the host driver needs of the op's arguments (its roles, output and join).
 */
export function emitWebGpuFamilies(specs: LoadedSpec[], templatePath: string): string {
  const template = compileTemplate(templatePath);
  const ops = specs
    .filter(
      (s): s is Family => s.compiled !== undefined && s.compiled.dtypes.some((d) => DTYPES.includes(d as WgslDtype)),
    )
    .map((s) => {
      const k = s.compiled;
      const vars: Record<string, string> = {
        a: 'v_a',
        b: 'v_b',
        x: 'v_x',
        acc: 'v_acc',
        out: 'v_out',
        count: 'v_count',
      };
      for (const sc of k.roles.scalars) vars[sc] = `s_${sc}`;
      const cases = DTYPES.filter((dt) => k.dtypes.includes(dt)).map((dtype) => {
        const t = WGSL_TYPE[dtype];
        const helpers = new Set<string>();
        try {
          const code = (f: ExprField) => (k.exprs[f] ? emitWgsl(k.exprs[f]!, dtype, vars, helpers) : '');
          const exprs = {
            expr: code('expr'),
            only_a: code('only_a'),
            only_b: code('only_b'),
            keep: code('keep'),
            init: code('init'),
            combine: code('combine'),
            finalize: code('finalize'),
          };
          const scalarLets = k.roles.scalars
            .map((sc, n) => `  let s_${sc} = bitcast<${t}>(P[${FIRST_SCALAR + n}]);`)
            .map((line) => `${line}\n`)
            .join('');
          const helperSource = wgslHelpers(helpers);
          return { dtype, t, not: '', helpers: helperSource && `${helperSource}\n`, scalarLets, ...exprs };
        } catch (e) {
          if (e instanceof NotWgsl) return { dtype, not: e.reason };
          throw e;
        }
      });
      const output = s.outputs[0];
      return {
        op: s.name,
        family: k.family,
        source: s.kernel,
        spec: String((k.family === 'reduce' ? s.kernel.combine : s.kernel.expr) ?? ''),
        roles: k.roles,
        output: output.name,
        outputKind: output.type === 'dense' ? 'dense' : 'sparse',
        join: k.join ?? '',
        includeZeros: k.implicitZeros === 'include',
        denseOperands: s.args.some((a) => a.type === 'sparse_or_dense'),
        float32: boundFunctions(k, 'M', emitMagnitude),
        cases,
      };
    });
  return template({ header: tsHeader.trim(), firstScalar: FIRST_SCALAR, ops });
}
