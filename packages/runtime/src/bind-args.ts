import type { CsrData, DenseData, SparseData, WideSparseData } from '@sparse/kernel-abi';
import { describe, getValue, isDType, isIntegerDType, toScalar, toValues, zeroOf, type DType } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { isList, trustedList } from './list-input.js';
import { isPlainObject } from './plain-object.js';
import { isTfJsTensor, tfJsHint } from './foreign-input.js';
import type { ArgMeta, OpMeta } from './op-meta.js';
import { MAX_RANK, shapeText, toExactShape, toShape } from './shape.js';
import { SparseTensor, sparseDataOf, sparseFromPlain } from './sparse-tensor.js';
import { Tensor, denseDataOf, denseFromPlain } from './tensor.js';
import { CsrMatrix, csrDataOf, csrFromPlain } from './csr-matrix.js';
import { readInt64, readWholeNumber } from './whole-number.js';

/** An op's arguments in kernel form (SparseData, DenseData, Scalar, numbers...), keyed by spec name, defaults filled in. */
export interface BoundArgs {
  values: Record<string, unknown>;
  /** The dtype each dtype variable took. */
  dtypes: Record<string, DType>;
}

/** A tensor argument once its kind is known; `pending` holds a plain value still to convert with its dtype. */
type Tensorish =
  | { kind: 'sparse'; value: SparseData | WideSparseData }
  | { kind: 'sparse_list'; value: (SparseData | WideSparseData)[] }
  | { kind: 'mixed_list'; value: (SparseData | WideSparseData | DenseData)[] }
  | { kind: 'dense'; value: DenseData }
  | { kind: 'csr'; value: CsrData }
  | { kind: 'pending'; value: unknown };

const isPlainSparse = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  'indices' in v &&
  'values' in v &&
  ('dense_shape' in v || 'denseShape' in v) &&
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

  // A dtype argument binds its variable to the dtype it names (its default, where it is not given).
  for (const a of op.args) {
    if (a.type !== 'dtype') continue;
    const v = given.has(a.name) ? given.get(a.name) : a.default;
    if (v !== undefined) bind(a, readDTypeName(op, a, v));
  }
  // Tensors that carry a dtype bind the dtype variables next; plain values then take the bound dtype.
  const tensors = new Map<string, Tensorish>();
  for (const a of op.args) {
    if (
      !given.has(a.name) ||
      a.dtype === undefined ||
      a.type === 'dtype' ||
      (given.get(a.name) === null && takesNull(a))
    )
      continue;
    const t = classify(op, a, given.get(a.name));
    tensors.set(a.name, t);
    if (t.kind === 'sparse' || t.kind === 'dense' || t.kind === 'csr') bind(a, t.value.dtype);
    if (t.kind === 'sparse_list') for (const s of t.value) bind(a, s.dtype);
    if (t.kind === 'mixed_list') t.value.forEach((x, i) => checkItemDtype(op, a, x.dtype, i));
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
  // A variable no argument bound (its optional arguments left out) takes the dtype of its fallback, if any.
  for (const [v, from] of Object.entries(op.dtypeFallbacks))
    if (dtypes[v] === undefined && dtypes[from] !== undefined) dtypes[v] = dtypes[from];
  const dtypeOf = (a: ArgMeta): DType =>
    isDType(a.dtype!) ? (a.dtype as DType) : (dtypes[a.dtype!] ?? op.dtypes[a.dtype!][0]);

  const values: Record<string, unknown> = {};
  for (const a of op.args) {
    const t = tensors.get(a.name);
    if (t && a.castTo)
      values[a.name] = castFloats(
        toKernelForm(op, a, t) as SparseData | DenseData,
        dtypes[a.castTo],
        `${op.name}: ${a.name}`,
      );
    else if (t) values[a.name] = toKernelForm(op, a, t);
    else if (given.has(a.name)) values[a.name] = readPlainArg(op, a, given.get(a.name));
    else if (a.default === undefined) throw new TypeError(`${op.name}: the required argument '${a.name}' is missing`);
    else if (a.default === null) values[a.name] = null;
    else if (a.type === 'scalar')
      values[a.name] =
        a.default === 'zero' ? zeroOf(dtypeOf(a)) : toScalar(a.default, dtypeOf(a), `${op.name}: ${a.name}`);
    else values[a.name] = readPlainArg(op, a, a.default);
  }
  return { values, dtypes };
}

