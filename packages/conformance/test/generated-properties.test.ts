import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpecs } from '@sparse/codegen';
import { SparseTensor, Tensor, createRuntime } from '@sparse/runtime';
import { decodeFloat, type Case, type CaseRuntime } from '../src/index.js';
import { ArithmeticRefusal, arithmeticOf } from './properties/dtype-arithmetic.js';
import { outputProblems } from './properties/output-invariants.js';
import type { Property } from './properties/property.js';
import { propertyOf } from './properties/property-of.js';
import { SPECS } from './properties/spec-ops.js';

// The properties come from the specs: a new op gets one with no list to edit, and a property fails a wrong kernel.

const RUNS = 100;

/** fast-check's report of the property on `rt`: failed (with the counterexample) or not. */
const checkOn = (p: Property, rt: CaseRuntime) =>
  fc.check(
    fc.asyncProperty(p.cases, async (c) => (await p.check(rt, c)) === ''),
    { numRuns: RUNS },
  );

const OP = 'sparse_signed_square_fixture';
const FIXTURE = `name: ${OP}
summary: Squares every stored value, keeping its sign (a fixture op that exists only in this test).
doc: x * x for a positive value, -(x * x) for a negative one.
dtypes:
  T: [float64, int32]
args:
  - name: sp_input
    type: sparse
    dtype: T
    doc: The SparseTensor whose values are squared.
outputs:
  - name: output
    type: sparse
    dtype: T
    shape: {like: sp_input}
    doc: The signed squares, at the indices of sp_input.
kernel:
  family: map
  expr: where(x < 0, -(x * x), x * x)
gradient:
  examples:
    - name: twice_the_magnitude
      args:
        sp_input: {sparse: {indices: [[0], [2]], values: [-3.0, 2.0], dense_shape: [3]}, dtype: float64}
        grad: {dense: [1.0, 1.0], dtype: float64}
      expect:
        sp_input_grad: {dense: [6.0, 4.0], dtype: float64}
examples:
  - name: signs
    args:
      sp_input: {sparse: {indices: [[0], [2]], values: [-3, 2], dense_shape: [3]}, dtype: int32}
    expect:
      output: {sparse: {indices: [[0], [2]], values: [-9, 4], dense_shape: [3]}, dtype: int32}
`;

