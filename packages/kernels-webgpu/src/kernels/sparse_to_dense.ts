import { delegation, rowMajorStrides, sizeOf, type DenseData } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { INT32_MAX } from '../matmul/spmm.js';
import { scatterDense } from '../structural/scatter-dense.js';
import { scalarWords, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * sparse_to_dense (values of every dtype but string; int32 or int64 indices) on the GPU: the host reads the indices (a
 * scalar, a vector or an [N × rank] matrix, as the JS kernel) into offsets, O(N · rank); structural/scatter-dense.ts
 * fills the output with the default (none where its bits are zero) and writes each value (the one value, broadcast,
 * where values is a scalar) at its index's offset, as its words (bit for bit, two a float64 or int64: value-words.ts;
 * no screening), keeping the last entry of each offset where they do not strictly increase (validate_indices false),
 * as the JS kernel's writes in order do. An index outside output_shape, or a values count that is neither N nor a
 * scalar (both refused by the runtime), runs on the JS kernels. One submission, one read.
 */
export const sparseToDense: KernelFactory<'sparse_to_dense'> = (ctx, js) => async (args) => {
  const { sparse_indices, output_shape, sparse_values } = args;
  const dtype = sparse_values.dtype;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const shape = [...output_shape];
  const size = sizeOf(shape);
  const rank = shape.length;
  const n = sparse_indices.shape.length === 0 ? 1 : sparse_indices.shape[0];
  const broadcast = sparse_values.shape.length === 0;
  const result = (data: DenseData['data']) => ({
    output: { kind: 'dense', data, shape, dtype } satisfies DenseData,
  });
  if (size === 0) return result(sparse_values.data.slice(0, 0));
  if ((!broadcast && sparse_values.data.length !== n) || sparse_indices.data.length !== n * rank)
    return delegation(js(args), REASONS.unchecked);
  if (shape.some((d) => d > INT32_MAX) || !ctx.fits(size * width * 4) || !ctx.fits(n * width * 4))
    throw new BindingLimitError(ctx.maxBindingBytes);

  const dflt = scalarWords(dtype as MovedDType, args.default_value);
  const strides = rowMajorStrides(shape);
  const raw = sparse_indices.data as ArrayLike<number | bigint>;
  const off = new Uint32Array(n);
  for (let e = 0; e < n; e++) {
    let o = 0;
    for (let d = 0; d < rank; d++) {
      const x = Number(raw[e * rank + d]);
      if (!(x >= 0 && x < shape[d]) || x !== Math.floor(x)) return delegation(js(args), REASONS.unchecked);
      o += x * strides[d];
    }
    off[e] = o;
  }
  const values = valueWords(sparse_values.data);
  const val = broadcast ? values.subarray(0, width) : values;
  return result(await scatterDense(ctx, { size, width, dtype: dtype as MovedDType, dflt, off, val, broadcast }));
};
