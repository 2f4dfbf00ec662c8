/** Bad data: an index out of bounds or out of order, shapes that do not agree (TensorFlow's InvalidArgumentError). */
export class InvalidArgumentError extends Error {
  override name = 'InvalidArgumentError';
}

/** The active backend has no kernel for an op (or an op id is unknown): reported as `unsupported`, never as a result. */
export class UnimplementedError extends Error {
  override name = 'UnimplementedError';
}

/**
 * An op would need more memory than the runtime's byte budget allows (`createRuntime({ maxBytes })`), or a dense
 * tensor more elements than one can hold (2^31 - 1): refused before anything is allocated (TensorFlow's
 * ResourceExhaustedError). The message names the op, the output and the bytes or the shape.
 */
export class ResourceExhaustedError extends Error {
  override name = 'ResourceExhaustedError';
}
