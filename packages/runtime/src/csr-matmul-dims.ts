import type { CsrData, DenseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from './errors.js';
import { shapeText } from './shape.js';

/**
 * The checks TensorFlow's CSR matmul kernels make before multiplying op(a) · op(b), where op transposes an operand
 * when its transpose or adjoint flag is set: not both flags of one operand, ranks that match (neither kernel
 * broadcasts), batch sizes that agree and inner dims that agree. Messages begin as TensorFlow's.
 */
export function checkCsrMatmulDims(op: string, args: Record<string, unknown>, b: CsrData | DenseData): void {
  for (const side of ['a', 'b'])
    if (args[`adjoint_${side}`] === true && args[`transpose_${side}`] === true)
      throw new InvalidArgumentError(`${op}: Only one of adjoint_${side} and transpose_${side} may be true.`);
  const a = (args.a as CsrData).shape;
  const bs = b.shape;
  if (a.length !== bs.length)
    throw new InvalidArgumentError(`${op}: Ranks of a and b must match, saw: ${a.length} vs. ${bs.length}.`);
  const rank = a.length;
  if (rank === 3 && a[0] !== bs[0])
    throw new InvalidArgumentError(`${op}: Batch sizes of a and b must match, saw: ${a[0]} vs. ${bs[0]}.`);
  const transposeA = args.adjoint_a === true || args.transpose_a === true;
  const transposeB = args.adjoint_b === true || args.transpose_b === true;
  const innerA = a[transposeA ? rank - 2 : rank - 1];
  const innerB = bs[transposeB ? rank - 1 : rank - 2];
  if (innerA !== innerB) {
    throw new InvalidArgumentError(
      `${op}: Inner product dimensions of A and B do not agree.  Shapes are: ${shapeText(a)} vs. ${shapeText(bs)} ` +
        `(the columns of op(a), ${innerA}, and the rows of op(b), ${innerB})`,
    );
  }
}
