import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';

/** A given `new_shape` has the rank of `sp_input` and is at least its dense shape in every dim (null: nothing to check). */
export function sparseResetShapeNewShape(op: string, args: Record<string, unknown>): void {
  const sp = args.sp_input as SparseData;
  const ns = args.new_shape as number[] | null;
  if (ns === null) return;
  const rank = sp.shape.length;
  if (ns.length !== rank) {
    throw new InvalidArgumentError(
      `${op}: new_shape ${shapeText(ns)} has ${ns.length} dims but sp_input has rank ${rank} (dense shape ${shapeText(sp.shape)})`,
    );
  }
  ns.forEach((d, i) => {
    if (d < sp.shape[i]) {
      throw new InvalidArgumentError(
        `${op}: new_shape[${i}] = ${d} is smaller than dim ${i} of sp_input's dense shape ${shapeText(sp.shape)}; new_shape must be >= it in every dim`,
      );
    }
  });
}
