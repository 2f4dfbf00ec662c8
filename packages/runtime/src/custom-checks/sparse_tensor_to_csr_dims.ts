import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';

const INT32_MAX = 2 ** 31 - 1;

/**
 * sparse_tensor_to_csr_sparse_matrix: what a CSR matrix holds in int32 fits there, as TensorFlow requires (its
 * pointers and column indices are int32): the batch size, the row pointers (batch * (rows + 1)), the entries and the
 * columns. Runs after the rank check (2 or 3).
 */
export function sparseTensorToCsrDims(op: string, args: Record<string, unknown>): void {
  const st = args.sp_input as SparseData;
  const [batch, rows, cols] = st.shape.length === 3 ? st.shape : [1, ...st.shape];
  if (batch >= INT32_MAX)
    throw new InvalidArgumentError(`${op}: dense_shape batch_size must be < Int32Max, but the input value is ${batch}`);
  if (st.values.length > INT32_MAX)
    throw new InvalidArgumentError(
      `${op}: values number of elements must be <= Int32Max, but the input value is ${st.values.length}`,
    );
  if ((rows + 1) * batch > INT32_MAX)
    throw new InvalidArgumentError(
      `${op}: The csr row index size, computed based on the dense_shape, must be <= Int32Max, but is too large. Current value is ${(rows + 1) * batch}`,
    );
  if (cols > INT32_MAX)
    throw new InvalidArgumentError(`${op}: sp_input has ${cols} columns; a CSR matrix's column indices are int32`);
}
