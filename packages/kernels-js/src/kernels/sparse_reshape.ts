import type { SparseReshapeKernel } from '@sparse/kernel-abi';
import { exactRowMajorStrides, resolveReshapeTarget, rowMajorStrides, sizeOf } from '@sparse/kernel-abi';

/**
 * `sp_input` with its dense shape changed to `shape` (one -1 inferred), as TensorFlow's SparseReshape: each index
 * becomes its row-major position in the old shape, written in the new one. The values and their order do not
 * change. The runtime has checked that the element counts agree. The position is a float while the element count
 * is at most 2^53 - 1 (every step exact), and a BigInt beyond, so it is exact for any shape. Linear in nnz.
 */
export const sparseReshape: SparseReshapeKernel = ({ sp_input, shape: target }) => {
  const { indices, values, shape, dtype } = sp_input;
  const outShape = resolveReshapeTarget(shape, target);
  const n = values.length;
  const out = new Float64Array(n * outShape.length);
  if (n > 0) {
    if (sizeOf(shape) <= Number.MAX_SAFE_INTEGER) reshapeExact(indices, n, shape, outShape, out);
    else reshapeBig(indices, n, shape, outShape, out);
  }
  return { output: { kind: 'sparse', indices: out, values: values.slice(), shape: outShape, dtype } };
};

/** Float positions: exact because every partial sum and quotient stays below 2^53. */
function reshapeExact(indices: Float64Array, n: number, from: number[], to: number[], out: Float64Array): void {
  const inRank = from.length;
  const outRank = to.length;
  const strides = rowMajorStrides(from);
  for (let i = 0; i < n; i++) {
    let pos = 0;
    for (let d = 0, p = i * inRank; d < inRank; d++, p++) pos += indices[p] * strides[d];
    for (let d = outRank - 1, p = i * outRank + outRank - 1; d >= 0; d--, p--) {
      const x = pos % to[d];
      out[p] = x;
      pos = (pos - x) / to[d];
    }
  }
}

/** BigInt positions, for a dense shape of more than 2^53 - 1 elements. */
function reshapeBig(indices: Float64Array, n: number, from: number[], to: number[], out: Float64Array): void {
  const inRank = from.length;
  const outRank = to.length;
  const strides = exactRowMajorStrides(from);
  const dims = to.map(BigInt);
  for (let i = 0; i < n; i++) {
    let pos = 0n;
    for (let d = 0, p = i * inRank; d < inRank; d++, p++) pos += BigInt(indices[p]) * strides[d];
    for (let d = outRank - 1, p = i * outRank + outRank - 1; d >= 0; d--, p--) {
      out[p] = Number(pos % dims[d]);
      pos /= dims[d];
    }
  }
}
