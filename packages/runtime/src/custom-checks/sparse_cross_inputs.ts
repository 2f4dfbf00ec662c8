import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';

const INT64_END = 2 ** 63;

/**
 * sparse_cross, sparse_cross_hashed: every input a batch-first matrix (a SparseTensor or dense tensor of rank 2),
 * all of one batch size, dim 0: the first SparseTensor's, or the first dense tensor's where there is none (the
 * input TensorFlow's kernel takes it from, and names in "Expected batch size"). A float input is cast to int64 as
 * TensorFlow's Python casts it: each value must be one int64 holds once truncated (TensorFlow's cast of NaN, an
 * infinity or a float past int64 gives what the CPU gives: -2^63 on x86, a saturated value or 0 on Arm).
 */
export function sparseCrossInputs(op: string, args: Record<string, unknown>): void {
  const inputs = args.inputs as (SparseData | DenseData)[];
  inputs.forEach((x, i) => {
    if (x.shape.length !== 2) {
      const what = x.kind === 'sparse' ? 'a SparseTensor of dense shape' : 'a dense tensor of shape';
      throw new InvalidArgumentError(
        `${op}: inputs[${i}] must be a matrix (rank 2: batch, features), got ${what} ${shapeText(x.shape)}`,
      );
    }
  });
  const first = inputs.findIndex((x) => x.kind === 'sparse');
  const ref = first >= 0 ? first : 0;
  inputs.forEach((x, i) => {
    if (x.shape[0] !== inputs[ref].shape[0]) {
      throw new InvalidArgumentError(
        `${op}: expected batch size ${inputs[ref].shape[0]} (dim 0 of inputs[${ref}]), got ${x.shape[0]} at inputs[${i}]: every input must have the same batch size`,
      );
    }
  });
  inputs.forEach((x, i) => {
    if (x.dtype !== 'float32' && x.dtype !== 'float64') return;
    const part = x.kind === 'sparse' ? 'values' : 'data';
    const v = (x.kind === 'sparse' ? x.values : x.data) as Float32Array | Float64Array;
    for (let j = 0; j < v.length; j++) {
      // NaN fails both comparisons; -2^63 itself is an int64.
      if (v[j] >= -INT64_END && v[j] < INT64_END) continue;
      throw new InvalidArgumentError(
        `${op}: inputs[${i}].${part}[${j}] = ${v[j]} cannot be cast to int64 (a ${x.dtype} feature is cast to int64 as TensorFlow does, truncated toward zero; NaN, infinities and values past 2^63 have no int64)`,
      );
    }
  });
}
