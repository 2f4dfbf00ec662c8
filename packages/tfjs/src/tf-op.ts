import * as tf from '@tensorflow/tfjs-core';
import { getOpInfo, run, SparseTensor, Tensor, vjp as defaultVjp, type Runtime } from '@sparse/runtime';
import { fromTf, isTfSparse, isTfTensor, sparseFromTf, sparseToTf, toTf, type TfSparseTensor } from './conversions.js';

/** Options of `runOp`. */
export interface RunOpOptions {
  /** The runtime to run on (its backend); default: the default runtime, which follows `setBackend`. */
  runtime?: Runtime;
}

/** An output of `runOp`: a TF.js tensor for a dense output, a TfSparseTensor for a sparse one. */
export type TfOutput = tf.Tensor | TfSparseTensor;

/** A differentiable TF.js input of a call: a dense argument's tensor, or a sparse argument's values. */
interface Slot {
  arg: string;
  sparse: boolean;
}

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
 * through the op. The tensors it returns belong to the TF.js engine as any op's do (`tf.tidy`, `dispose`).
 */
export function runOp(
  opId: string,
  args: Record<string, unknown>,
  options: RunOpOptions = {},
): Record<string, TfOutput> {
  const info = getOpInfo(opId);
  if (!info) throw new TypeError(`runOp: unknown op '${opId}'`);
  const exec = (id: string, a: Record<string, unknown>) => (options.runtime ? options.runtime.run(id, a) : run(id, a));
  const vjp = (a: Record<string, unknown>, up: unknown, outputs: Record<string, unknown>) =>
    options.runtime ? options.runtime.vjp(opId, a, up, { outputs }) : defaultVjp(opId, a, up, { outputs });
  const wrt = new Set(Object.keys(info.gradient?.outputs ?? {}));
  const slots: Slot[] = [];
  const inputs: tf.Tensor[] = [];
  const constants: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(args)) {
    if (isTfSparse(v)) {
      if (wrt.has(name) && v.values.dtype === 'float32') {
        slots.push({ arg: name, sparse: true });
        inputs.push(v.values);
      } else constants[name] = sparseFromTf(v.indices, v.values, v.denseShape);
    } else if (isTfTensor(v)) {
      if (wrt.has(name) && v.dtype === 'float32') {
        slots.push({ arg: name, sparse: false });
        inputs.push(v);
      } else constants[name] = fromTf(v);
    } else constants[name] = v;
  }
  // The arguments of one call, from the values of its TF.js inputs.
  const argsOf = (xs: tf.Tensor[]) => {
    const a: Record<string, unknown> = { ...constants };
    slots.forEach((s, k) => {
      const v = args[s.arg];
      a[s.arg] = s.sparse
        ? sparseFromTf((v as TfSparseTensor).indices, xs[k], (v as TfSparseTensor).denseShape)
        : fromTf(xs[k]);
    });
    return a;
  };
  if (!slots.length) return toTfOutputs(exec(opId, argsOf([])));
  if (info.outputs.length !== 1)
    throw new TypeError(`runOp: ${opId} has ${info.outputs.length} outputs; a differentiable op has one`);
  const outName = info.outputs[0].name;
  // A sparse output's indices and shape: not differentiated, so they come out beside the customGrad's value.
  let structure: SparseTensor | undefined;
  const f = tf.customGrad((...xs: unknown[]) => {
    // tf.customGrad appends its save function; the closure keeps what the gradient needs instead.
    const a = argsOf(xs.slice(0, slots.length) as tf.Tensor[]);
    const outputs = exec(opId, a);
    const out = outputs[outName] as SparseTensor | Tensor;
    structure = out instanceof SparseTensor ? out : undefined;
    const value = out instanceof SparseTensor ? tf.tensor1d(out.values as Float32Array, 'float32') : toTf(out);
    return {
      value,
      gradFunc: (dy: tf.Tensor | tf.Tensor[]) => {
        const up = fromTf(Array.isArray(dy) ? dy[0] : dy);
        const grads = vjp(a, up, outputs);
        return slots.map((s, k) => {
          const g = grads[s.arg];
          const x = xs[k] as tf.Tensor;
          return g ? toTf(g) : tf.zerosLike(x);
        });
      },
    };
  });
  const value = f(...inputs) as tf.Tensor;
  if (!structure) return { [outName]: value };
  return {
    [outName]: {
      indices: tf.tensor2d(
        Int32Array.from(structure.indexData),
        [structure.values.length, structure.denseShape.length],
        'int32',
      ),
      values: value as tf.Tensor1D,
      denseShape: [...structure.denseShape],
    },
  };
}

/** Outputs of a call with nothing to differentiate, as TF.js tensors. */
function toTfOutputs(outputs: Record<string, unknown>): Record<string, TfOutput> {
  return Object.fromEntries(
    Object.entries(outputs).map(([name, v]) => {
      if (v instanceof SparseTensor) return [name, sparseToTf(v)];
      if (v instanceof Tensor) return [name, toTf(v)];
      throw new TypeError(`runOp: the output ${name} is a list; take it with rt.run`);
    }),
  );
}