const work = mkdtempSync(join(tmpdir(), 'generated-properties-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
writeFileSync(join(work, `${OP}.yaml`), FIXTURE);

/** A stand-in backend with the fixture op only, its kernel `f` of each stored value. */
function fixtureBackend(f: (x: number, dtype: string) => number): CaseRuntime {
  return {
    backend: 'fixture',
    hasOp: (op) => op === OP,
    run: (_op, args) => {
      const sp = args.sp_input as SparseTensor;
      const values = Array.from(sp.values as ArrayLike<number>, (x) => f(x, sp.dtype));
      return { output: new SparseTensor(sp.indices, values, sp.denseShape, sp.dtype) };
    },
  };
}

describe('a new expression-family op', () => {
  const [spec] = loadSpecs(work);
  const property = propertyOf(spec);

  it('gets a dense oracle from its spec alone', () => {
    expect([property.op, property.against]).toEqual([OP, 'a dense oracle']);
  });

  it('and a kernel that computes the expression passes it (int32 wrapping included)', async () => {
    const right = fixtureBackend((x, dtype) => {
      const square = dtype === 'int32' ? Math.imul(x, x) : x * x;
      return x >= 0 || Number.isNaN(x) ? square : dtype === 'int32' ? -square | 0 : -square;
    });
    expect((await checkOn(property, right)).failed).toBe(false);
  });

  it('but one that forgets the sign fails it', async () => {
    const wrong = fixtureBackend((x, dtype) => (dtype === 'int32' ? Math.imul(x, x) : x * x));
    const report = await checkOn(property, wrong);
    expect(report.failed).toBe(true);
    // Where it fails, a value is negative (-inf, spelled as a case spells it, included).
    const failing = report.counterexample?.[0].args.sp_input as { sparse: { values: (number | string)[] } };
    expect(failing.sparse.values.some((v) => Number(decodeFloat(v) ?? v) < 0)).toBe(true);
  });
});

/** The js backend, with the first value of every output one more than it computed. */
async function offByOne(): Promise<CaseRuntime> {
  const rt = await createRuntime({ backend: 'js' });
  return {
    backend: 'js (off by one)',
    hasOp: (op) => rt.hasOp(op),
    run: (op, args) => {
      const out = rt.run(op, args);
      return Object.fromEntries(Object.entries(out).map(([name, t]) => [name, firstValueOffByOne(t)]));
    },
  };
}

/** A copy of a result with its first value off by one (results are immutable: a wrong one is a new one). */
function firstValueOffByOne(t: unknown): Tensor | SparseTensor {
  const values = t instanceof Tensor ? t.dataSync() : (t as SparseTensor).values;
  const numbers = values as unknown as (number | bigint)[];
  if (numbers.length > 0) numbers[0] = typeof numbers[0] === 'bigint' ? numbers[0] + 1n : numbers[0] + 1;
  return t instanceof Tensor ? new Tensor(values, t.shape, t.dtype) : (t as SparseTensor).withValues(values);
}

describe('a wrong kernel result fails the property', () => {
  const ops = ['sparse_dense_cwise_mul', 'sparse_maximum', 'sparse_reduce_sum', 'sparse_neg', 'sparse_tensor_to_dense'];
  for (const op of ops) {
    const spec = SPECS.find((s) => s.name === op)!;
    it(`${op} (${spec.kernel.family}, against ${propertyOf(spec).against})`, async () => {
      expect((await checkOn(propertyOf(spec), await offByOne())).failed).toBe(true);
    });
  }
});

describe("the spec's invariants of an output", () => {
  const spec = SPECS.find((s) => s.name === 'sparse_reorder')!;
  const input = { sparse: { indices: [[0], [1]], values: [1, 2], dense_shape: [2] }, dtype: 'float32' };
  const c: Case = { op: spec.name, name: 'invariants', args: { sp_input: input } };

  it('hold for a canonical SparseTensor of the declared dtype', () => {
    expect(outputProblems(spec, c, { output: new SparseTensor([[0], [1]], [1, 2], [2], 'float32') })).toEqual([]);
  });

  it('are broken by entries out of order, out of bounds, or of another dtype', () => {
    const out = new SparseTensor([[1], [0], [2]], [1, 2, 3], [2], 'float64');
    expect(outputProblems(spec, c, { output: out })).toEqual([
      'output: dtype float64 where the spec says T = float32',
      'output.indices[2] = [2] is outside the dense shape [2]',
      'output: the indices are not in canonical order (or repeat), though the spec or the inputs say so',
    ]);
  });

  it('hold an output the spec declares canonical (from_dense) to it whatever its inputs', () => {
    const fromDense = SPECS.find((s) => s.name === 'from_dense')!;
    const dense: Case = { op: 'from_dense', name: 'invariants', args: { tensor: { dense: [1, 2], dtype: 'float32' } } };
    const out = new SparseTensor([[1], [0]], [2, 1], [2], 'float32');
    expect(outputProblems(fromDense, dense, { output: out })).toEqual([
      'output: the indices are not in canonical order (or repeat), though the spec or the inputs say so',
    ]);
  });
});

describe("the oracles' arithmetic is TensorFlow's per dtype", () => {
  it('int32 and int64 wrap; float32 rounds every step', () => {
    expect(arithmeticOf('int32').mul(65536, 65536)).toBe(0);
    expect(arithmeticOf('int32').neg(-(2 ** 31))).toBe(-(2 ** 31));
    expect(arithmeticOf('int64').add(2n ** 63n - 1n, 1n)).toBe(-(2n ** 63n));
    expect(arithmeticOf('int64').pow(3n, 41n)).toBe(BigInt.asIntN(64, 3n ** 41n));
    expect(arithmeticOf('float32').add(1, 2 ** -30)).toBe(1);
    expect(arithmeticOf('float64').add(1, 2 ** -30)).toBe(1 + 2 ** -30);
  });

  it('integer division truncates toward zero and refuses a zero divisor; a negative integer power is refused', () => {
    expect(arithmeticOf('int32').div(-7, 2)).toBe(-3);
    expect(arithmeticOf('int32').div(-(2 ** 31), -1)).toBe(-(2 ** 31));
    expect(() => arithmeticOf('int64').div(1n, 0n)).toThrow(ArithmeticRefusal);
    expect(() => arithmeticOf('int32').pow(2, -1)).toThrow(ArithmeticRefusal);
    expect(arithmeticOf('float32').div(1, 0)).toBe(Infinity);
  });
});
