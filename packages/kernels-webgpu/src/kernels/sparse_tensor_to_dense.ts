import { delegation, rowMajorStrides, sizeOf, type DenseData } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { INT32_MAX } from '../matmul/spmm.js';
import { scatterDense } from '../structural/scatter-dense.js';
import { scalarWords, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * sparse_tensor_to_dense (every dtype but string) on the GPU: the host computes each entry's linear offset
 * (O(nnz · rank)); structural/scatter-dense.ts fills the output with the default (none where the default's bits are
 * zero: a new buffer is zeroed) and writes each entry's value at its offset, keeping only the last entry of each
 * offset where the offsets do not strictly increase (an unordered or repeated index, possible with validate_indices
 * false, or a kernel called without the runtime's checks), as the JS kernel's in-order writes do. Values move as their
 * words (two a float64 or int64: value-words.ts), never as numbers, so every value (inf, nan and its payload, a
 * subnormal, -0) arrives bit for bit, and no input or result needs screening. One submission, one read.
 */
export const sparseTensorToDense: KernelFactory<'sparse_tensor_to_dense'> = (ctx, js) => async (args) => {
  const sp = args.sp_input;
  const dtype = sp.dtype;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const shape = [...sp.shape];
  const size = sizeOf(shape);
  const nnz = sp.values.length;
  if (size === 0) return { output: { kind: 'dense', data: sp.values.slice(0, 0), shape, dtype } satisfies DenseData };
  if (shape.some((d) => d > INT32_MAX) || !ctx.fits(size * width * 4) || !ctx.fits(nnz * width * 4))
    throw new BindingLimitError(ctx.maxBindingBytes);

  // The default as the output's store holds it (the same conversion as the JS kernel's fill), then as words.
  const dflt = scalarWords(dtype as MovedDType, args.default_value);

  const strides = rowMajorStrides(shape);
  const rank = shape.length;
  const off = new Uint32Array(nnz);
  for (let e = 0; e < nnz; e++) {
    let o = 0;
    for (let a = 0; a < rank; a++) o += sp.indices[e * rank + a] * strides[a];
    off[e] = o;
  }
  const val = valueWords(sp.values);
  const data = await scatterDense(ctx, { size, width, dtype: dtype as MovedDType, dflt, off, val, broadcast: false });
  return { output: { kind: 'dense', data, shape, dtype } satisfies DenseData };
};
