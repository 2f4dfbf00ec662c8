import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
// tfjs-core alone registers no gradients of its own ops (the @tensorflow/tfjs package does this).
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { describe, expect, it } from 'vitest';
import { getOpInfo, listOps, SparseTensor, Tensor, UnimplementedError, type OpMeta } from '@sparse/runtime';
import { isTfSparse, isTfTensor, runOp, sparseDenseMatmul, sparseToTf, toTf, type TfOutput } from '../src/index.js';
import { examplesByOp, narrow, pick, toValue } from './spec-examples.js';
import { smallMatrix } from './fixtures/small-matrix.js';

await tf.setBackend('cpu');

// A float32 TF.js tensor that reaches an argument without a gradient stays on TF.js's tape: a gradient that flows
// to it through the op is an error naming the op and the argument, never a missing term. Which ops and arguments
// have no gradient is read from the op info now (other ops gain gradients), not from a list.

/** Σ of every float32 output: dense tensors, and the values of sparse ones. */
function sumOfFloats(outputs: Record<string, TfOutput>): tf.Scalar | undefined {
  const parts = Object.values(outputs)
    .flat()
    .map((o) => (isTfSparse(o) ? o.values : isTfTensor(o) ? o : undefined))
    .filter((t): t is tf.Tensor => t !== undefined && t.dtype === 'float32');
  return parts.length ? (tf.addN(parts.map((t) => tf.sum(t))) as tf.Scalar) : undefined;
}

/** The float tensor arguments of an example, each with whether the op's gradient covers it. */
function floatArgs(info: Readonly<OpMeta>, args: Record<string, unknown>): { arg: string; covered: boolean }[] {
  return Object.entries(args)
    .filter(([, v]) => (v instanceof SparseTensor || v instanceof Tensor) && v.dtype === 'float32')
    .map(([arg]) => ({ arg, covered: arg in (info.gradient?.outputs ?? {}) }));
}

/** `args` with `arg` as TF.js tensors: `x` as the dense tensor or the sparse one's values. */
function withTf(args: Record<string, unknown>, arg: string, x: tf.Tensor): Record<string, unknown> {
  const v = args[arg];
  return { ...args, [arg]: v instanceof SparseTensor ? { ...sparseToTf(v), values: x } : x };
}

const EXAMPLES = examplesByOp();
const cases = listOps().flatMap((op) => {
  const info = getOpInfo(op)!;
  const examples = EXAMPLES.get(op);
  if (!examples) return [];
  const ex = pick(examples.map((e) => ({ ...e, args: narrow(e.args) as never })));
  let args: Record<string, unknown>;
  try {
    args = Object.fromEntries(Object.entries(ex.args).map(([k, v]) => [k, toValue(v)]));
  } catch {
    return [];
  }
  return floatArgs(info, args)
    .filter((a) => !a.covered)
    .map(({ arg }) => ({ op, arg, args }));
});

describe('a gradient that reaches an argument without one is an error, never a dropped term', () => {
  it('the op info has such arguments to test', () => expect(cases.length).toBeGreaterThan(5));

  for (const { op, arg, args } of cases) {
    it(`${op}: ${arg}`, () => {
      const v = args[arg] as SparseTensor | Tensor;
      const x0 = v instanceof SparseTensor ? tf.tensor1d(v.values as Float32Array, 'float32') : toTf(v);
      // The mixed path of the issue: Σ op(x) + Σ x; TF.js alone would differentiate only the second term.
      let forward: tf.Scalar | undefined;
      const f = (x: tf.Tensor) => {
        const s = sumOfFloats(runOp(op, withTf(args, arg, x)));
        forward = s;
        return s ? tf.add(s, tf.sum(x)) : tf.sum(x);
      };
      expect(() => f(x0)).not.toThrow(); // the forward pass keeps working
      if (!forward) return; // no float32 output: no path through the op
      let error: unknown;
      try {
        tf.grad(f)(x0);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UnimplementedError);
      const message = (error as Error).message;
      expect(message).toContain(`${op}: the gradient reaches its argument ${arg}`);
      expect(message).toMatch(/as a constant/);
      // TensorFlow's reason, where the op info says why the op has no gradient.
      const reason = (getOpInfo(op) as { notDifferentiable?: unknown }).notDifferentiable;
      if (typeof reason === 'string') expect(message).toContain(reason.replace(/\.$/, ''));
      // The same op on the same TF.js tensor, off the path of the gradient taken: no error.
      const g = (y: tf.Tensor) => tf.add(tf.sum(y), sumOfFloats(runOp(op, withTf(args, arg, x0)))!);
      expect(
        tf
          .grad(g)(tf.tensor1d([1, 2]))
          .arraySync(),
      ).toEqual([1, 1]);
    });
  }
});

it('tf.variableGrads meets the same error, at the call', () => {
  const { op, arg, args } = cases.find((c) => sumOfFloats(runOp(c.op, c.args)))!;
  const v = args[arg] as SparseTensor | Tensor;
  const w = tf.variable(v instanceof SparseTensor ? tf.tensor1d(v.values as Float32Array, 'float32') : toTf(v));
  const loss = () => sumOfFloats(runOp(op, withTf(args, arg, w)))!;
  expect(() => tf.variableGrads(loss)).toThrow(`${op}: the gradient reaches its argument ${arg}`);
});

describe('a differentiable op on a mixed path gives TensorFlow’s gradient', () => {
  // A = [[1, 0, 2], [0, 3, 0]] with its values as a TF.js tensor v; L = Σ A·b + Σ v + Σ b.
  const sp = sparseToTf(smallMatrix());
  const b = tf.tensor2d([
    [1, 2],
    [3, 4],
    [5, 6],
  ]);
  it('sparse_tensor_dense_matmul: dL/dv = Σ_j b[col, j] + 1, dL/db = Aᵀ·1 + 1', () => {
    const L = (v: tf.Tensor, d: tf.Tensor) =>
      tf.addN([tf.sum(sparseDenseMatmul({ ...sp, values: v as tf.Tensor1D }, d)), tf.sum(v), tf.sum(d)]);
    const [dv, db] = tf.grads(L)([sp.values, b]);
    // TensorFlow's formulas: dv[k] = Σ_j dy[row_k, j]·b[col_k, j] with dy = 1; db = Aᵀ·dy.
    expect(dv.arraySync()).toEqual([1 + 2 + 1, 5 + 6 + 1, 3 + 4 + 1]);
    expect(db.arraySync()).toEqual([
      [2, 2],
      [4, 4],
      [3, 3],
    ]);
  });
});