/** Whether an argument takes null: one whose default is null (None in TensorFlow), or a SparseTensor-or-null. */
const takesNull = (a: ArgMeta): boolean => a.default === null || a.type === 'sparse_or_null';
/**
 * The items of a sparse_or_dense_list each take a dtype of their own among those its dtype variable allows
 * (TensorFlow's list(type) attrs): checked one by one, never unified.
 */
function checkItemDtype(op: OpMeta, a: ArgMeta, dtype: DType, i: number): void {
  const allowed = isDType(a.dtype!) ? [a.dtype as DType] : op.dtypes[a.dtype!];
  if (!allowed.includes(dtype))
    throw new TypeError(
      `${op.name}: ${a.name}[${i}] has dtype ${dtype}; ${op.name} takes ${a.name} of {${allowed.join(', ')}}`,
    );
}

/** Maps given names (and deprecated aliases) to spec names; undefined counts as not given. */
export function resolveNames(op: OpMeta, raw: Record<string, unknown>): Map<string, unknown> {
  const given = new Map<string, unknown>();
  const via = new Map<string, string>();
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const a = op.args.find((x) => x.name === key || x.aliases.includes(key));
    if (!a)
      throw new TypeError(
        `${op.name}: unknown argument '${key}' (arguments: ${op.args.map((x) => x.name).join(', ')})`,
      );
    // null asks for a default of null (TensorFlow's None), a tensor argument's too, or for the default where
    // TensorFlow reads None as it.
    if (value === null && (a.default === null || a.noneMeansDefault)) continue;
    if (given.has(a.name))
      throw new TypeError(`${op.name}: '${a.name}' is given twice (as '${via.get(a.name)}' and '${key}')`);
    given.set(a.name, value);
    via.set(a.name, key);
  }
  return given;
}

/** A tensor argument, unless it was disposed: that one holds no data (TensorFlow.js refuses it too). */
function live<T extends SparseTensor | Tensor | CsrMatrix>(t: T, where: string): T {
  if (t.isDisposed) {
    throw new InvalidArgumentError(
      `${where}: the ${t instanceof SparseTensor ? 'SparseTensor' : t instanceof CsrMatrix ? 'CsrMatrix' : 'Tensor'} was disposed (dispose() gave its memory back), so it holds no data`,
    );
  }
  return t;
}

function classify(op: OpMeta, a: ArgMeta, v: unknown): Tensorish {
  const where = `${op.name}: ${a.name}`;
  // A TensorFlow.js tensor, anywhere a tensor goes (in a list too): refused with the conversion to write.
  const foreign = (x: unknown, w: string) => {
    if (isTfJsTensor(x)) throw new TypeError(tfJsHint(w, a.type.startsWith('sparse') && a.type !== 'sparse_or_dense'));
  };
  if (!Array.isArray(v)) foreign(v, where);
  const asSparse = (x: unknown, w: string): SparseData | WideSparseData => {
    foreign(x, w);
    if (x instanceof SparseTensor) return sparseDataOf(live(x, w));
    if (isPlainObject(x)) return sparseDataOf(sparseFromPlain(x, w, (part) => `${w}.${part}`));
    throw new TypeError(`${w} must be a SparseTensor, got ${describe(x)}`);
  };
  // Entry by entry, holes included (`map` would skip the holes of `new Array(n)` and keep its length).
  const sparseList = (list: unknown[]): (SparseData | WideSparseData)[] => {
    const out: (SparseData | WideSparseData)[] = [];
    for (let i = 0; i < list.length; i++) out.push(asSparse(list[i], `${where}[${i}]`));
    return out;
  };
  const dense = (x: unknown): Tensorish =>
    x instanceof Tensor ? { kind: 'dense', value: denseDataOf(live(x, where)) } : { kind: 'pending', value: x };
  switch (a.type) {
    case 'csr':
      if (v instanceof CsrMatrix) return { kind: 'csr', value: csrDataOf(live(v, where)) };
      if (isPlainObject(v)) return { kind: 'csr', value: csrDataOf(csrFromPlain(v, where, (p) => `${where}.${p}`)) };
      throw new TypeError(`${where} must be a CsrMatrix, got ${describe(v)}`);
    case 'sparse':
    case 'sparse_or_null':
      return { kind: 'sparse', value: asSparse(v, where) };
    case 'sparse_list':
      if (!Array.isArray(v)) throw new TypeError(`${where} must be a list of SparseTensors, got ${describe(v)}`);
      return { kind: 'sparse_list', value: sparseList(v) };
    case 'sparse_or_sparse_list':
      if (Array.isArray(v)) return { kind: 'sparse_list', value: sparseList(v) };
      return { kind: 'sparse', value: asSparse(v, where) };
    case 'sparse_or_dense':
      if (v instanceof SparseTensor || isPlainSparse(v)) return { kind: 'sparse', value: asSparse(v, where) };
      return dense(v);
    case 'sparse_or_dense_list': {
      if (!Array.isArray(v))
        throw new TypeError(`${where} must be a list of SparseTensors and dense tensors, got ${describe(v)}`);
      // Each item is converted by itself: a plain value takes the dtype its own values call for.
      const items: (SparseData | WideSparseData | DenseData)[] = [];
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        const at = `${where}[${i}]`;
        foreign(x, at);
        if (x instanceof SparseTensor || isPlainSparse(x)) items.push(asSparse(x, at));
        else if (x instanceof Tensor) items.push(denseDataOf(live(x, at)));
        else items.push(denseFromPlain(x, undefined, undefined, at));
      }
      return { kind: 'mixed_list', value: items };
    }
    default:
      if (v instanceof SparseTensor || isPlainSparse(v))
        throw new TypeError(`${where} must be a dense tensor, got a SparseTensor`);
      if (v instanceof CsrMatrix) throw new TypeError(`${where} must be a dense tensor, got a CsrMatrix`);
      return dense(v);
  }
}

