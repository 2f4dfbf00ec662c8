import type { BoundArgs } from './bind-args.js';
import { runChecks } from './checks.js';
import { isDType } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import type { OpMeta } from './op-meta.js';
import { expectedShape, isDenseResult } from './outputs.js';
import { sameShape, shapeText } from './shape.js';
import { SparseTensor } from './sparse-tensor.js';
import { Tensor } from './tensor.js';
import { validateSparseArgs } from './validate-sparse.js';

/**
 * What the forward op would refuse, `vjp` refuses too (in TensorFlow the forward op has run, and failed, first):
 * every sparse argument's indices within its shape, then the op's declared checks, each error naming the op. The
 * gradient op's own checks are TensorFlow's raw gradient op's, which take more (unsorted segment ids).
 */
export function checkForward(op: OpMeta, bound: BoundArgs): void {
  validateSparseArgs(op, bound);
  runChecks(op, bound.values);
}

/**
 * The forward outputs a caller gives `vjp` (options.outputs) are what the op would give on these arguments, as far
 * as that is cheap to see: known output names, each of the op's kind and dtype, and of its dense shape where the
 * spec's shape rule fixes it from the arguments.
 */
export function checkGivenOutputs(op: OpMeta, bound: BoundArgs, outputs: unknown): Record<string, unknown> {
  const where = `vjp: ${op.name}: options.outputs`;
  if (typeof outputs !== 'object' || outputs === null || Array.isArray(outputs))
    throw new TypeError(`${where} must be an object keyed by output name`);
  const given = outputs as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    const o = op.outputs.find((x) => x.name === name);
    if (!o)
      throw new TypeError(`${where} has '${name}', which is no output of ${op.name} (outputs: ${outputNames(op)})`);
    const v = given[name];
    const kind = o.type === 'sparse_or_dense' ? (isDenseResult(op, bound) ? 'dense' : 'sparse') : o.type;
    if (kind !== 'sparse' && kind !== 'dense') continue;
    const [cls, article] = kind === 'sparse' ? [SparseTensor, 'a SparseTensor'] : [Tensor, 'a Tensor'];
    if (!(v instanceof cls))
      throw new TypeError(`${where}.${name} must be ${article}, as ${op.name} gives, got ${what(v)}`);
    const t = v as SparseTensor | Tensor;
    const dtype = isDType(o.dtype) ? o.dtype : bound.dtypes[o.dtype];
    if (t.dtype !== dtype) throw new TypeError(`${where}.${name} has dtype ${t.dtype}; ${op.name} gives ${dtype} here`);
    const shape = expectedShape(o, bound);
    if (shape && !sameShape(t.shape, shape))
      throw new InvalidArgumentError(
        `${where}.${name} has shape ${shapeText(t.shape)}; ${op.name} gives ${shapeText(shape)} on these arguments`,
      );
  }
  return given;
}

const outputNames = (op: OpMeta) => op.outputs.map((o) => o.name).join(', ');

function what(v: unknown): string {
  if (v === null) return 'null';
  if (v instanceof SparseTensor) return 'a SparseTensor';
  if (v instanceof Tensor) return 'a Tensor';
  return Array.isArray(v) ? 'an array' : typeof v;
}
