import * as tf from '@tensorflow/tfjs-core';
import {
  CsrMatrix,
  getOpInfo,
  run,
  SparseTensor,
  Tensor,
  vjp as defaultVjp,
  type OpMeta,
  type OutputMeta,
  type Runtime,
} from '@sparse/runtime';
import { fromTf, isTfSparse, isTfTensor, sparseFromTf, sparseToTf, toTf, type TfSparseTensor } from './conversions.js';
import { checkOptions } from './options.js';
import { guard, tie } from './path-guard.js';

/** Options of `runOp`, and of every op's function. */
export interface RunOpOptions {
  /** The runtime to run on (its backend); default: the default runtime, which follows `setBackend`. */
  runtime?: Runtime;
}

/**
 * An output of `runOp`: a TF.js tensor for a dense output, a TfSparseTensor for a sparse one (a list of them for a
 * list output), and a `CsrMatrix` of @sparse/runtime for a CSR matrix, which TF.js has not.
 */
export type TfOutput = tf.Tensor | TfSparseTensor | TfSparseTensor[] | CsrMatrix;

/** A float32 TF.js tensor among the arguments: a dense argument, a TfSparseTensor's values, or one inside a list. */
interface Input {
  arg: string;
  x: tf.Tensor;
  /** Why it has no gradient, where that is not the op's or the argument's lack of one. */
  why?: string;
}

const LISTS = new Set(['sparse_list', 'sparse_or_sparse_list', 'sparse_or_dense_list']);

/**
 * Runs a sparse op inside a TF.js computation. Arguments are keyed by the spec's names, as `rt.run` takes them; a
 * tensor argument may be a TF.js tensor (a dense one), a TfSparseTensor (a sparse one: TF.js indices and values
 * and a dense shape) or a sparse `Tensor` / `SparseTensor` (a constant: a graph's adjacency, say, kept prepared
 * by the wasm backend between calls). Outputs come back keyed by output name: TF.js tensors, and TfSparseTensors
 * for sparse outputs.
 *
 * Where the op has a gradient (its spec's `gradient:`), each float32 TF.js tensor among its differentiable
 * arguments (a dense argument, or the values of a TfSparseTensor) is an input of a `tf.customGrad`, whose gradient
 * is the op's vector-Jacobian product (`rt.vjp`): `tf.grad`, `tf.variableGrads` and the TF.js optimizers see
 * through the op. Any other float32 TF.js tensor is an input too, whose gradient is an error naming the op and the
 * argument: a gradient that reaches it is never dropped in silence. The tensors it returns belong to the TF.js
 * engine as any op's do (`tf.tidy`, `dispose`).
 */
export function runOp(
  opId: string,
  args: Record<string, unknown>,
  options: RunOpOptions = {},
): Record<string, TfOutput> {
  checkOptions('runOp', options, ['runtime']);
  const info = getOpInfo(opId);
  if (!info) throw new TypeError(`runOp: unknown op '${opId}'`);
  const { runtime } = options;
  const wrt = new Set(Object.keys(info.gradient?.outputs ?? {}));
  const slots: Input[] = [];
  const others: Input[] = [];
  const float = (arg: string, x: tf.Tensor, differentiable: boolean) => {
    if (x.dtype === 'float32') (differentiable ? slots : others).push({ arg, x });
  };
  const convert = (arg: string, v: unknown, top: boolean): unknown => {
    if (isTfSparse(v)) {
      float(arg, v.values, top && wrt.has(arg));
      return sparseFromTf(v.indices, v.values, v.denseShape);
    }
    if (isTfTensor(v)) {
      float(arg, v, top && wrt.has(arg));
      return fromTf(v);
    }
    return v;
  };
  const a: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(args)) {
    const meta = info.args.find((m) => m.name === key || m.aliases.includes(key));
    const arg = meta?.name ?? key;
    a[key] =
      meta && LISTS.has(meta.type) && Array.isArray(v) ? v.map((e) => convert(arg, e, false)) : convert(arg, v, true);
  }
  const outputs = runtime ? runtime.run(opId, a) : run(opId, a);
  const first = info.outputs[0];
  // What the op's gradient covers: its first output, a tensor; through a list or a CsrMatrix it cannot flow.
  if (slots.length && first.type !== 'dense' && first.type !== 'sparse' && first.type !== 'sparse_or_dense') {
    others.push(...slots.map((s) => ({ ...s, why: `its output ${first.name} is not a TF.js tensor` })));
    slots.length = 0;
  }
  // Made on first use: an op whose outputs are all int or bool needs none.
  let made: tf.Tensor[] | undefined;
  const guards = () => (made ??= others.map((o) => guard(o.x, noGradient(info, o))));
  const result: Record<string, TfOutput> = {};
  for (const o of info.outputs) {
    const value = outputs[o.name];
    if (o === first && slots.length) {
      result[o.name] = withGradient(info, a, value as SparseTensor | Tensor, outputs, slots, guards(), runtime);
      continue;
    }
    // Another output: what reaches an argument through it has no gradient here, differentiable or not.
    const through = () => [
      ...guards(),
      ...slots.map((s) =>
        guard(
          s.x,
          `${message(info.name, s.arg)} through its output ${o.name}, which its gradient does not cover (only ${first.name}). ${ADVICE}`,
        ),
      ),
    ];
    result[o.name] = outputToTf(info.name, o, value, memo(through));
  }
  return result;
}

