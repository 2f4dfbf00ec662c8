import * as tf from '@tensorflow/tfjs-core';
import { UnimplementedError } from '@sparse/runtime';

// A float32 TF.js tensor that reaches an input without a gradient must still be an edge of TF.js's tape, or a loss
// with another path around the op gets a wrong gradient and no error. TF.js calls a customGrad's gradFunc for every
// input at once whenever any of them is on the path, so the error cannot be thrown there: each such tensor passes
// through a guard of its own (an identity whose gradient throws), which TF.js differentiates only when the gradient
// actually flows from the op's output to that tensor.

/** `x` as a new tensor whose gradient is the error `message` (an UnimplementedError). */
export function guard(x: tf.Tensor, message: string): tf.Tensor {
  return tf.customGrad((t: unknown) => ({
    value: (t as tf.Tensor).clone(),
    gradFunc: () => {
      throw new UnimplementedError(message);
    },
  }))(x);
}

/**
 * The tensor `make` returns, made an output of an op over `inputs` (guards) that sends them zeros: what carries the
 * gradient to them is their guard, which throws.
 */
export function tie(make: () => tf.Tensor, inputs: tf.Tensor[]): tf.Tensor {
  if (!inputs.length) return make();
  return tf.customGrad((...xs: unknown[]) => ({
    value: make(),
    gradFunc: () => (xs.slice(0, inputs.length) as tf.Tensor[]).map((x) => tf.zerosLike(x)),
  }))(...inputs);
}
