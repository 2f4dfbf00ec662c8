import { tsHeader } from './header.js';
import { KERNEL_ERRORS } from './kernel-error.js';

/** `kernels-as/assembly/generated/error-codes.ts`: the kernel error codes for AssemblyScript, from the one table. */
export function emitAsErrorCodes(): string {
  const lines = Object.entries(KERNEL_ERRORS).map(
    ([name, e]) => `/** ${e.message} */\nexport const ERR_${name}: i32 = ${e.code};`,
  );
  return `${tsHeader}// The codes a wasm kernel records for a failure (../errors.ts); the JS side raises KernelError.fromCode.\n\nexport const ERR_NONE: i32 = 0;\n\n${lines.join('\n\n')}\n`;
}
