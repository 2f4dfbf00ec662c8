import { rowMajorStrides } from '../strides.js';

/**
 * Strides that read a dense tensor of shape `denseShape` broadcast (numpy rules, aligned on the right) to a
 * tensor of rank `rank`: a dim the dense side lacks or holds as 1 gets stride 0. With these strides,
 * `linearOffset(index, strides)` of an index of the big tensor is the flat offset of its dense element.
 * The caller has checked that the shapes broadcast.
 */
export function broadcastStrides(denseShape: readonly number[], rank: number): number[] {
  const own = rowMajorStrides(denseShape);
  const lead = rank - denseShape.length;
  const out = new Array<number>(rank).fill(0);
  for (let d = 0; d < denseShape.length; d++) out[lead + d] = denseShape[d] === 1 ? 0 : own[d];
  return out;
}
