import { toWideSparse, type SparseData, type WideSparseData } from '@sparse/kernel-abi';

/**
 * sparse_reshape held exactly, for a dense shape with a dim past 2^53 - 1 (given or asked for): each index becomes
 * its row-major position in the old shape, as a BigInt, written in the new one, as the float kernel does below
 * 2^53. The runtime has checked the target (at most one -1, the element counts agree). Linear in nnz.
 */
export function wideSparseReshape(args: {
  sp_input: SparseData | WideSparseData;
  shape: readonly (number | bigint)[];
}): { output: WideSparseData } {
  const { indices, values, shape, dtype } = toWideSparse(args.sp_input);
  const to = args.shape.map(BigInt);
  const unknown = to.indexOf(-1n);
  if (unknown >= 0) to[unknown] = product(shape) / product(to.filter((_, i) => i !== unknown));
  const inRank = shape.length;
  const outRank = to.length;
  const strides = shape.map((_, d) => product(shape.slice(d + 1)));
  const n = values.length;
  const out = new BigInt64Array(n * outRank);
  for (let i = 0; i < n; i++) {
    let pos = 0n;
    for (let d = 0; d < inRank; d++) pos += indices[i * inRank + d] * strides[d];
    for (let d = outRank - 1; d >= 0; d--) {
      out[i * outRank + d] = pos % to[d];
      pos /= to[d];
    }
  }
  return { output: { kind: 'wide_sparse', indices: out, values: values.slice() as typeof values, shape: to, dtype } };
}

function product(dims: readonly bigint[]): bigint {
  return dims.reduce((n, d) => n * d, 1n);
}