/**
 * A plain value for a tensor argument, converted as TensorFlow converts it: to `dtype` once the argument's dtype is
 * known. Otherwise it takes the dtype its values call for, unless the argument does not take that one and its dtype
 * variable has a default (TensorFlow's default of the op's type attr, its "preferred dtype": an empty list, float32
 * by itself, becomes int32 ids): it is converted again to the default. Without a default, or where the value does
 * not hold the default either, the dtype it has stands, refused by `bindArgs` as not taken (a TypeError).
 */
function convertPlain(op: OpMeta, a: ArgMeta, v: unknown, dtype: DType | undefined): DenseData {
  const what = `${op.name}: ${a.name}`;
  const inferred = denseFromPlain(v, dtype, undefined, what);
  if (dtype !== undefined) return inferred;
  const preferred = op.dtypeDefaults[a.dtype!];
  if (preferred === undefined || op.dtypes[a.dtype!].includes(inferred.dtype)) return inferred;
  try {
    return denseFromPlain(v, preferred, undefined, what);
  } catch (e) {
    // The values do not hold the default either ([0.5] for int32 ids): the dtype they have is refused as not taken.
    if (e instanceof TypeError || e instanceof InvalidArgumentError) return inferred;
    throw e;
  }
}

function toKernelForm(op: OpMeta, a: ArgMeta, t: Tensorish): unknown {
  switch (t.kind) {
    case 'sparse':
    case 'sparse_list':
    case 'csr':
    case 'mixed_list':
      return t.value;
    case 'dense':
      if (a.type === 'scalar') {
        if (t.value.shape.length !== 0)
          throw new InvalidArgumentError(
            `${op.name}: ${a.name} must be a scalar, got shape ${shapeText(t.value.shape)}`,
          );
        return getValue(t.value.data, 0);
      }
      return t.value;
    case 'pending':
      throw new Error('unreachable: pending tensors are converted before');
  }
}

/** Float values in `dtype` (TensorFlow's cast between float32 and float64), a new tensor where they were not. */
function castFloats<D extends SparseData | DenseData>(d: D, dtype: DType, where: string): D {
  if (d.dtype === dtype) return d;
  const to = toValues(d.kind === 'sparse' ? d.values : d.data, dtype, where);
  return d.kind === 'sparse' ? { ...d, values: to, dtype } : { ...d, data: to, dtype };
}

