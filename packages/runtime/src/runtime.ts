import {
  clearPool,
  fitSparse,
  sizeOf,
  isDelegation,
  isKernelError,
  pooledBytes,
  type KernelResult,
  type WideSparseData,
  isDeviceValues,
  type DeviceValues,
} from '@sparse/kernel-abi';
import { WIDE_KERNELS } from '@sparse/kernels-js';
import { isAllocationFailure } from './allocation-failure.js';
import { bindArgs, type BoundArgs } from './bind-args.js';
import { wideCallOf } from './wide-call.js';
import { adoptSparse, SparseTensor, sparseDataOf } from './sparse-tensor.js';
import { Tensor, adoptDense, denseDataOf } from './tensor.js';
import { toShape } from './shape.js';
import { CsrMatrix, csrDataOf } from './csr-matrix.js';
import { describe } from './dtype.js';
import { runChecks } from './checks.js';
import { InvalidArgumentError, UnimplementedError } from './errors.js';
import { loadBackend, type Backend } from './backend.js';
import { checkRuntimeOptions, checkThreadsFor, type RuntimeOptions } from './runtime-options.js';
import { guardOutputSizes, wrapOutputs } from './outputs.js';
import { indicesOrdered, validateSparse, validateSparseArgs } from './validate-sparse.js';
import { establishInBounds, establishOrdered, knownInBounds, knownOrdered } from './index-facts.js';
import { defaultMaxBytes } from './byte-budget.js';
import { addHolder } from './tensor-storage.js';
import { warmUp } from './warm-up.js';
import { OPS } from './generated/ops-meta.js';
import { bindAsyncOps, bindOps, type AsyncSparseOps, type SparseOps } from './generated/ops-api.js';
import { JS_SIDE_OPS, type JsSideOps } from './map-values.js';
import type { OpMeta } from './op-meta.js';
import { vjp, vjpAsync, type VjpOptions, type VjpResult } from './vjp.js';

/** An isolated instance: one backend, the typed ops API over it, and the generic `run`. */
export class Runtime {
  /** Every op as a typed function (`rt.sparse.toDense(st)`), and the JS-side ops (`mapValues`). */
  readonly sparse: SparseOps & JsSideOps;
  /**
   * Every op as a typed function returning a promise (`await rt.sparseAsync.toDense(st)`): what a backend that
   * reads its results back asynchronously (webgpu) needs, and the same on every backend.
   */
  readonly sparseAsync: AsyncSparseOps;
  readonly backend: string;
  /** Whether its backend reads results back asynchronously (webgpu): its ops then run through runAsync and sparseAsync. */
  readonly asynchronous: boolean;
  private readonly kernels: Backend['kernels'];
  private readonly indicesValid: Backend['indicesValid'];
  readonly #backend: Backend;
  readonly #limitResident: ((bytes: number) => void) | undefined;

  /** The bytes one op's outputs and working memory may take (RuntimeOptions.maxBytes). */
  readonly maxBytes: number;

  /**
   * The threads its calls may run on: 1, or the wasm backend's `threads` where shared memory is available (a page
   * that is not cross-origin isolated has one) and until its threads fail (it then runs on one, with a warning).
   */
  get threads(): number {
    return this.#backend.threads ?? 1;
  }

  constructor(backend: Backend, options: Pick<RuntimeOptions, 'maxBytes'> = {}) {
    this.backend = backend.name;
    this.asynchronous = backend.asynchronous ?? false;
    this.maxBytes = options.maxBytes ?? defaultMaxBytes();
    this.kernels = backend.kernels;
    this.indicesValid = backend.indicesValid?.bind(backend);
    this.#backend = backend;
    this.#limitResident = backend.limitResident?.bind(backend);
    addHolder(backend);
    this.sparse = { ...bindOps((opId, args) => this.run(opId, args)), ...JS_SIDE_OPS };
    this.sparseAsync = bindAsyncOps((opId, args) => this.runAsync(opId, args));
  }

