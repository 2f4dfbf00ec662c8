// TensorFlow's Fingerprint64, for tests and benches that hash as the cross kernels do.
export { fingerprint64, fingerprint64Into, fingerprintCat64, fingerprintCat64Into } from './fingerprint.js';