/** Plain (non-tensor) arguments: whole numbers, booleans, lists of whole numbers, shapes, axes, strings. */
function readPlainArg(op: OpMeta, a: ArgMeta, v: unknown): unknown {
  const where = `${op.name}: ${a.name}`;
  if (v === null && takesNull(a)) return null;
  switch (a.type) {
    case 'int':
      return readWholeNumber(v, where, { fraction: 'TypeError' });
    case 'bool':
      if (typeof v !== 'boolean') throw new TypeError(`${where} must be true or false, got ${describe(v)}`);
      return v;
    case 'int_list':
      return op.wideDims === 'exact'
        ? int64List(where, vectorEntries(where, v))
        : intList(where, vectorEntries(where, v), true);
    case 'int_or_int_list':
      return isScalarNumber(v) ? readPlainArg(op, { ...a, type: 'int' }, v) : intList(where, vectorEntries(where, v));
    case 'shape': {
      const dims = vectorEntries(where, v);
      // A list of more dims than a tensor has is refused by its length alone, before any entry is read.
      if (dims.length <= MAX_RANK)
        for (let i = 0; i < dims.length; i++) if (Array.isArray(dims[i])) throw nested(where);
      // An op that holds dims past 2^53 - 1 exactly takes such a shape too (then as bigints).
      return (op.wideDims ? toExactShape : toShape)(dims, where);
    }
    case 'axes':
      if (v === null) return null;
      return intList(where, isScalarNumber(v) ? [v] : vectorEntries(where, v));
    case 'string':
      if (typeof v !== 'string') throw new TypeError(`${where} must be a string, got ${describe(v)}`);
      if (a.oneOf && !a.oneOf.includes(v))
        throw new InvalidArgumentError(
          `${where} must be one of ${a.oneOf.map((x) => `'${x}'`).join(', ')}, got '${v}'`,
        );
      return v;
    case 'dtype':
      return readDTypeName(op, a, v);
    default:
      throw new Error(`unreachable: ${a.type} is a tensor argument`);
  }
}

/** The value of a `dtype` argument: a dtype's name, else a TypeError. */
function readDTypeName(op: OpMeta, a: ArgMeta, v: unknown): DType {
  if (isDType(v)) return v;
  throw new TypeError(`${op.name}: ${a.name} must be the name of a dtype, got ${describe(v)}`);
}

const isScalarNumber = (v: unknown): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';

/**
 * The entries of a vector argument (a shape, a list of whole numbers): a list, a typed array or a 1-D integer
 * Tensor. A scalar or nested lists (refused as each entry is read: `nested`) have the wrong rank, an
 * InvalidArgumentError as in TensorFlow; anything else is the wrong kind, a TypeError.
 */
function vectorEntries(where: string, v: unknown): ArrayLike<unknown> {
  if (v instanceof Tensor) {
    const d = denseDataOf(v);
    if (!isIntegerDType(d.dtype)) throw new TypeError(`${where} must be an integer tensor, got ${d.dtype}`);
    if (d.shape.length !== 1)
      throw new InvalidArgumentError(`${where} must be a vector (rank 1), got shape ${shapeText(d.shape)}`);
    return d.data as ArrayLike<unknown>;
  }
  if (isList(v)) return trustedList(v) as ArrayLike<unknown>;
  if (isScalarNumber(v))
    throw new InvalidArgumentError(
      `${where} must be a vector (a list of whole numbers), got the scalar ${describe(v)}`,
    );
  throw new TypeError(`${where} must be a list of whole numbers, got ${describe(v)}`);
}

/** Each entry a whole number within int64, a bigint past 2^53 - 1 (strings of digits count). */
function int64List(where: string, items: ArrayLike<unknown>): (number | bigint)[] {
  const out = new Array<number | bigint>(items.length);
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (typeof x === 'number' && Number.isSafeInteger(x)) out[i] = x;
    else if (Array.isArray(x)) throw nested(where);
    else out[i] = readInt64(x, `${where}[${i}]`, { digits: true });
  }
  return out;
}

const nested = (where: string) =>
  new InvalidArgumentError(`${where} must be a vector (a list of whole numbers), got nested lists`);

/** Each entry a whole number; `digits`: strings of digits count, as the case format writes int64 list entries. */
function intList(where: string, items: ArrayLike<unknown>, digits = false): number[] {
  const out = new Array<number>(items.length);
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (typeof x === 'number' && Number.isSafeInteger(x)) out[i] = x;
    else if (Array.isArray(x)) throw nested(where);
    else out[i] = readWholeNumber(x, `${where}[${i}]`, { digits });
  }
  return out;
}
