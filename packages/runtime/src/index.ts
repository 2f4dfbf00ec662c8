export { SparseTensor, type SparseTensorValue } from './sparse-tensor.js';
export { Tensor, tensor } from './tensor.js';
export { CsrMatrix, type CsrMatrixOptions, type CsrMatrixValue } from './csr-matrix.js';
export { DTYPES, isDType, type DType, type Scalar, type Values } from './dtype.js';
export { InvalidArgumentError, ResourceExhaustedError, UnimplementedError } from './errors.js';
export { Runtime, createRuntime, getOpInfo, listOps, type Reported } from './runtime.js';
export type {
  ArgKind,
  ArgMeta,
  CheckMeta,
  EntriesTerm,
  GradientBinding,
  GradientMeta,
  OpMeta,
  OutputKind,
  OutputMeta,
  OutputOrder,
  ShapeRule,
  TensorflowRef,
  WideDims,
} from './op-meta.js';
export { registerBackend, listBackends, type Backend, type BackendKernel, type BackendLoader } from './backend.js';
export type { RuntimeOptions } from './runtime-options.js';
export { sparse, setBackend, getBackend, getRuntime, ready, run, vjp, prepare } from './default-runtime.js';
export type { VjpOptions, VjpResult } from './vjp.js';
export { MAX_DENSE_ELEMENTS } from './shape.js';
export { parseMatrixMarket, readMatrixMarket, type ReadMatrixMarketOptions } from './matrix-market-read.js';
export { matrixMarketChunks, toMatrixMarket, type WriteMatrixMarketOptions } from './matrix-market-write.js';
export type { SparseOps, AsyncSparseOps } from './generated/ops-api.js';
export type { JsSideOps, MapValuesOptions, MappedValues } from './map-values.js';
export type * from './generated/ops-api.js';
export type {
  AxesLike,
  CsrLike,
  DTypeName,
  RunOp,
  RunOpAsync,
  ScalarLike,
  ShapeLike,
  SparseLike,
  TensorLike,
} from './arg-types.js';
export type { TypedArray } from './list-input.js';
