import {
  flattenNested,
  isDTypeName,
  isDenseForm,
  isRecord,
  isSparseForm,
  decodeFloat,
  isDigitString,
  formatValue,
} from './case-values.js';
import type { DenseView, OutputView, SparseView, TensorView } from './tensor-view.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * The view of an expected output written in a case (`{sparse}`, `{dense}` or a list of those).
 * Expected values are ours to get right, so this is strict: it throws an Error naming `path` for anything
 * that is not a well-formed tensor of its dtype (the loader uses it to validate `expect`).
 */
export function expectedView(value: unknown, path: string): OutputView {
  if (Array.isArray(value)) return value.map((v, i) => expectedTensor(v, `${path}[${i}]`));
  return expectedTensor(value, path);
}

function expectedTensor(value: unknown, path: string): TensorView {
  if (isSparseForm(value)) return expectedSparse(value, path);
  if (isDenseForm(value)) return expectedDense(value, path);
  throw new Error(
    `${path}: expected {sparse: {indices, values, dense_shape}, dtype}, {dense: NESTED, dtype} or a list of them, got ${formatValue(value)}`,
  );
}

function expectedSparse(value: Record<string, unknown>, path: string): SparseView {
  onlyKeys(value, ['sparse', 'dtype'], path);
  const dtype = expectedDType(value.dtype, path);
  const s = value.sparse;
  if (!isRecord(s)) throw new Error(`${path}.sparse: expected {indices, values, dense_shape}`);
  onlyKeys(s, ['indices', 'values', 'dense_shape'], `${path}.sparse`);
  const denseShape = shapeOf(s.dense_shape, `${path}.dense_shape`);
  if (!Array.isArray(s.indices)) throw new Error(`${path}.indices: expected a list of index tuples`);
  if (!Array.isArray(s.values)) throw new Error(`${path}.values: expected a list`);
  const rank = denseShape.length;
  const indices = s.indices.map((row, i) => {
    if (!Array.isArray(row) || row.length !== rank || !row.every((d) => Number.isSafeInteger(d))) {
      throw new Error(
        `${path}.indices[${i}]: expected ${rank} whole numbers (the rank of dense_shape), got ${formatValue(row)}`,
      );
    }
    return row as number[];
  });
  if (indices.length !== s.values.length) {
    throw new Error(`${path}: ${indices.length} indices but ${s.values.length} values`);
  }
  const values = s.values.map((v, i) => expectedElement(v, dtype, `${path}.values[${i}]`));
  return { kind: 'sparse', indices, values, denseShape, dtype };
}

function expectedDense(value: Record<string, unknown>, path: string): DenseView {
  onlyKeys(value, ['dense', 'dtype', 'shape'], path);
  const dtype = expectedDType(value.dtype, path);
  let flattened: ReturnType<typeof flattenNested>;
  try {
    flattened = flattenNested(value.dense);
  } catch (e) {
    throw new Error(`${path}.dense: ${(e as Error).message}`, { cause: e });
  }
  // `shape` is needed where nesting cannot show it (a zero-sized dim); it must hold exactly the values given.
  const shape = value.shape === undefined ? flattened.shape : shapeOf(value.shape, `${path}.shape`);
  const size = shape.reduce((a, b) => a * b, 1);
  if (size !== flattened.flat.length) {
    throw new Error(
      `${path}: shape ${formatValue(shape)} holds ${size} values but dense gives ${flattened.flat.length}`,
    );
  }
  const data = flattened.flat.map((v, i) => expectedElement(v, dtype, `${path}.dense (value ${i})`));
  return { kind: 'dense', data, shape, dtype };
}

/** One expected value in its normalized form; throws if it is not a value of the dtype. */
function expectedElement(v: unknown, dtype: string, path: string): unknown {
  const article = dtype.startsWith('int') ? 'an' : 'a';
  const bad = (why = `is not ${article} ${dtype} value`) => new Error(`${path}: ${formatValue(v)} ${why}`);
  switch (dtype) {
    case 'float32':
    case 'float64': {
      const x = decodeFloat(v);
      if (x === undefined) throw bad(`is not ${article} ${dtype} value (a number, or nan, inf, -inf)`);
      return x;
    }
    case 'int32':
      if (!Number.isInteger(v) || (v as number) < INT32_MIN || (v as number) > INT32_MAX) throw bad();
      return v;
    case 'int64':
      if (typeof v === 'number' && Number.isInteger(v)) {
        // JSON and YAML numbers past 2^53 have already lost digits.
        if (!Number.isSafeInteger(v)) throw bad('is beyond 2^53: write it as a string of digits');
        return BigInt(v);
      }
      if (isDigitString(v)) return BigInt(v);
      throw bad();
    case 'bool':
      if (typeof v !== 'boolean') throw bad('is not a bool value (true or false)');
      return v;
    case 'string':
      if (typeof v !== 'string') throw bad('is not a string value (quote it)');
      return v;
  }
  throw bad();
}

function expectedDType(dtype: unknown, path: string): string {
  if (!isDTypeName(dtype))
    throw new Error(
      `${path}.dtype: expected one of float32, float64, int32, int64, bool, string, got ${formatValue(dtype)}`,
    );
  return dtype;
}

function shapeOf(x: unknown, path: string): number[] {
  if (!Array.isArray(x) || !x.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw new Error(`${path}: expected a list of whole numbers >= 0, got ${formatValue(x)}`);
  }
  return x as number[];
}

function onlyKeys(x: Record<string, unknown>, allowed: string[], path: string): void {
  const extra = Object.keys(x).find((k) => !allowed.includes(k));
  if (extra !== undefined) throw new Error(`${path}: unknown field '${extra}' (allowed: ${allowed.join(', ')})`);
}
