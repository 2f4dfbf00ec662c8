import {
  compileTemplate,
  emitJs,
  emitMagnitude,
  selectsValue,
  tsHeader,
  UPSTREAM,
  variablesOf,
  type DerivedGradient,
  type Expr,
  type LoadedSpec,
  type VjpField,
} from '@sparse/codegen/backend-kit';
import { emitWgsl, NotWgsl, wgslHelpers } from './emit-wgsl.js';

/**
 * The derived gradients WGSL computes: a map's (one value per entry), a cwise op's (and its dense operand's sums),
 * a merge's (the merge walked again) and a reduce's (each group's steps taken back).
 */
const FAMILIES = ['map', 'cwise', 'merge', 'reduce'] as const;
type Derived = LoadedSpec & { derived: DerivedGradient };

/** The float32 value a reduce's accumulator starts from, as the JS gradient kernel holds it (a literal), if one. */
function reduceInit(d: DerivedGradient): string | undefined {
  const init = d.kernel.exprs.init;
  const text = init ? emitJs(init, 'float32', {}) : '';
  return /^-?(Infinity|\d+(\.\d+)?(e[+-]?\d+)?)$/.test(text) ? text : undefined;
}

/**
 * Whether the webgpu backend generates this derived gradient op (float32: the gradients' only dtype WGSL has). A
 * reduce whose gradient goes through a finalize step or the implicit zeros, or starts from no literal, is not. A max
 * or min is (its gradient selects: `selects`), but for its ties, which it hands back to the host: their split
 * divides, and WGSL's f32 division is not correctly rounded.
 */
export function webGpuGeneratesGradient(s: LoadedSpec): boolean {
  const d = s.derived;
  if (!d || !(FAMILIES as readonly string[]).includes(d.kernel.family) || !d.dtypes.includes('float32')) return false;
  if (d.kernel.family !== 'reduce') return true;
  if (selectsValue(d.kernel)) return reduceInit(d) !== undefined;
  return d.vjps.finalize === undefined && d.kernel.implicitZeros !== 'include' && reduceInit(d) !== undefined;
}

/** Per family: the variables a product reads, by position (then the scalars), and the products it computes. */
const OPERANDS = { map: ['x'], cwise: ['a', 'b'], merge: ['a', 'b'], reduce: ['x', 'acc'] } as const;
const FIELDS: Record<(typeof FAMILIES)[number], VjpField[]> = {
  map: ['x'],
  cwise: ['a', 'b'],
  merge: ['a', 'b', 'only_a', 'only_b'],
  reduce: ['x', 'acc'],
};

/**
 * `src/generated/gradients.ts`: for each derived gradient of a map, cwise, merge or reduce op, the
 * float32 WGSL of its vector-Jacobian products (with a merge's and a reduce's forward steps, which they go back
 * through), or why WGSL cannot compute them, and each product over float32 magnitudes, which the host evaluates to
 * keep subnormal steps off the GPU.
 */
export function emitWebGpuGradients(specs: LoadedSpec[], templatePath: string): string {
  const template = compileTemplate(templatePath);
  const ops = specs
    .filter((s): s is Derived => webGpuGeneratesGradient(s))
    .map((s) => {
      const d = s.derived;
      const k = d.kernel;
      const family = k.family;
      const operands: readonly string[] = OPERANDS[family];
      const names = [...operands, UPSTREAM, ...k.roles.scalars];
      // A max's or min's gradient is no chain of products: each value equal to its group's output gets the grad.
      const selects = family === 'reduce' && selectsValue(k);
      const vjps = selects
        ? []
        : FIELDS[family].map((f) => ({ f, e: d.vjps[f] })).filter((v): v is { f: VjpField; e: Expr } => !!v.e);
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
        ...['a', 'b', 'x', 'acc', 'out'].map((n) => [n, `v_${n}`]),
        [UPSTREAM, 'v_grad'],
        ...k.roles.scalars.map((sc) => [sc, `s_${sc}`]),
      ]);
      let wgsl: { not: string } | Record<string, string | boolean>;
      try {
        const helpers = new Set<string>();
        const code: Record<string, string> = Object.fromEntries(
          vjps.map(({ f, e }) => [f, emitWgsl(e, 'float32', vars, helpers)]),
        );
        // What a merge and a reduce go back through: a merge's value and keep, a reduce's combine.
        const forward = (e: Expr | undefined) => (e ? emitWgsl(e, 'float32', vars, helpers) : '');
        const fwd = {
          expr: family === 'merge' ? forward(k.exprs.expr) : '',
          keep: family === 'merge' ? forward(k.exprs.keep) : '',
          combine: family === 'reduce' ? forward(k.exprs.combine) : '',
          selects,
        };
        const scalarLets = k.roles.scalars
          .map((sc, n) => `  let s_${sc} = bitcast<f32>(P[${FIRST_SCALAR + n}]);\n`)
          .join('');
        const helperSource = wgslHelpers(helpers);
        const zero = '0.0';
        wgsl = {
          helpers: helperSource && `${helperSource}\n`,
          scalarLets,
          ...fwd,
          x: code.x ?? zero,
          a: code.a ?? zero,
          b: code.b ?? zero,
          only_a: code.only_a ?? zero,
          only_b: code.only_b ?? zero,
          acc: code.acc ?? zero,
          // A reduce's products that read acc need each step's accumulator: the forward pass.
          readsAcc: vjps.some(({ e }) => variablesOf(e, new Set<string>()).has('acc')),
        };
      } catch (e) {
        if (!(e instanceof NotWgsl)) throw e;
        wgsl = { not: e.reason };
      }
      const r = k.roles;
      const outputs =
        family === 'merge'
          ? { a: `${r.a}_grad`, b: `${r.b}_grad` }
          : { sparse: `${r.sparse}_grad`, ...(family === 'cwise' ? { dense: `${r.dense}_grad` } : {}) };
      return {
        op: s.name,
        family,
        forward: d.forward,
        roles: r,
        outputs,
        output: d.output,
        denseOperands: s.args.some((a) => a.type === 'sparse_or_dense'),
        init: family === 'reduce' ? reduceInit(d) : undefined,
        selects: family === 'reduce' && selectsValue(k),
        magnitudes,
        wgsl,
      };
    });
  return template({ header: tsHeader.trim(), ops });
}

/** The first word of a kernel's parameters (P) that holds a scalar argument, as in the forward families. */
const FIRST_SCALAR = 4;
