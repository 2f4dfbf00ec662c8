import { buildTsFile } from './ts-file.js';
import { pascalCase } from './naming.js';
import type { LoadedSpec, ArgType, OutputType } from './spec-types.js';

const KERNEL_ARG: Record<ArgType, string> = {
  sparse: 'SparseData',
  sparse_or_null: 'SparseData | null',
  dense: 'DenseData',
  scalar: 'Scalar',
  sparse_or_dense: 'SparseData | DenseData',
  sparse_list: 'SparseData[]',
  sparse_or_sparse_list: 'SparseData | SparseData[]',
  sparse_or_dense_list: '(SparseData | DenseData)[]',
  int_or_int_list: 'number | number[]',
  int: 'number',
  bool: 'boolean',
  int_list: 'number[]',
  shape: 'number[]',
  axes: 'number[] | null',
  string: 'string',
  dtype: 'DType',
  csr: 'CsrData',
};

const KERNEL_OUT: Record<OutputType, string> = {
  sparse: 'SparseData',
  dense: 'DenseData',
  sparse_list: 'SparseData[]',
  sparse_or_dense: 'SparseData | DenseData',
  csr: 'CsrData',
};

const COMMON = `
/** A value dtype of sparse. */
export type DType = 'float32' | 'float64' | 'int32' | 'int64' | 'bool' | 'string';

/** The storage of each dtype: Float32Array, Float64Array, Int32Array, BigInt64Array, Uint8Array (bool as 0/1), string[]. */
export type Values = Float32Array | Float64Array | Int32Array | BigInt64Array | Uint8Array | string[];

/** One value: number (float32, float64, int32), bigint (int64), boolean or string. */
export type Scalar = number | bigint | boolean | string;

/** A SparseTensor as plain data. \`indices\` is row-major [nnz × rank]; every index is a whole number. */
export interface SparseData {
  readonly kind: 'sparse';
  indices: Float64Array;
  values: Values;
  shape: number[];
  dtype: DType;
}

/**
 * A CSR matrix (rank 2) or a batch of them (rank 3, TensorFlow's CSRSparseMatrix) as plain data. \`shape\` is
 * [rows, cols] or [batch, rows, cols]. Batch b's entries are \`batchPointers[b]\` up to \`batchPointers[b + 1]\` of
 * \`colIndices\` and \`values\`; its row r holds those \`rowPointers[b * (rows + 1) + r]\` up to the next, counted from
 * the batch's first entry (each batch's row pointers start at 0). Columns are sorted and distinct within a row.
 */
export interface CsrData {
  readonly kind: 'csr';
  batchPointers: Int32Array;
  rowPointers: Int32Array;
  colIndices: Int32Array;
  values: Values;
  shape: number[];
  dtype: DType;
}

/** A dense tensor as plain data, row-major. */
export interface DenseData {
  readonly kind: 'dense';
  data: Values;
  shape: number[];
  dtype: DType;
}
`;

/** The kernel signatures of every op, for the kernel ABI package (`kernel-abi/src/generated/kernel-types.ts`). */
export function emitKernelTypes(specs: LoadedSpec[]): string {
  return buildTsFile('kernel-types.ts', (f) => {
    f.addStatements(COMMON.trim());
    for (const s of specs) {
      const base = pascalCase(s.name);
      f.addInterface({
        name: `${base}Args`,
        isExported: true,
        docs: [`Arguments of the ${s.name} kernel, validated by the runtime, defaults filled in.`],
        properties: s.args.map((a) => ({
          name: a.name,
          type:
            a.default === null && a.type !== 'axes' && a.type !== 'sparse_or_null'
              ? `${KERNEL_ARG[a.type]} | null`
              : KERNEL_ARG[a.type],
        })),
      });
      f.addInterface({
        name: `${base}Outputs`,
        isExported: true,
        properties: s.outputs.map((o) => ({ name: o.name, type: KERNEL_OUT[o.type] })),
      });
      f.addTypeAlias({
        name: `${base}Kernel`,
        isExported: true,
        type: `(args: ${base}Args) => ${base}Outputs`,
      });
    }
    f.addInterface({
      name: 'KernelTable',
      isExported: true,
      docs: ['A kernel for each op id. A backend that lacks one leaves it out (Partial<KernelTable>).'],
      properties: specs.map((s) => ({ name: s.name, type: `${pascalCase(s.name)}Kernel` })),
    });
  });
}
