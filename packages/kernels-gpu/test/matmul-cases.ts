import type { SparseData } from '@sparse/kernel-abi';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { quarter, rng, type Rng } from './random.js';

/** A [p × q] float32 SparseTensor in random order with repeated indices (they add up in a matmul); row 5 is longer than 256. */
function matmulSparse(r: Rng, p: number, q: number): SparseData {
  const idx: number[][] = [];
  for (let c = 0; c < q; c++) idx.push([5, c]);
  idx.push([0, 1], [p - 1, q - 1], [0, 1]);
  for (let i = 0; i < 150; i++) idx.push([r.int(p), r.int(q)]);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return sparse(idx, Float32Array.from(idx, quarter(r)), [p, q], 'float32');
}
const denseOf = (r: Rng, rows: number, cols: number) =>
  dense(Float32Array.from({ length: rows * cols }, quarter(r)), [rows, cols], 'float32');

/**
 * Every matmul flavour: sparse × dense and dense × sparse, each with the four adjoint combinations, of a [p × q]
 * sparse operand and dense operands of m or n rows or columns.
 */
export function matmulCases(seed: number, [p, q, m, n] = [37, 300, 19, 23]): Record<string, unknown>[] {
  const r = rng(seed);
  const s = matmulSparse(r, p, q);
  const cases: Record<string, unknown>[] = [];
  for (const adjoint_a of [false, true]) {
    for (const adjoint_b of [false, true]) {
      // Sparse first: the inner dimension is op(S)'s second.
      const inner = adjoint_a ? p : q;
      cases.push({ sp_a: s, b: adjoint_b ? denseOf(r, n, inner) : denseOf(r, inner, n), adjoint_a, adjoint_b });
      // Dense first (dense [m × inner] after its adjoint): the inner dimension is op(S)'s first.
      const inner2 = adjoint_b ? q : p;
      cases.push({ sp_a: adjoint_a ? denseOf(r, inner2, m) : denseOf(r, m, inner2), b: s, adjoint_a, adjoint_b });
    }
  }
  return cases;
}
