// The conformance case format (docs/cases.md): what a case is, the forms its values take, and the one validator
// that op spec examples (in codegen) and case files (in @sparse/conformance) both pass.
export { ERROR_KINDS, type Case, type ErrorKind, type Example, type ExpectError, type Tolerance } from './case.js';
export { DTYPE_NAMES, isFloatDType, type DTypeName } from './dtypes.js';
export {
  isCsrForm,
  isDenseForm,
  isRecord,
  isSparseForm,
  type CsrForm,
  type DenseForm,
  type SparseForm,
} from './value-forms.js';
export { decodeFloat, int64Entry, isDigitString } from './number-spellings.js';
export { formatValue } from './format-value.js';
export { problemText, type CasePath, type Report } from './report.js';
export type { ValueType } from './value-types.js';
export type { OpSignature, SignatureArg, SignatureOutput } from './op-signature.js';
export type { CsrView, DenseView, OutputView, SparseView, TensorView } from './tensor-view.js';
export { readExpectedOutput } from './expected-output.js';
export { validateCase } from './validate-case.js';
