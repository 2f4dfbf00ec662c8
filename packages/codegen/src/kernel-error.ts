// Failures only a kernel can see (an integer division by zero...), and the one table of their codes. The JS
// kernels throw a KernelError; the wasm kernels cannot throw across the wasm boundary, so they record the code
// (kernels-as/assembly/generated/error-codes.ts, emitted from this table) and their JS side throws the same error.
// The generator copies this file into @sparse/kernel-abi (and runs it itself, for the zero checks of map ops).

/** Every kernel failure by name: its code (shared with the wasm kernels) and its message. */
export const KERNEL_ERRORS = {
  DIV_BY_ZERO: { code: 1, message: 'integer division by zero' },
  NEGATIVE_POWER: { code: 2, message: 'integers to negative integer powers are not allowed' },
  GRAD_SIZE: { code: 3, message: 'grad must have one value per stored entry of the output' },
} as const;

export type KernelErrorName = keyof typeof KERNEL_ERRORS;

const NAME_OF_CODE = new Map<number, KernelErrorName>(
  Object.entries(KERNEL_ERRORS).map(([name, e]) => [e.code, name as KernelErrorName]),
);

/**
 * A failure only a kernel can see. The runtime turns it into the same InvalidArgumentError on every backend,
 * prefixed with the op id. Kernels never throw anything else on purpose.
 */
export class KernelError extends Error {
  override name = 'KernelError';
  /** `where`: the entry it happened at, as ` at indices[3] = [1, 2]`. */
  constructor(
    readonly kind: KernelErrorName,
    where = '',
  ) {
    super(KERNEL_ERRORS[kind].message + where);
  }

  /** The error for a code a wasm kernel recorded. */
  static fromCode(code: number, where = ''): KernelError | Error {
    const kind = NAME_OF_CODE.get(code);
    return kind ? new KernelError(kind, where) : new Error(`unknown kernel error code ${code}${where}`);
  }
}

/** Whether `e` is a KernelError: by name, so that it holds across two installed copies of the package. */
export function isKernelError(e: unknown): e is KernelError {
  return e instanceof Error && e.name === 'KernelError';
}
