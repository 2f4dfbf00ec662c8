import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { describe, getValue, isDType, isIntegerDType, toScalar, zeroOf, type DType } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import type { ArgMeta, OpMeta } from './op-meta.js';
import { shapeText, toShape } from './shape.js';
import { SparseTensor } from './sparse-tensor.js';
import { Tensor, tensor } from './tensor.js';

/** An op's arguments in kernel form (SparseData, DenseData, Scalar, numbers...), keyed by spec name, defaults filled in. */
export interface BoundArgs {
  values: Record<string, unknown>;
  /** The dtype each dtype variable took. */
  dtypes: Record<string, DType>;
}

/** A tensor argument once its kind is known; `pending` holds a plain value still to convert with its dtype. */
type Tensorish =
  | { kind: 'sparse'; value: SparseTensor }
  | { kind: 'sparse_list'; value: SparseTensor[] }
  | { kind: 'dense'; value: Tensor }
  | { kind: 'pending'; value: unknown };

const isPlainSparse = (v: unknown): v is Parameters<typeof SparseTensor.fromJSON>[0] =>
  typeof v === 'object' &&
  v !== null &&
  'indices' in v &&
  'values' in v &&
  'dense_shape' in v &&
  !(v instanceof Tensor);

/**
 * Binds raw arguments (keyed by spec names or their deprecated aliases) to an op: converts them as TensorFlow
 * converts Python values, unifies dtype variables, fills defaults. Wrong kinds and dtypes are TypeErrors naming the argument.
 */
export function bindArgs(op: OpMeta, raw: Record<string, unknown>): BoundArgs {
  if (typeof raw !== 'object' || raw === null)
    throw new TypeError(`${op.name}: arguments must be an object keyed by argument name`);
  const given = resolveNames(op, raw);
  const bindings = new Map<string, { dtype: DType; from: string }>();
  const bind = (a: ArgMeta, dtype: DType) => {
    const v = a.dtype!;
    if (isDType(v)) {
      if (dtype !== v) throw new TypeError(`${op.name}: ${a.name} must be ${v}, got ${dtype}`);
      return;
    }
    const prev = bindings.get(v);
    if (!prev) bindings.set(v, { dtype, from: a.name });
    else if (prev.dtype !== dtype) {
      throw new TypeError(
        `${op.name}: ${a.name} has dtype ${dtype} but ${prev.from} has dtype ${prev.dtype}; both must be the same ${v}`,
      );
    }
  };

  // Tensors that carry a dtype bind the dtype variables first; plain values then take the bound dtype.
  const tensors = new Map<string, Tensorish>();
  for (const a of op.args) {
    if (!given.has(a.name) || a.dtype === undefined) continue;
    const t = classify(op, a, given.get(a.name));
    tensors.set(a.name, t);
    if (t.kind === 'sparse' || t.kind === 'dense') bind(a, t.value.dtype);
    if (t.kind === 'sparse_list') for (const s of t.value) bind(a, s.dtype);
  }
  for (const a of op.args) {
    const t = tensors.get(a.name);
    if (t?.kind !== 'pending') continue;
    const want = isDType(a.dtype!) ? (a.dtype as DType) : bindings.get(a.dtype!)?.dtype;
    const converted = convertPlain(op, a, t.value, want);
    tensors.set(a.name, { kind: 'dense', value: converted });
    bind(a, converted.dtype);
  }
  const dtypes: Record<string, DType> = {};
  for (const [v, allowed] of Object.entries(op.dtypes)) {
    const b = bindings.get(v);
    if (!b) continue;
    if (!allowed.includes(b.dtype)) {
      throw new TypeError(
        `${op.name}: ${b.from} has dtype ${b.dtype}; ${op.name} takes ${v} in {${allowed.join(', ')}}`,
      );
    }
    dtypes[v] = b.dtype;
  }
  const dtypeOf = (a: ArgMeta): DType =>
    isDType(a.dtype!) ? (a.dtype as DType) : (dtypes[a.dtype!] ?? op.dtypes[a.dtype!][0]);

  const values: Record<string, unknown> = {};
  for (const a of op.args) {
    const t = tensors.get(a.name);
    if (t) values[a.name] = toKernelForm(op, a, t);
    else if (given.has(a.name)) values[a.name] = readPlainArg(op, a, given.get(a.name));
    else if (a.default === undefined) throw new TypeError(`${op.name}: the required argument '${a.name}' is missing`);
    else if (a.type === 'scalar')
      values[a.name] =
        a.default === 'zero' ? zeroOf(dtypeOf(a)) : toScalar(a.default, dtypeOf(a), `${op.name}: ${a.name}`);
    else values[a.name] = readPlainArg(op, a, a.default);
  }
  return { values, dtypes };
}

/** Maps given names (and deprecated aliases) to spec names; undefined counts as not given. */
function resolveNames(op: OpMeta, raw: Record<string, unknown>): Map<string, unknown> {
  const given = new Map<string, unknown>();
  const via = new Map<string, string>();
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const a = op.args.find((x) => x.name === key || x.aliases.includes(key));
    if (!a)
      throw new TypeError(
        `${op.name}: unknown argument '${key}' (arguments: ${op.args.map((x) => x.name).join(', ')})`,
      );
    if (given.has(a.name))
      throw new TypeError(`${op.name}: '${a.name}' is given twice (as '${via.get(a.name)}' and '${key}')`);
    given.set(a.name, value);
    via.set(a.name, key);
  }
  return given;
}

