// Index work shared with the other backends (tfjs's shared kernel implementations): they reuse these rather
// than write the same plans again.
export { broadcastStrides } from './broadcast.js';
export { broadcastOffsets } from './families/broadcast-offsets.js';
export { canonicalOrder } from './canonical-order.js';
export { rowEnd } from './innermost-rows.js';
export { reducePlan } from './families/reduce-plan.js';
export { mergePlan, takeMerged } from './families/merge-plan.js';
export { matmulPlan, type MatmulPlan } from './matmul-plan.js';
export { concatShape } from './kernels/sparse_concat.js';
export { resolveReshapeTarget } from './reshape-shape.js';
export { segmentRows } from './segment-reduce.js';
export { bincountPlan, sameKey, type BincountPlan } from './bincount-plan.js';
export { crossPlan, crossTextLengths, type CrossInput, type CrossPlan } from './cross-plan.js';
export { fingerprint64, fingerprint64Into, fingerprintCat64, fingerprintCat64Into } from './fingerprint.js';
