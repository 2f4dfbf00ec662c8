import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { bindArgs, resolveNames } from './bind-args.js';
import { InvalidArgumentError, UnimplementedError } from './errors.js';
import { expectedShape } from './outputs.js';
import { sameShape, shapeText } from './shape.js';
import type { OpMeta } from './op-meta.js';
import { Tensor } from './tensor.js';
import { toValues, type DType } from './dtype.js';
import { checkForward, checkGivenOutputs } from './vjp-checks.js';
import { OPS } from './generated/ops-meta.js';

/** Options of `vjp`. */
export interface VjpOptions {
  /**
   * The op's outputs on these arguments (keyed by output name), where the caller has them already, as a training
   * loop does from its forward pass: a gradient that needs them (sparse_softmax's) then does not run the op again.
   */
  outputs?: Record<string, unknown>;
}

/**
 * The gradient of each argument, by name: a Tensor for a differentiable one (rank 0 for a scalar argument, such as
 * the `default_value` of sparse_to_dense), null for any other.
 */
export type VjpResult = Record<string, Tensor | null>;

type Run = (opId: string, args: Record<string, unknown>) => Record<string, unknown>;
type RunAsync = (opId: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;
/** A call of an op that the gradient needs: made by `vjp` at once, by `vjpAsync` when its promise resolves. */
type Step = Generator<[string, Record<string, unknown>], VjpResult, Record<string, unknown>>;

const FLOATS = new Set(['float32', 'float64']);

/**
 * The vector-Jacobian product of `opId` at `args` (Runtime.vjp): runs the op's gradient op, as its spec declares
 * it, with its arguments bound from the forward arguments, the forward outputs and `upstream`.
 */
export function vjp(run: Run, ...call: Parameters<typeof steps>): VjpResult {
  const it = steps(...call);
  for (let next = it.next(); ;) {
    if (next.done) return next.value;
    next = it.next(run(...next.value));
  }
}

/** `vjp` over a runtime whose ops return promises (Runtime.vjpAsync). */
export async function vjpAsync(run: RunAsync, ...call: Parameters<typeof steps>): Promise<VjpResult> {
  const it = steps(...call);
  for (let next = it.next(); ;) {
    if (next.done) return next.value;
    next = it.next(await run(...next.value));
  }
}

function* steps(opId: string, args: Record<string, unknown>, upstream: unknown, options: VjpOptions = {}): Step {
  if (!Object.hasOwn(OPS, opId)) throw new UnimplementedError(`vjp: unknown op '${opId}'`);
  const op: OpMeta = OPS[opId];
  const g = op.gradient;
  if (!g) throw new UnimplementedError(noGradient(opId, op));
  if (typeof options !== 'object' || options === null) throw new TypeError('vjp: options must be an object');
  for (const k of Object.keys(options))
    if (k !== 'outputs') throw new TypeError(`vjp: unknown option '${k}' (options: outputs)`);
  const given = resolveNames(op, args);
  // The forward arguments as the op takes them: their kinds, dtypes and defaults, checked as a call would check them.
  const bound = bindArgs(op, args);
  for (const arg of Object.keys(g.outputs)) {
    const d = bound.values[arg] as SparseData | DenseData | null;
    // A scalar argument is bound as a plain value: its dtype is its dtype variable's.
    const of = op.args.find((a) => a.name === arg)?.dtype;
    const dtype = isScalar(d) && of !== undefined ? (bound.dtypes[of] ?? of) : d?.dtype;
    if (dtype !== undefined && !FLOATS.has(dtype))
      throw new TypeError(`vjp: ${opId} has gradients for float32 and float64 values; ${arg} is ${dtype}`);
  }
  checkForward(op, bound);
  let outputs = options.outputs === undefined ? undefined : checkGivenOutputs(op, bound, options.outputs);
  const gradArgs: Record<string, unknown> = {};
  for (const [name, b] of Object.entries(g.args)) {
    // An argument left out takes its default in the gradient op, which declares the same.
    if ('arg' in b) {
      if (given.has(b.arg)) gradArgs[name] = given.get(b.arg);
    } else if ('upstream' in b) gradArgs[name] = upstream;
    else if ('not' in b) gradArgs[name] = !bound.values[b.not];
    else if ('dim' in b) gradArgs[name] = (bound.values[b.dim[0]] as SparseData | DenseData).shape[b.dim[1]];
    else {
      outputs ??= yield [opId, args];
      if (!(b.output in outputs)) throw new TypeError(`vjp: options.outputs has no '${b.output}' output of ${opId}`);
      gradArgs[name] = outputs[b.output];
    }
  }
  const grads = yield [g.op, gradArgs];
  // A gradient of a shape other than its argument's can only come of an upstream of the wrong shape (the segment
  // reductions' gradient ops, TensorFlow's raw ops, take any rows): say so.
  for (const [arg, out] of Object.entries(g.outputs)) {
    const d = bound.values[arg] as SparseData | DenseData | null;
    // A scalar argument's gradient is a rank-0 Tensor.
    const want = isScalar(d) ? [] : d === null ? [0] : d.kind === 'dense' ? d.shape : [d.values.length];
    const got = (grads[out] as Tensor).shape;
    if (!sameShape(got, want)) {
      const o = op.outputs[0];
      const shape = o.type === 'dense' ? expectedShape(o, bound) : undefined;
      throw new InvalidArgumentError(
        `vjp: ${opId}: upstream must be the gradient of its output${shape ? `, of shape ${shapeText(shape)}` : ''}; ` +
          `the gradient of ${arg} came out ${shapeText(got)}, not ${shapeText(want)}`,
      );
    }
  }
  return Object.fromEntries(
    op.args.map((a) => {
      const out = g.outputs[a.name];
      if (out === undefined || bound.values[a.name] === null) return [a.name, null];
      const grad = grads[out] as Tensor;
      // An argument the op cast comes back in its own dtype (the gradient of TensorFlow's cast casts back).
      const own = a.castTo ? bound.dtypes[a.dtype!] : grad.dtype;
      if (own === grad.dtype) return [a.name, grad];
      const cast = castTensor(grad, own);
      grad.dispose();
      return [a.name, cast];
    }),
  );
}

/** Why an op has no gradient: TensorFlow's own reason, or else that this library lacks one TensorFlow has. */
function noGradient(opId: string, op: OpMeta): string {
  if (op.notDifferentiable)
    return `vjp: ${opId} has no gradient: TensorFlow declares it not differentiable: ${op.notDifferentiable}`;
  const forward = Object.values(OPS).find((o) => o.gradient?.op === opId);
  if (forward) return `vjp: ${opId} has no gradient: it is the gradient op of ${forward.name}`;
  const where = op.tensorflow?.gradient ? ` (${op.tensorflow.gradient})` : '';
  return `vjp: ${opId} has no gradient here yet, although TensorFlow differentiates it${where}`;
}

/** Whether a bound argument is a scalar's plain value (a number, bigint, string or bool), not a tensor's data. */
const isScalar = (d: unknown): boolean => d !== null && typeof d !== 'object';

/** A float Tensor in the other float dtype. */
function castTensor(t: Tensor, dtype: DType): Tensor {
  return new Tensor(toValues(t.dataSync(), dtype, 'vjp'), t.shape, dtype);
}
