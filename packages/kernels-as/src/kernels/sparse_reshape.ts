import {
  delegate,
  exactRowMajorStrides,
  exactSizeOf,
  type KernelTable,
  type OpKernel,
  resolveReshapeTarget,
  type SparseData,
} from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { sparse } from '../kernel.js';

const TWO_32 = 2n ** 32n;
const TWO_63 = 2n ** 63n;

/** sparse_reshape: positions in u32 (dense size below 2^32) or u64 (below 2^63) arithmetic; the values stay in JS. */
export function sparseReshape(ctx: WasmContext, js: KernelTable['sparse_reshape']): OpKernel<'sparse_reshape'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const outShape = resolveReshapeTarget(sp.shape, args.shape as number[]);
    if (!fitsI32(sp.shape) || !fitsI32(outShape)) return delegate(js, args, REASONS.wideDims);
    const size = exactSizeOf(sp.shape);
    if (size >= TWO_63) return delegate(js, args, REASONS.beyondI64);
    const n = sp.values.length;
    const [inRank, outRank] = [sp.shape.length, outShape.length];
    if (n * (inRank + outRank) * 12 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    let indices: Float64Array = new Float64Array(0);
    if (n > 0) {
      const { heap } = ctx;
      ctx.begin();
      const idx = ctx.indicesOf(sp);
      const narrow = size < TWO_32;
      const strides = exactRowMajorStrides(sp.shape);
      const st = narrow
        ? ctx.heap.putArray(Uint32Array.from(strides, Number))
        : ctx.heap.putArray(BigInt64Array.from(strides));
      const dims = heap.putI32(outShape);
      const out = heap.alloc(n * outRank * 4);
      ctx.call(narrow ? 'reshape_32' : 'reshape_64', [idx, n, inRank, st, outRank, dims, out]);
      indices = ctx.heap.readIndices(out, n * outRank);
    }
    return { output: sparse(indices, sp.values.slice(), outShape, sp.dtype) };
  };
}
