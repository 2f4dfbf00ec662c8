import type * as tf from '@tensorflow/tfjs-core';
import type { SparseTensor, Tensor } from '@sparse/runtime';
import type { TfSparseTensor } from './conversions.js';
import { runOp, type RunOpOptions } from './tf-op.js';

/** Options of `sparseDenseMatmul`. */
export interface MatmulOptions extends RunOpOptions {
  adjointA?: boolean;
  adjointB?: boolean;
}

/**
 * `op(a) · op(b)` as a TF.js tensor (sparse_tensor_dense_matmul through `runOp`): one operand sparse (a
 * SparseTensor, constant, or a TfSparseTensor whose values are differentiated), the other dense (a TF.js tensor,
 * differentiated, or a sparse Tensor). The layer of a graph network: `sparseDenseMatmul(adjacency, tf.matMul(x, w))`.
 */
export function sparseDenseMatmul(
  a: SparseTensor | TfSparseTensor | tf.Tensor | Tensor,
  b: SparseTensor | TfSparseTensor | tf.Tensor | Tensor,
  options: MatmulOptions = {},
): tf.Tensor2D {
  const { adjointA = false, adjointB = false, runtime } = options;
  return runOp('sparse_tensor_dense_matmul', { sp_a: a, b, adjoint_a: adjointA, adjoint_b: adjointB }, { runtime })
    .output as tf.Tensor2D;
}