  /**
   * What this runtime holds between calls: `residentBytes`, the tensors its backend keeps prepared (the wasm
   * backend keeps the indices and values of the tensors it was given in its memory, so that repeated calls on them
   * do not copy them again; counted against `maxBytes`); `pooledBytes`, the buffers of disposed or collected
   * results kept for the next results of their size (shared by every runtime).
   */
  memory(): { residentBytes: number; pooledBytes: number } {
    return { residentBytes: this.#backend.residentBytes?.() ?? 0, pooledBytes: pooledBytes() };
  }

  /**
   * Gives back what this runtime holds between calls: every tensor its backend keeps prepared (the wasm backend
   * also moves to fresh memory) and the pooled buffers of disposed results. The runtime stays usable: later calls
   * prepare their tensors again. To let go of one tensor, `tensor.dispose()`.
   */
  async dispose(): Promise<void> {
    clearPool();
    await this.#backend.dispose?.();
  }

  /**
   * Readies tensors for the calls to come, doing now the work their first call would do: a SparseTensor's indices
   * are checked against its dense shape (an InvalidArgumentError names the first one out of bounds) and its order
   * is noted, so no op checks them again; and the backend keeps what it can prepared between calls (the wasm
   * backend: the indices narrowed, the values and, for a matrix, the row pointers in its memory; a Tensor's data,
   * a CsrMatrix's arrays), counted in `memory().residentBytes` and let go by `dispose()`. For a server that loads
   * its matrices before its first request, which then skips that work. Results are the same with or without it.
   */
  prepare(...tensors: (SparseTensor | Tensor | CsrMatrix)[]): void {
    this.#limitResident?.(this.maxBytes);
    tensors.forEach((t, i) => {
      const where = `prepare: tensors[${i}]`;
      if (t instanceof SparseTensor) {
        const d = sparseDataOf(t);
        if (d.kind !== 'sparse') return; // dims past 2^53 - 1: each call checks them exactly
        if (!knownInBounds(d, true)) {
          validateSparse(d, where, true, this.indicesValid);
          establishInBounds(d, true);
        }
        if (!knownOrdered(d) && indicesOrdered(d.indices, d.values.length, d.shape.length)) establishOrdered(d);
        this.#backend.prepare?.(d);
      } else if (t instanceof Tensor) this.#backend.prepare?.(denseDataOf(t));
      else if (t instanceof CsrMatrix) this.#backend.prepare?.(csrDataOf(t));
      else throw new TypeError(`${where} must be a SparseTensor, Tensor or CsrMatrix; got ${describe(t)}`);
    });
  }

  /** The GPU device this runtime's backend runs on (the webgpu backend's GPUDevice); undefined where it has none. */
  get gpuDevice(): unknown {
    return this.#backend.device;
  }

  /**
   * A dense Tensor of `shape` whose values are a buffer of this runtime's GPU device, as TF.js's
   * `tf.tensor({ buffer }, shape, dtype)` takes one (`t.dataToGPU()` gives one back): row-major, float32 or int32, at
   * least 4 bytes a value; the buffer is used as it is, not copied, so it must not change while the tensor lives.
   * `onRelease` is called once the tensor lets go of it (disposed, read, or collected) and the work recorded on it is
   * submitted. What the GPU computes from such values is WGSL's float32, as the device's other users compute, not
   * screened for the subnormals and special values that GPUs may compute otherwise than TensorFlow. The webgpu
   * backend only.
   */
  fromGPUBuffer(
    buffer: unknown,
    shape: readonly number[],
    dtype: 'float32' | 'int32' = 'float32',
    options: { onRelease?: () => void } = {},
  ): Tensor {
    const adopt = this.#backend.adoptBuffer;
    if (!adopt)
      throw new TypeError(`fromGPUBuffer: the ${this.backend} backend holds no GPU buffers (the webgpu backend does)`);
    if (dtype !== 'float32' && dtype !== 'int32')
      throw new TypeError(`fromGPUBuffer: dtype must be float32 or int32, got ${describe(dtype)}`);
    for (const key of Object.keys(options))
      if (key !== 'onRelease') throw new TypeError(`fromGPUBuffer: unknown option '${key}'; the option is onRelease`);
    if (options.onRelease !== undefined && typeof options.onRelease !== 'function')
      throw new TypeError(`fromGPUBuffer: onRelease must be a function, got ${describe(options.onRelease)}`);
    const dims = toShape(shape, 'fromGPUBuffer: shape');
    const values = adopt.call(this.#backend, buffer, dtype, sizeOf(dims), options.onRelease);
    return adoptDense({ kind: 'dense', data: values as never, shape: dims, dtype });
  }

  /** Whether the op, called at once, takes values that live on this runtime's device (webgpu: map, cwise, reduce, SpMM and its gradient). */
  takesDeviceValues(opId: string): boolean {
    return !!this.#backend.deviceOps?.has(opId);
  }

  /** Whether the op exists and this runtime's backend has a kernel for it. */
  hasOp(opId: string): boolean {
    return Object.hasOwn(OPS, opId) && typeof this.kernelOf(opId) === 'function';
  }

  private kernelOf(
    opId: string,
  ): ((args: Record<string, unknown>) => KernelOutcome | Promise<KernelOutcome>) | undefined {
    return Object.hasOwn(this.kernels, opId) ? (this.kernels[opId as keyof Backend['kernels']] as never) : undefined;
  }

  /**
   * Runs an op by id with arguments keyed by the spec's argument names (snake_case; deprecated aliases accepted)
   * and returns its outputs keyed by the spec's output names. Arguments are converted, validated and checked
   * here, the same for every backend, before the backend's kernel sees them.
   */
  run(opId: string, args: Record<string, unknown>): Record<string, unknown> {
    return this.runWithReport(opId, args).outputs;
  }

  /**
   * The vector-Jacobian product of an op, as TensorFlow's registered gradients compute it: given the op's
   * arguments (as `run` takes them) and `upstream`, the gradient of a loss with respect to the op's output (of its
   * stored values, one per entry in their order, for a sparse output; of the whole tensor for a dense one), the
   * gradient of the loss with respect to each argument, keyed by argument name: a Tensor for a differentiable one
   * (for a SparseTensor argument, the gradient of its stored values, shape [nnz], as TensorFlow's with respect to
   * `sp_input.values`; for a dense one, its shape), null for the others (indices, shapes, ints, flags, `thresh`).
   * The gradient is an op of its own (its spec's `gradient:`, `docs/ops.md`), run on this runtime's backend.
   * Float32 and float64 values only; an op without a gradient is an UnimplementedError.
   */
  vjp(opId: string, args: Record<string, unknown>, upstream: unknown, options?: VjpOptions): VjpResult {
    return vjp((id, a) => this.run(id, a), opId, args, upstream, options);
  }

  /** `vjp`, returning a promise: for a backend that reads its results back asynchronously (webgpu). */
  vjpAsync(opId: string, args: Record<string, unknown>, upstream: unknown, options?: VjpOptions): Promise<VjpResult> {
    return vjpAsync((id, a) => this.runAsync(id, a), opId, args, upstream, options);
  }

  /**
   * `run`, returning a promise of the outputs: on a backend that reads its results back asynchronously (webgpu),
   * the way to run an op; on the others the same as `run`. An error `run` would throw rejects the promise.
   */
  runAsync(opId: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.runWithReportAsync(opId, args).then((r) => r.outputs);
  }

  /**
   * `run`, and whether the backend handed the op to another backend's kernel (a declared fallback) and why:
   * the conformance report shows such a result as `delegated`, not `passed`.
   */
  runWithReport(opId: string, args: Record<string, unknown>): Reported {
    // A backend whose kernels return promises may have kernels that run at once (webgpu: the work recorded on its
    // device, the results left there until read).
    const atOnce = this.asynchronous ? this.#backend.synchronousKernels : undefined;
    const asyncError = () =>
      new UnimplementedError(
        `${opId}: the ${this.backend} backend reads its results back asynchronously: use await rt.runAsync('${opId}', args), or the same op on rt.sparseAsync`,
      );
    if (this.asynchronous && !(atOnce && Object.hasOwn(atOnce, opId))) throw asyncError();
    const call = this.call(opId, args, atOnce);
    if ('outputs' in call) return call;
    const out = call.start();
    if (isPromise(out)) {
      out.catch(() => undefined);
      throw asyncError();
    }
    return call.finish(out);
  }

  /** `runWithReport`, returning a promise (`runAsync`). Arguments whose values live on a device are read first. */
  async runWithReportAsync(opId: string, args: Record<string, unknown>): Promise<Reported> {
    await readDeviceTensors(Object.values(args));
    const call = this.call(opId, args);
    if ('outputs' in call) return call;
    return call.finish(await call.start());
  }

  // An op's call up to its kernel: arguments bound, converted and checked, sizes guarded. `start` runs the kernel
  // (a promise of its result on an asynchronous backend), `finish` checks and wraps what it returned. An op of
  // `wide_dims: exact` on a dim past 2^53 - 1 runs its BigInt kernel here at once.
  private call(
    opId: string,
    args: Record<string, unknown>,
    table?: Backend['synchronousKernels'],
  ): Reported | { start(): KernelOutcome | Promise<KernelOutcome>; finish(out: KernelOutcome): Reported } {
    if (!Object.hasOwn(OPS, opId)) throw new UnimplementedError(`unknown op '${opId}'`);
    const op = OPS[opId];
    const kernel = table ? (table[opId as keyof typeof table] as ReturnType<Runtime['kernelOf']>) : this.kernelOf(opId);
    if (!kernel) throw new UnimplementedError(`${opId} has no kernel on the ${this.backend} backend`);
    const bound = bindArgs(op, args);
    this.checkDeviceValues(opId, bound.values);
    const wide = wideCallOf(op, bound);
    if (wide?.exact) return { outputs: this.runExact(op, { ...bound, values: wide.values }) };
    const call = wide ? { ...bound, values: wide.values } : bound;
    const failed = (e: unknown) => (wide ? wide.exactError(kernelFailure(opId, e)) : kernelFailure(opId, e));
    try {
      this.validateInputs(op, call);
      runChecks(op, call.values);
      const need = guardOutputSizes(op, call, this.maxBytes);
      // What the backend keeps prepared between calls shares the budget with this call.
      if (this.#limitResident) this.#limitResident(this.maxBytes - need);
    } catch (e) {
      throw wide ? wide.exactError(e) : e;
    }
    return {
      start: () => {
        try {
          const out = kernel(call.values);
          return isPromise(out) ? out.catch((e) => Promise.reject(failed(e))) : out;
        } catch (e) {
          throw failed(e);
        }
      },
      finish: (out) => {
        try {
          const [outputs, delegated] = isDelegation(out) ? [out.outputs, out.reason] : [out, undefined];
          return { outputs: wrapOutputs(op, call, outputs, this.backend, wide?.widen), delegated };
        } catch (e) {
          throw wide ? wide.exactError(e) : e;
        }
      },
    };
  }

  // Values that live on a device reach only that device's kernels that take them (the webgpu backend's at-once
  // kernels of the ops it lists); anywhere else the call says to read them first.
  private checkDeviceValues(opId: string, values: Record<string, unknown>): void {
    for (const [name, held] of deviceValuesIn(values)) {
      if (held.backend !== this.backend)
        throw new InvalidArgumentError(
          `${opId}: ${name} holds values that live on the ${held.backend} device, not on this runtime's ${this.backend} backend: read them first (await t.data())`,
        );
      if (!this.#backend.deviceOps?.has(opId))
        throw new InvalidArgumentError(
          `${opId}: ${name} holds values that live on the ${held.backend} device, and ${opId} has no kernel there that takes them at once: run it with rt.runAsync (or the same op on rt.sparseAsync), which reads them, or read them first (await t.data())`,
        );
    }
  }

  // Every index of the sparse arguments within its dense shape, unless a tensor is known to be (wide data is
  // checked exactly by wideCallOf).
  private validateInputs(op: OpMeta, bound: BoundArgs): void {
    validateSparseArgs(op, bound, this.indicesValid);
  }

  // An op of `wide_dims: exact` with a dim past 2^53 - 1: its BigInt kernel, the same on every backend.
  private runExact(op: OpMeta, bound: BoundArgs): Record<string, unknown> {
    this.validateInputs(op, bound);
    runChecks(op, bound.values);
    guardOutputSizes(op, bound, this.maxBytes);
    const out = WIDE_KERNELS[op.name](bound.values);
    return Object.fromEntries(op.outputs.map((o) => [o.name, adoptSparse(fitSparse(out[o.name] as WideSparseData))]));
  }
}

/** What a kernel returns: its outputs, or a delegation carrying them. */
type KernelOutcome = KernelResult<Record<string, unknown>>;

/** An op's outputs keyed by name, and why the backend handed it to the JS kernels if it did. */
export interface Reported {
  outputs: Record<string, unknown>;
  delegated?: string;
}

const isPromise = (x: unknown): x is Promise<KernelOutcome> =>
  typeof (x as Promise<unknown> | null)?.then === 'function';

/** A kernel's own error as the runtime reports it: bad data is an InvalidArgumentError naming the op. */
function kernelFailure(opId: string, e: unknown): unknown {
  if (isKernelError(e)) return new InvalidArgumentError(`${opId}: ${e.message}`);
  if (isAllocationFailure(e))
    return new InvalidArgumentError(`${opId}: the result does not fit in memory (${e.message})`);
  return e;
}

/** The arguments (by name) whose values live on a device: a tensor's, or one in a list of them. */
function deviceValuesIn(values: Record<string, unknown>): [string, DeviceValues][] {
  const found: [string, DeviceValues][] = [];
  const visit = (name: string, x: unknown) => {
    if (Array.isArray(x)) x.forEach((item, i) => visit(`${name}[${i}]`, item));
    else if (typeof x === 'object' && x !== null) {
      const d = x as { kind?: string; values?: unknown; data?: unknown };
      const held = d.kind === 'dense' ? d.data : d.kind === 'sparse' || d.kind === 'csr' ? d.values : undefined;
      if (isDeviceValues(held)) found.push([name, held]);
    }
  };
  for (const [name, x] of Object.entries(values)) visit(name, x);
  return found;
}

/** Reads into host memory the tensors among `args` (and in lists among them) whose values live on a device. */
async function readDeviceTensors(args: readonly unknown[]): Promise<void> {
  for (const x of args) {
    if (Array.isArray(x)) await readDeviceTensors(x);
    else if ((x instanceof SparseTensor || x instanceof Tensor) && x.isOnDevice) await x.data();
  }
}

/** A new runtime on the named backend (`js`, the default, needs no setup), warmed up (warm-up.ts). */
export async function createRuntime(options?: RuntimeOptions): Promise<Runtime> {
  const checked = checkRuntimeOptions(options, 'createRuntime');
  checkThreadsFor(checked.backend ?? 'js', checked, 'createRuntime');
  const rt = new Runtime(await loadBackend(checked.backend ?? 'js', checked), checked);
  try {
    warmUp(rt);
  } catch {
    // A backend that lacks an op (one registered by an app, say) is warmed up as far as it goes.
  }
  return rt;
}

/** The ids of every op of the project. */
export function listOps(): string[] {
  return Object.keys(OPS);
}

/** What the spec says of an op: its arguments (names, kinds, defaults, aliases), outputs, dtypes and checks. */
export function getOpInfo(opId: string): Readonly<OpMeta> | undefined {
  return Object.hasOwn(OPS, opId) ? OPS[opId] : undefined;
}