/** What to do with a TF.js tensor that reaches an argument without a gradient. */
const ADVICE =
  'Pass it as a constant instead, a Tensor or SparseTensor of @sparse/runtime (fromTf(x), sparseFromTf(indices, values, ' +
  'denseShape)), or compute it outside the function TF.js differentiates';

function message(opId: string, arg: string): string {
  return `${opId}: the gradient reaches its argument ${arg}`;
}

/** The error a gradient reaching `input` of op `info` gets, with the reason: TensorFlow's, where the op info has it. */
function noGradient(info: Readonly<OpMeta>, input: Input): string {
  const { arg } = input;
  const g = info.gradient;
  let why = input.why;
  if (!why && !g) {
    // TensorFlow's own reason, where the op info carries one.
    const reason = (info as { notDifferentiable?: unknown }).notDifferentiable;
    why = `${info.name} has no gradient${typeof reason === 'string' ? ` (${reason.replace(/\.$/, '')})` : ''}`;
  }
  if (!why && g && g.outputs[arg]) why = `TF.js gradients of the tensors inside the list ${arg} are not taken here`;
  why ??= `the gradient of ${info.name} (${g!.op}) gives none for ${arg}`;
  return `${message(info.name, arg)}: ${why}. ${ADVICE}`;
}

/** The op's first output as the value of a tf.customGrad over its differentiable inputs, whose gradient is `vjp`. */
function withGradient(
  info: Readonly<OpMeta>,
  a: Record<string, unknown>,
  out: SparseTensor | Tensor,
  outputs: Record<string, unknown>,
  slots: Input[],
  guards: tf.Tensor[],
  runtime: Runtime | undefined,
): tf.Tensor | TfSparseTensor {
  const f = tf.customGrad((...xs: unknown[]) => ({
    value: out instanceof SparseTensor ? tf.tensor1d(out.values as Float32Array, 'float32') : toTf(out),
    gradFunc: (dy: tf.Tensor | tf.Tensor[]) => {
      const up = fromTf(Array.isArray(dy) ? dy[0] : dy);
      const grads = runtime ? runtime.vjp(info.name, a, up, { outputs }) : defaultVjp(info.name, a, up, { outputs });
      const inputs = xs.slice(0, slots.length + guards.length) as tf.Tensor[];
      // A guarded input gets zeros here: its own guard carries the error, and only if the gradient reaches it.
      return inputs.map((x, k) => {
        const g = k < slots.length ? grads[slots[k].arg] : null;
        return g ? toTf(g) : tf.zerosLike(x);
      });
    },
  }));
  const value = f(...slots.map((s) => s.x), ...guards) as tf.Tensor;
  if (!(out instanceof SparseTensor)) return value;
  return { ...structureOf(out), values: value as tf.Tensor1D };
}

/** A sparse output's indices and dense shape, which carry no gradient. */
function structureOf(st: SparseTensor): Omit<TfSparseTensor, 'values'> {
  return {
    indices: tf.tensor2d(Int32Array.from(st.indexData), [st.values.length, st.denseShape.length], 'int32'),
    denseShape: [...st.denseShape],
  };
}

/** `f`, called once at most. */
function memo<T>(f: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) [value, done] = [f(), true];
    return value;
  };
}

/** TF.js's dtypes, which sparse holds as they are. */
const TF_DTYPES = new Set(['float32', 'int32', 'bool', 'string']);

/** An output as TF.js holds it; a float32 one tied to `inputs` (guards), so that a gradient through it meets them. */
function outputToTf(opId: string, o: OutputMeta, v: unknown, inputs: () => tf.Tensor[]): TfOutput {
  if (v instanceof CsrMatrix) return v;
  if (Array.isArray(v)) return v.map((e) => outputToTf(opId, o, e, inputs) as TfSparseTensor);
  if (!(v instanceof Tensor || v instanceof SparseTensor))
    throw new TypeError(`runOp: ${opId}: its output ${o.name} is ${String(v)}, which TF.js cannot hold`);
  if (!TF_DTYPES.has(v.dtype))
    throw new TypeError(
      `runOp: ${opId}: its output ${o.name} is ${v.dtype}, which TF.js has no dtype for: give it float32 or int32 ` +
        'arguments, or run it with rt.run of @sparse/runtime and narrow the result (toTf, sparseToTf)',
    );
  if (v instanceof Tensor) return v.dtype === 'float32' ? tie(() => toTf(v), inputs()) : toTf(v);
  if (v.dtype !== 'float32') return sparseToTf(v);
  const values = tie(() => tf.tensor1d(v.values as Float32Array, 'float32'), inputs());
  return { ...structureOf(v), values: values as tf.Tensor1D };
}
