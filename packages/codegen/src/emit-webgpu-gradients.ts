import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { tsHeader } from './header.js';
import { emitWgsl, NotWgsl, wgslHelpers } from './expr/emit-wgsl.js';
import { emitMagnitude } from './expr/emit-magnitude.js';
import { variablesOf } from './expr/variables.js';
import type { Expr } from './expr/ast.js';
import { UPSTREAM, type DerivedGradient } from './gradient-specs.js';
import type { LoadedSpec } from './spec-types.js';

const hb = Handlebars.create();
hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
hb.registerHelper('json', (a: unknown) => JSON.stringify(a));

/** The derived gradients WGSL computes: a map's (one value per entry) and a cwise op's (and its dense operand's sums). */
const FAMILIES = ['map', 'cwise'] as const;
type Derived = LoadedSpec & { derived: DerivedGradient };

/** Whether the webgpu backend generates this derived gradient op (float32: the gradients' only dtype WGSL has). */
export function webGpuGeneratesGradient(s: LoadedSpec): boolean {
  return (
    s.derived !== undefined &&
    (FAMILIES as readonly string[]).includes(s.derived.kernel.family) &&
    s.derived.dtypes.includes('float32')
  );
}

/**
 * `kernels-webgpu/src/generated/gradients.ts`: for each derived gradient of a map or cwise op, the float32 WGSL of
 * its vector-Jacobian products (or why WGSL cannot compute them), and each product over float32 magnitudes, which
 * the host evaluates to keep subnormal steps off the GPU.
 */
export function emitWebGpuGradients(specs: LoadedSpec[], templatePath: string): string {
  const template = hb.compile(readFileSync(templatePath, 'utf8'), { noEscape: true, strict: true });
  const ops = specs
    .filter((s): s is Derived => webGpuGeneratesGradient(s))
    .map((s) => {
      const d = s.derived;
      const k = d.kernel;
      const operands = k.family === 'map' ? ['x'] : ['a', 'b'];
      const names = [...operands, UPSTREAM, ...k.roles.scalars];
      const fields = (k.family === 'map' ? ['x'] : ['a', 'b']) as ('x' | 'a' | 'b')[];
      const vjps = fields.map((f) => ({ f, e: d.vjps[f] })).filter((v): v is { f: 'x' | 'a' | 'b'; e: Expr } => !!v.e);
      // The magnitudes of each product, its variables by position (one it does not read keeps its place under a _).
      const magnitudes = vjps.map(({ f, e }) => {
        const read = variablesOf(e, new Set<string>());
        const vars = Object.fromEntries(names.map((n) => [n, n]));
        return {
          f,
          params: names.map((n) => `${read.has(n) ? n : `_${n}`}: M.Maybe`).join(', '),
          body: emitMagnitude(e, vars),
        };
      });
      const vars = Object.fromEntries([
        ...operands.map((n) => [n, `v_${n}`]),
        [UPSTREAM, 'v_grad'],
        ...k.roles.scalars.map((sc) => [sc, `s_${sc}`]),
      ]);
      let wgsl: { not: string } | { helpers: string; scalarLets: string; x?: string; a?: string; b?: string };
      try {
        const helpers = new Set<string>();
        const code = Object.fromEntries(vjps.map(({ f, e }) => [f, emitWgsl(e, 'float32', vars, helpers)]));
        const scalarLets = k.roles.scalars
          .map((sc, n) => `  let s_${sc} = bitcast<f32>(P[${FIRST_SCALAR + n}]);\n`)
          .join('');
        const helperSource = wgslHelpers(helpers);
        wgsl = { helpers: helperSource && `${helperSource}\n`, scalarLets, ...code };
      } catch (e) {
        if (!(e instanceof NotWgsl)) throw e;
        wgsl = { not: e.reason };
      }
      return {
        op: s.name,
        family: k.family,
        forward: d.forward,
        roles: k.roles,
        outputs: {
          sparse: `${k.roles.sparse}_grad`,
          ...(k.family === 'cwise' ? { dense: `${k.roles.dense}_grad` } : {}),
        },
        magnitudes,
        wgsl,
      };
    });
  return template({ header: tsHeader.trim(), ops });
}

/** The first word of a kernel's parameters (P) that holds a scalar argument, as in the forward families. */
const FIRST_SCALAR = 4;
