import type { SparseData } from '../generated/kernel-types.js';
import { linearOffsets } from '../strides.js';
import { broadcastStrides } from './broadcast-strides.js';

/** For each stored entry of `sp`, the flat offset of the element a dense tensor of `denseShape`, broadcast to sp's shape, holds there. */
export function broadcastOffsets(sp: SparseData, denseShape: readonly number[]): Float64Array {
  return linearOffsets(sp.indices, sp.values.length, broadcastStrides(denseShape, sp.shape.length));
}
