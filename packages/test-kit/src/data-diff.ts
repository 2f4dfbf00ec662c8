import type { CsrData, DenseData, SparseData, Values } from '@sparse/kernel-abi';

type Data = SparseData | DenseData | CsrData;

/**
 * Where two kernel results differ, or undefined when they are the same to the bit: the kind, dtype, shape,
 * storage class, every index (a CSR matrix's pointers and column indices) and every value (Object.is: NaN equals NaN, -0 differs from 0). A list (the pieces
 * of sparse_split) is compared piece by piece.
 */
export function dataDiff(a: unknown, b: unknown, at = 'output'): string | undefined {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${at}: a list and a single result`;
    if (a.length !== b.length) return `${at}: ${a.length} pieces vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = dataDiff(a[i], b[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (!isData(a) || !isData(b)) return `${at}: not kernel data`;
  if (a.kind !== b.kind) return `${at}: ${a.kind} vs ${b.kind}`;
  if (a.dtype !== b.dtype) return `${at}: dtype ${a.dtype} vs ${b.dtype}`;
  if (a.shape.join() !== b.shape.join()) return `${at}: shape [${a.shape}] vs [${b.shape}]`;
  if (a.kind === 'dense') return arrayDiff(a.data, (b as DenseData).data, `${at}.data`);
  if (a.kind === 'csr') {
    const cb = b as CsrData;
    return (
      arrayDiff(a.batchPointers, cb.batchPointers, `${at}.batchPointers`) ??
      arrayDiff(a.rowPointers, cb.rowPointers, `${at}.rowPointers`) ??
      arrayDiff(a.colIndices, cb.colIndices, `${at}.colIndices`) ??
      arrayDiff(a.values, cb.values, `${at}.values`)
    );
  }
  const sb = b as SparseData;
  return arrayDiff(a.indices, sb.indices, `${at}.indices`) ?? arrayDiff(a.values, sb.values, `${at}.values`);
}

function isData(x: unknown): x is Data {
  const kind = (x as Data | undefined)?.kind;
  return kind === 'sparse' || kind === 'dense' || kind === 'csr';
}

function arrayDiff(a: Values | Float64Array, b: Values | Float64Array, at: string): string | undefined {
  if (a.constructor !== b.constructor) return `${at}: ${a.constructor.name} vs ${b.constructor.name}`;
  if (a.length !== b.length) return `${at}: length ${a.length} vs ${b.length}`;
  for (let i = 0; i < a.length; i++)
    if (!Object.is(a[i], b[i])) return `${at}[${i}]: ${String(a[i])} vs ${String(b[i])}`;
  return undefined;
}
