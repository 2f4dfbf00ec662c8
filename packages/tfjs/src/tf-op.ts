import * as tf from '@tensorflow/tfjs-core';
import {
  CsrMatrix,
  getOpInfo,
  getRuntime,
  SparseTensor,
  Tensor,
  type OpMeta,
  type OutputMeta,
  type Runtime,
} from '@sparse/runtime';
import { fromTf, isTfSparse, isTfTensor, sparseFromTf, sparseToTf, toTf, type TfSparseTensor } from './conversions.js';
import { checkOptions } from './options.js';
import { guard, tie } from './path-guard.js';
import { sharesTfDevice, sparseOnDevice, tensorOnDevice, tfFromDevice } from './tf-device.js';

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
  /** Its key among the arguments as given (the name, or an alias). */
  key: string;
  x: tf.Tensor;
  /** Whether it went in as a buffer on the device (tf-device.ts), which its gradient takes it as again. */
  onDevice?: boolean;
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
 *
 * Where TF.js runs on its webgpu backend and the runtime on the same GPUDevice (the webgpu backend made with
 * `createWebGpuBackend({ device: tf.backend().device })`), the ops that run at once there (the element-wise and
 * reduction ops, the sparse-dense matmul and its gradient) take float32 and int32 TF.js tensors as their buffers and
 * give their results back as TF.js tensors on the GPU, with nothing read back to the host; what they compute is then
 * WGSL's float32, as TF.js's own webgpu kernels compute it.
 */
export function runOp(
  opId: string,
  args: Record<string, unknown>,
  options: RunOpOptions = {},
): Record<string, TfOutput> {
  checkOptions('runOp', options, ['runtime']);
  const info = getOpInfo(opId);
  if (!info) throw new TypeError(`runOp: unknown op '${opId}'`);
  const rt = options.runtime ?? getRuntime();
  const device = sharesTfDevice(rt) && rt.takesDeviceValues(opId);
  const wrt = new Set(Object.keys(info.gradient?.outputs ?? {}));
  const slots: Input[] = [];
  const others: Input[] = [];
  // What went in as buffers on the device: let go once the outputs are TF.js's.
  const adopted: Tensor[] = [];
  const float = (input: Input, differentiable: boolean) => {
    if (input.x.dtype === 'float32') (differentiable ? slots : others).push(input);
  };
  const convert = (arg: string, key: string, v: unknown, top: boolean): unknown => {
    if (isTfSparse(v)) {
      const held = device ? sparseOnDevice(rt, v) : undefined;
      if (held) adopted.push(held.values);
      float({ arg, key, x: v.values, onDevice: !!held }, top && wrt.has(arg));
      return held?.sparse ?? sparseFromTf(v.indices, v.values, v.denseShape);
    }
    if (isTfTensor(v)) {
      const held = device ? tensorOnDevice(rt, v) : undefined;
      if (held) adopted.push(held);
      float({ arg, key, x: v, onDevice: !!held }, top && wrt.has(arg));
      return held ?? fromTf(v);
    }
    return v;
  };
  const a: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(args)) {
    const meta = info.args.find((m) => m.name === key || m.aliases.includes(key));
    const arg = meta?.name ?? key;
    a[key] =
      meta && LISTS.has(meta.type) && Array.isArray(v)
        ? v.map((e) => convert(arg, key, e, false))
        : convert(arg, key, v, true);
  }
  const outputs = rt.run(opId, a);
  if (!device) refuseDeviceOutputs(info.name, rt, outputs);
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
      result[o.name] = withGradient(info, a, value as SparseTensor | Tensor, outputs, slots, guards(), rt, device);
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
  for (const t of adopted) t.dispose();
  return result;
}

/**
 * Results left on a GPU that TF.js does not share (a webgpu runtime on a device of its own, or TF.js on another
 * backend): TF.js takes tensors at once, and these are only read asynchronously.
 */
