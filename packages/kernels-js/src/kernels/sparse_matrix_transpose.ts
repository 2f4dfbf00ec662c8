import type { SparseMatrixTransposeKernel } from '@sparse/kernel-abi';
import { transposeCsr } from '../csr.js';

/** The transpose of each matrix; `conjugate` changes nothing for real values. O(nnz + batch · (rows + cols)). */
export const sparseMatrixTranspose: SparseMatrixTransposeKernel = ({ input }) => ({ output: transposeCsr(input) });
