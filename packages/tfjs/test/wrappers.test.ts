import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { CsrMatrix, getOpInfo, listOps, SparseTensor, Tensor, type ArgMeta } from '@sparse/runtime';
import * as api from '../src/index.js';
import { isTfSparse, isTfTensor, sparseToTf, toTf } from '../src/index.js';
import { examplesByOp, pick, tfHolds, TF_DTYPES, toValue } from './spec-examples.js';

await tf.setBackend('cpu');

// Every op of the runtime has its function here, named as TF.js names ops (the op id camelCased), and that function
// gives what the spec's example expects. The expected values are the spec's, not this package's.

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
/** The arguments as a user of TF.js gives them: tensors of TF.js dtypes as TF.js tensors, the rest as they are. */
function asTf(v: unknown, meta: ArgMeta | undefined): unknown {
  if (Array.isArray(v) && meta?.type.endsWith('list')) return v.map((e) => asTf(e, meta));
  if (v instanceof SparseTensor && TF_DTYPES.has(v.dtype)) {
    try {
      return sparseToTf(v);
    } catch {
      return v; // a dim past int32: stays a SparseTensor
    }
  }
  if (v instanceof Tensor && TF_DTYPES.has(v.dtype)) return toTf(v);
  return v;
}

/** An output as plain data: TF.js tensors read back, sparse ones as their parts. */
function plain(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(plain);
  if (x instanceof CsrMatrix)
    return {
      rowPointers: [...x.rowPointers],
      colIndices: [...x.colIndices],
      values: [...(x.values as ArrayLike<unknown>)],
      shape: [...x.denseShape],
    };
  if (x instanceof SparseTensor)
    return { indices: x.indices, values: [...(x.values as ArrayLike<unknown>)], shape: [...x.denseShape] };
  if (x instanceof Tensor) return { values: [...(x.dataSync() as ArrayLike<unknown>)], shape: [...x.shape] };
  if (isTfSparse(x)) return { indices: x.indices.arraySync(), values: x.values.arraySync(), shape: [...x.denseShape] };
  if (isTfTensor(x)) return { values: [...(x.dataSync() as ArrayLike<unknown>)], shape: x.shape };
  if (typeof x === 'object' && x !== null) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  return x;
}

/** Compares plain data, floats within float32 rounding. */
function close(got: unknown, want: unknown, path: string): void {
  if (typeof want === 'number' && typeof got === 'number') {
    if (Number.isNaN(want)) return void expect(got, path).toBeNaN();
    if (!Number.isFinite(want)) return void expect(got, path).toBe(want);
    return void expect(Math.abs(got - want), `${path}: ${got} vs ${want}`).toBeLessThanOrEqual(
      1e-4 * Math.max(1, Math.abs(want)),
    );
  }
  if (typeof want === 'bigint' || typeof got === 'bigint') return void expect(String(got), path).toBe(String(want));
  if (Array.isArray(want)) {
    expect(Array.isArray(got) && got.length, `${path}: length`).toBe(want.length);
    return want.forEach((w, i) => close((got as unknown[])[i], w, `${path}[${i}]`));
  }
  if (typeof want === 'object' && want !== null) {
    for (const [k, w] of Object.entries(want)) close((got as Record<string, unknown>)[k], w, `${path}.${k}`);
    return;
  }
  expect(got, path).toBe(want);
}

const EXAMPLES = examplesByOp();
const fns = api as unknown as Record<string, (...args: unknown[]) => unknown>;

describe('a function per op, from the specs', () => {
  for (const op of listOps()) {
    const info = getOpInfo(op)!;
    it(`${op}: ${camel(op)} runs its spec example`, () => {
      expect(typeof fns[camel(op)], camel(op)).toBe('function');
      const examples = EXAMPLES.get(op);
      if (!examples) return; // an op of the runtime built before its spec's examples changed
      const ex = pick(examples);
      const values = Object.fromEntries(Object.entries(ex.args).map(([k, v]) => [k, toValue(v)]));
      const metaOf = (k: string) => info.args.find((a) => a.name === k || a.aliases.includes(k));
      const positional = info.args
        .filter((a) => a.default === undefined)
        .map((a) => asTf(values[[a.name, ...a.aliases].find((k) => k in values) ?? a.name], a));
      const options = Object.fromEntries(
        Object.entries(values)
          .filter(([k]) => metaOf(k)?.default !== undefined)
          .map(([k, v]) => [camel(k), asTf(v, metaOf(k))]),
      );
      const call = () => fns[camel(op)](...positional, options);
      if (!tfHolds(ex.expect)) {
        // An output TF.js cannot hold (int64 past int32): a TypeError that says so, never a silent narrowing.
        expect(call).toThrow(/TF\.js has no dtype for/);
        return;
      }
      const out = tf.tidy(() => plain(call()) as never);
      const want = Object.fromEntries(Object.entries(ex.expect!).map(([k, v]) => [camel(k), plain(toValue(v))]));
      close(info.outputs.length === 1 ? { [camel(info.outputs[0].name)]: out } : out, want, `${op}/${ex.name}`);
    });
  }

  it('aliases are the same op (sparseDenseMatmul is sparseTensorDenseMatmul)', () => {
    const a = new SparseTensor([[0, 1]], [2], [2, 2], 'float32');
    const x = tf.tensor2d([[1], [3]]);
    expect(api.sparseDenseMatmul(a, x).arraySync()).toEqual(api.sparseTensorDenseMatmul(a, x).arraySync());
  });
});
