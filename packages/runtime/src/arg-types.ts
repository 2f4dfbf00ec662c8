import type { DType, Scalar } from './dtype.js';
import type { SparseTensor, SparseTensorValue } from './sparse-tensor.js';
import type { Tensor } from './tensor.js';
import type { CsrMatrix, CsrMatrixValue } from './csr-matrix.js';
import type { TypedArray } from './list-input.js';

/** A SparseTensor, or its plain-data form. */
export type SparseLike = SparseTensor | (Omit<SparseTensorValue, 'dtype'> & { dtype?: DType });

/** A CsrMatrix, or its plain-data form. */
export type CsrLike = CsrMatrix | (Omit<CsrMatrixValue, 'dtype'> & { dtype?: DType });

/** A dense tensor: a Tensor, a plain value, nested arrays or a flat typed array. */
export type TensorLike = Tensor | Scalar | readonly unknown[] | TypedArray;

/** A rank-0 tensor or a plain value. */
export type ScalarLike = Tensor | Scalar;

/** A dense shape: a list of dims (numbers, bigints or strings of digits), or a 1-D integer Tensor. */
export type ShapeLike = readonly (number | bigint | string)[] | Tensor;

/** Axes to reduce: null for all, one axis, or a list (negative counts from the end). */
export type AxesLike = number | readonly number[] | null;

/** A dtype by its name: an op's `dtype` argument, which says the dtype of its output. */
export type DTypeName = DType;

/** Runs an op by id with arguments keyed by the spec's names; returns outputs keyed by the spec's output names. */
export type RunOp = (opId: string, args: Record<string, unknown>) => Record<string, unknown>;
/** `RunOp` of a runtime whose results arrive asynchronously (`Runtime.runAsync`). */
export type RunOpAsync = (opId: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;
