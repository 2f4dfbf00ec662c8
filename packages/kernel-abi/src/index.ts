// The kernel ABI: what the runtime and every backend agree on. The plain-data types and each op's kernel
// signature (generated from the specs), the kernel error, and the helpers every side needs to read that data.
export * from './generated/kernel-types.js';
export { KERNEL_ERRORS, KernelError, isKernelError, type KernelErrorName } from './generated/kernel-error.js';
export {
  delegate,
  delegation,
  isDelegation,
  type BackendKernelTable,
  type Delegation,
  type KernelResult,
  type OpKernel,
} from './delegation.js';
export {
  allocIndices,
  allocValues,
  copyValue,
  filledValues,
  isZeroAt,
  storageValue,
  takeValues,
  type Element,
} from './values.js';
export { exactRowMajorStrides, exactSizeOf, linearOffset, linearOffsets, rowMajorStrides, sizeOf } from './strides.js';
export { indexText } from './index-text.js';
export { isDeviceValues, type DeviceValues } from './device-values.js';
export { reducedAxes } from './axes.js';
export { lookupPlan, safeLookupPlan, type Combiner, type EmbeddingPlan } from './embedding-plan.js';
export { compareIndexRows, isSortedRows } from './compare-indices.js';
export { fitSparse, isWideSparse, toWideSparse, type WideSparseData } from './wide-sparse.js';
export {
  clearPool,
  copyOut,
  isImmutable,
  poolable,
  takePooled,
  markImmutable,
  newBuffer,
  pooledBytes,
  recycleBuffer,
  POOL_MIN_BYTES,
} from './storage.js';
export { rememberedProductsBound } from './csr-products-bound.js';
export { assembleKernels, type KernelParts } from './assemble-kernels.js';
export * as magnitude from './generated/magnitude.js';
export { groupBound, type BoundDomain, type GroupReduction } from './group-bound.js';
export {
  familyMayBeSubnormal,
  magnitudesOf,
  productsMayBeSubnormal,
  type FamilyMagnitudes,
  type MagnitudeFn,
} from './subnormal-bound.js';
// The index plans the backends share (tfjs's shared kernel implementations): each backend computes on them rather
// than write the same planning again.
export { broadcastStrides } from './plans/broadcast-strides.js';
export { broadcastOffsets } from './plans/broadcast-offsets.js';
export { canonicalOrder } from './plans/canonical-order.js';
export { copyRow, takeRows } from './plans/index-rows.js';
export { rowEnd, sameRow } from './plans/innermost-rows.js';
export { reducePlan, type ReducePlan } from './plans/reduce-plan.js';
export { mergeSortedUnion, type MergePlan } from './plans/merge-sorted.js';
export { mergePlan, takeMerged } from './plans/merge-plan.js';
export { matmulPlan, type MatmulPlan } from './plans/matmul-plan.js';
export { concatShape } from './plans/concat-shape.js';
export { resolveReshapeTarget } from './plans/reshape-target.js';
export { segmentRows } from './plans/segment-rows.js';
export { bincountPlan, sameKey, type BincountPlan } from './plans/bincount-plan.js';
export {
  crossFeatures,
  crossPlan,
  crossTextLengths,
  forEachCross,
  type CrossInput,
  type CrossPlan,
} from './plans/cross-plan.js';
