import type * as tf from '@tensorflow/tfjs-core';
import type { ScalarLike, ShapeLike, SparseLike, TensorLike } from '@sparse/runtime';
import type { TfSparseTensor } from './conversions.js';

// The argument types of the ops' functions (generated/ops.ts): what @sparse/runtime's typed API takes, or the same
// as TF.js tensors. A TF.js tensor is differentiated where the op's gradient covers the argument; a Tensor or
// SparseTensor of @sparse/runtime is a constant.

/** A sparse argument: a TfSparseTensor (its float32 values differentiated), or a SparseTensor or its plain data. */
export type SparseArg = TfSparseTensor | SparseLike;

/** A dense argument: a TF.js tensor (differentiated if float32), or a Tensor, a plain value or nested arrays. */
export type DenseArg = tf.Tensor | TensorLike;

/** A scalar argument: a rank-0 TF.js tensor, a rank-0 Tensor or a plain value. */
export type ScalarArg = tf.Scalar | ScalarLike;

/** A dense shape: a list of dims, a 1-D integer Tensor, or a 1-D int32 TF.js tensor. */
export type ShapeArg = ShapeLike | tf.Tensor1D;
