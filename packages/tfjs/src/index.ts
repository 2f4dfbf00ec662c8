export {
  fromTf,
  isTfSparse,
  isTfTensor,
  sparseFromTf,
  sparseToTf,
  toTf,
  type NarrowOptions,
  type TfSparseTensor,
} from './conversions.js';
export { runOp, type RunOpOptions, type TfOutput } from './tf-op.js';
export { sparseDenseMatmul, type MatmulOptions } from './matmul.js';