function refuseDeviceOutputs(opId: string, rt: Runtime, outputs: Record<string, unknown>): void {
  const held = Object.values(outputs).filter((o) => (o instanceof Tensor || o instanceof SparseTensor) && o.isOnDevice);
  if (!held.length) return;
  for (const o of held) (o as Tensor).dispose();
  throw new TypeError(
    `runOp: ${opId}: the ${rt.backend} runtime left its result on a GPU that TF.js's ${tf.getBackend()} backend does not ` +
      "share. Run TF.js on its webgpu backend with sparse's webgpu backend on TF.js's device " +
      "(registerBackend('webgpu', () => createWebGpuBackend({ device: tf.backend().device }))), or pass a js or wasm runtime",
  );
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

/**
 * The op's first output as the value of a tf.customGrad over its differentiable inputs, whose gradient is `vjp`. On
 * the device the inputs that went in as buffers are kept (`save`) and go in again as buffers for the gradient, and
 * the forward outputs, handed to TF.js, are made again where the gradient needs them.
 */
function withGradient(
  info: Readonly<OpMeta>,
  a: Record<string, unknown>,
  out: SparseTensor | Tensor,
  outputs: Record<string, unknown>,
  slots: Input[],
  guards: tf.Tensor[],
  rt: Runtime,
  device: boolean,
): tf.Tensor | TfSparseTensor {
  const structure = out instanceof SparseTensor ? structureOf(out) : undefined;
  const f = tf.customGrad((...xs: unknown[]) => {
    const save = xs[xs.length - 1] as (tensors: tf.Tensor[]) => void;
    if (device) save(slots.map((s) => s.x));
    return {
      value: valueToTf(out),
      gradFunc: (dy: tf.Tensor | tf.Tensor[], saved: tf.Tensor[]) => {
        const d = Array.isArray(dy) ? dy[0] : dy;
        const held: Tensor[] = [];
        // The gradient op's own kernel takes buffers on the device, or host values (TF.js reads them).
        const gradOnDevice = device && rt.takesDeviceValues(info.gradient!.op);
        const again = (x: tf.Tensor) => {
          const t = gradOnDevice ? tensorOnDevice(rt, x) : undefined;
          if (t) held.push(t);
          return t ?? fromTf(x);
        };
        let args = a;
        if (device) {
          // What went in as buffers may since be TF.js's again: taken anew from the tensors it kept for the gradient.
          args = { ...a };
          slots.forEach((s, k) => {
            if (!s.onDevice) return;
            const given = a[s.key];
            args[s.key] = given instanceof SparseTensor ? given.withValues(again(saved[k])) : again(saved[k]);
          });
        }
        const grads = rt.vjp(info.name, args, again(d), device ? {} : { outputs });
        const inputs = xs.slice(0, slots.length + guards.length) as tf.Tensor[];
        // A guarded input gets zeros here: its own guard carries the error, and only if the gradient reaches it.
        const out = inputs.map((x, k) => {
          const g = k < slots.length ? grads[slots[k].arg] : null;
          return g ? valueToTf(g) : tf.zerosLike(x);
        });
        // The gradients TF.js did not take (of arguments that are not its tensors) are let go too.
        for (const t of [...held, ...Object.values(grads)]) t?.dispose();
        return out;
      },
    };
  });
  const value = f(...slots.map((s) => s.x), ...guards) as tf.Tensor;
  if (!structure) return value;
  return { ...structure, values: value as tf.Tensor1D };
}

/** A result as a TF.js tensor (a SparseTensor's values, [nnz]): on the device, TF.js's copy of its buffer. */
function valueToTf(t: SparseTensor | Tensor): tf.Tensor {
  const shape = t instanceof SparseTensor ? [t.nnz] : t.shape;
  if (t.isOnDevice) return tfFromDevice(t, shape);
  return t instanceof SparseTensor ? tf.tensor1d(t.values as Float32Array, 'float32') : toTf(t);
}

/** A sparse output's indices and dense shape, which carry no gradient. */
function structureOf(st: SparseTensor): Omit<TfSparseTensor, 'values'> {
  return {
    indices: tf.tensor2d(Int32Array.from(st.indexData), [st.nnz, st.denseShape.length], 'int32'),
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
  if (v instanceof Tensor) return v.dtype === 'float32' ? tie(() => valueToTf(v), inputs()) : valueToTf(v);
  if (v.dtype !== 'float32' && !v.isOnDevice) return sparseToTf(v);
  const structure = structureOf(v);
  const values = v.dtype === 'float32' ? tie(() => valueToTf(v), inputs()) : valueToTf(v);
  return { ...structure, values: values as tf.Tensor1D };
}