function classify(op: OpMeta, a: ArgMeta, v: unknown): Tensorish {
  const where = `${op.name}: ${a.name}`;
  const asSparse = (x: unknown, w: string): SparseTensor => {
    if (x instanceof SparseTensor) return x;
    if (isPlainSparse(x)) return SparseTensor.fromJSON(x);
    throw new TypeError(`${w} must be a SparseTensor, got ${describe(x)}`);
  };
  switch (a.type) {
    case 'sparse':
      return { kind: 'sparse', value: asSparse(v, where) };
    case 'sparse_list':
      if (!Array.isArray(v)) throw new TypeError(`${where} must be a list of SparseTensors, got ${describe(v)}`);
      return { kind: 'sparse_list', value: v.map((x, i) => asSparse(x, `${where}[${i}]`)) };
    case 'sparse_or_sparse_list':
      if (Array.isArray(v)) return { kind: 'sparse_list', value: v.map((x, i) => asSparse(x, `${where}[${i}]`)) };
      return { kind: 'sparse', value: asSparse(v, where) };
    case 'sparse_or_dense':
      if (v instanceof SparseTensor || isPlainSparse(v)) return { kind: 'sparse', value: asSparse(v, where) };
      return v instanceof Tensor ? { kind: 'dense', value: v } : { kind: 'pending', value: v };
    default:
      if (v instanceof SparseTensor || isPlainSparse(v))
        throw new TypeError(`${where} must be a dense tensor, got a SparseTensor`);
      return v instanceof Tensor ? { kind: 'dense', value: v } : { kind: 'pending', value: v };
  }
}

function convertPlain(op: OpMeta, a: ArgMeta, v: unknown, dtype: DType | undefined): Tensor {
  try {
    return tensor(v, dtype);
  } catch (e) {
    if (e instanceof TypeError || e instanceof InvalidArgumentError) {
      const Err = e instanceof TypeError ? TypeError : InvalidArgumentError;
      throw new Err(`${op.name}: ${a.name}: ${e.message.replace(/^tensor: /, '')}`);
    }
    throw e;
  }
}

function toKernelForm(op: OpMeta, a: ArgMeta, t: Tensorish): SparseData | SparseData[] | DenseData | unknown {
  switch (t.kind) {
    case 'sparse':
      return t.value.toData();
    case 'sparse_list':
      return t.value.map((s) => s.toData());
    case 'dense':
      if (a.type === 'scalar') {
        if (t.value.rank !== 0)
          throw new InvalidArgumentError(
            `${op.name}: ${a.name} must be a scalar, got shape ${shapeText(t.value.shape)}`,
          );
        return getValue(t.value.data, 0);
      }
      return t.value.toData();
    case 'pending':
      throw new Error('unreachable: pending tensors are converted before');
  }
}

/** Plain (non-tensor) arguments: whole numbers, booleans, lists of whole numbers, shapes, axes. */
function readPlainArg(op: OpMeta, a: ArgMeta, v: unknown): unknown {
  const where = `${op.name}: ${a.name}`;
  // An argument whose default is null (None in TensorFlow) takes null.
  if (v === null && a.default === null) return null;
  switch (a.type) {
    case 'int': {
      const n = typeof v === 'bigint' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isInteger(n))
        throw new TypeError(`${where} must be a whole number, got ${describe(v)}`);
      return n;
    }
    case 'bool':
      if (typeof v !== 'boolean') throw new TypeError(`${where} must be true or false, got ${describe(v)}`);
      return v;
    case 'int_list':
      return intList(where, v);
    case 'int_or_int_list':
      return typeof v === 'number' || typeof v === 'bigint'
        ? readPlainArg(op, { ...a, type: 'int' }, v)
        : intList(where, v);
    case 'shape':
      return toShape(intList(where, v), where);
    case 'axes':
      if (v === null) return null;
      return typeof v === 'number' || typeof v === 'bigint' ? intList(where, [v]) : intList(where, v);
    default:
      throw new Error(`unreachable: ${a.type} is a tensor argument`);
  }
}

function intList(where: string, v: unknown): number[] {
  let items: ArrayLike<unknown>;
  if (v instanceof Tensor) {
    if (!isIntegerDType(v.dtype) || v.rank !== 1)
      throw new TypeError(`${where} must be a 1-D integer tensor, got ${v.dtype} of shape ${shapeText(v.shape)}`);
    items = v.data as ArrayLike<unknown>;
  } else if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    items = v as unknown as ArrayLike<unknown>;
  } else {
    throw new TypeError(`${where} must be a list of whole numbers, got ${describe(v)}`);
  }
  return Array.from(items, (x, i) => {
    const n = typeof x === 'bigint' ? Number(x) : x;
    if (typeof n !== 'number') throw new TypeError(`${where}[${i}] must be a whole number, got ${describe(x)}`);
    if (!Number.isSafeInteger(n))
      throw new InvalidArgumentError(`${where}[${i}] = ${describe(x)} is not a whole number`);
    return n;
  });
}
