import type { SparseData } from '@sparse/kernel-abi';
import { broadcastStrides } from '../broadcast.js';
import { linearOffsets } from '@sparse/kernel-abi';

/** For each stored entry of `sp`, the flat offset of the element a dense tensor of `denseShape`, broadcast to sp's shape, holds there. */
export function broadcastOffsets(sp: SparseData, denseShape: readonly number[]): Float64Array {
  return linearOffsets(sp.indices, sp.values.length, broadcastStrides(denseShape, sp.shape.length));
}
