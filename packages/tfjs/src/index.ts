/**
 * TensorFlow.js interop for sparse: tensors both ways, and every op of sparse as a function of TF.js tensors, with
 * its gradient where the op has one (`tf.grad`, `tf.variableGrads` and the optimizers see through it).
 *
 * @module @sparse/tfjs
 */
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
export type { DenseArg, ScalarArg, ShapeArg, SparseArg } from './arg-types.js';
export * from './generated/ops.js';

/** @deprecated The options of {@link sparseDenseMatmul}: {@link SparseTensorDenseMatmulOptions}. */
export type MatmulOptions = import('./generated/ops.js').SparseTensorDenseMatmulOptions;
