// TensorFlow's Fingerprint64, for tests and benches that hash as the cross kernels do.
export { fingerprint64, fingerprint64Into, fingerprintCat64, fingerprintCat64Into } from './fingerprint.js';
// TEMPORARY: the plans moved to @sparse/kernel-abi; re-exported until every import is moved.
export {
  broadcastStrides,
  broadcastOffsets,
  canonicalOrder,
  rowEnd,
  reducePlan,
  mergePlan,
  takeMerged,
  matmulPlan,
  concatShape,
  resolveReshapeTarget,
  segmentRows,
  bincountPlan,
  sameKey,
  crossPlan,
  crossTextLengths,
  type MatmulPlan,
  type BincountPlan,
  type CrossInput,
  type CrossPlan,
} from '@sparse/kernel-abi';
