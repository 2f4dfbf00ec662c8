/** Bad data: an index out of bounds or out of order, shapes that do not agree (TensorFlow's InvalidArgumentError). */
export class InvalidArgumentError extends Error {
  override name = 'InvalidArgumentError';
}

/** The active backend has no kernel for an op (or an op id is unknown): reported as `unsupported`, never as a result. */
export class UnimplementedError extends Error {
  override name = 'UnimplementedError';
}
