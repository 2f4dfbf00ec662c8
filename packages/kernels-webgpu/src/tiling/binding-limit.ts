import { REASONS } from '../delegation.js';

/**
 * Thrown where a kernel would bind a buffer past the backend's binding limit: the call is tiled into smaller calls
 * where its op has a tiling (tiled.ts), or runs on the JS kernels where it has none.
 */
export class BindingLimitError extends Error {
  constructor(readonly limit: number) {
    super(REASONS.bindingLimit(limit));
    this.name = 'BindingLimitError';
  }
}
