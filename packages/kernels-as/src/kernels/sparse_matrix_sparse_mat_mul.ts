import { copyOut, rememberedProductsBound, type CsrData } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import type { KernelFactory } from '../kernel.js';
import { csrOperand } from '../csr-operand.js';
import type { WasmContext } from '../wasm-context.js';
import type { WasmExports } from '../wasm-module.js';

/**
 * sparse_matrix_sparse_mat_mul in wasm: Gustavson's algorithm (csr-matrix.ts) in one pass into room sized by a bound
 * known up front, each row formed in a dense accumulator and written with its columns sorted; a transposed operand
 * is transposed in wasm first. On threads, a matrix's rows are cut between them (rowCuts).
 */
export const sparseMatrixSparseMatMul: KernelFactory<'sparse_matrix_sparse_mat_mul'> = (ctx) => (args) => {
  const dtype = args.a.dtype as 'float32' | 'float64';
  const size = bytesPerElement(dtype);
  const transposeA = args.transpose_a || args.adjoint_a;
  const transposeB = args.transpose_b || args.adjoint_b;
  // Room for the result up front, from a bound on it (the one the runtime checked against its byte budget and
  // refused past int32 entries, remembered for operands that never change), so the product takes one pass and is
  // copied out at its size.
  const bound = rememberedProductsBound(args.a, args.b, transposeA, transposeB);
  const { heap } = ctx;
  ctx.begin();
  const a = csrOperand(ctx, args.a, transposeA);
  const b = csrOperand(ctx, args.b, transposeB);
  const { batch, rows: m, cols: k } = a;
  const n = b.cols;
  // The accumulator's two-level bitmap: a bit per column, then a bit per u64 word of those.
  const words = Math.ceil(n / 64);
  const shape = args.a.shape.length === 3 ? [batch, m, n] : [m, n];
  const cuts = batch === 1 ? rowCuts(ctx, a, b.rp, [m, k, n], bound) : undefined;
  // Rows cut between the threads (a matrix, not a batch): each part forms its rows in room of its own and with an
  // accumulator of its own, and the parts are then closed up.
  const parts = (cuts?.starts.length ?? 2) - 1;
  // A slot of slack past each part's room and the accumulator's words, for the sorted walk's branch-free writes.
  const room = (cuts?.total ?? bound) + parts;
  const outCi = heap.alloc(room * 4);
  const outV = heap.alloc(room * size);
  const calls = Array.from({ length: parts }, (_, p) => {
    const [r0, r1] = cuts ? [cuts.starts[p], cuts.starts[p + 1]] : [0, m];
    const at = cuts ? cuts.room[p] + p : 0;
    const outRp = heap.alloc(batch * (r1 - r0 + 1) * 4);
    const outBp = heap.alloc((batch + 1) * 4);
    const acc = heap.alloc((words * 64 + 1) * size);
    const bits = heap.zeros('i32', (words + Math.ceil(words / 64)) * 2);
    const args: Parameters<WasmExports['spgemm_float32']> = [
      a.rp + r0 * 4,
      a.ci,
      a.vals,
      a.bp,
      b.rp,
      b.ci,
      b.vals,
      b.bp,
      batch,
      r1 - r0,
      k,
      n,
      outRp,
      outBp,
      outCi + at * 4,
      outV + at * size,
      acc,
      bits,
    ];
    return { r0, rows: r1 - r0, at, outRp, outBp, args };
  });
  const counts = ctx.callParts(
    `spgemm_${dtype}`,
    calls.map((c) => ({ args: c.args })),
  );
  let nnz = counts[0];
  let batchPointers = heap.i32(calls[0].outBp, batch + 1).slice();
  let rowPointers = heap.i32(calls[0].outRp, batch * (m + 1));
  if (parts > 1) {
    // Close the parts up in order (each moves down, never over a part still to move) and offset their row pointers.
    rowPointers = new Int32Array(m + 1);
    nnz = 0;
    calls.forEach((c, p) => {
      heap.move(outCi + c.at * 4, counts[p] * 4, outCi + nnz * 4);
      heap.move(outV + c.at * size, counts[p] * size, outV + nnz * size);
      const partRp = heap.i32(c.outRp, c.rows + 1);
      for (let i = 1; i <= c.rows; i++) rowPointers[c.r0 + i] = partRp[i] + nnz;
      nnz += counts[p];
    });
    batchPointers = Int32Array.of(0, nnz);
  }
  const output: CsrData = {
    kind: 'csr',
    batchPointers,
    rowPointers: copyOut(rowPointers),
    colIndices: copyOut(heap.i32(outCi, nnz)),
    values: heap.readValues(dtype, outV, nnz),
    shape,
    dtype,
  };
  return { output };
};

/**
 * Where to cut op(a)'s m rows between the threads, by the products each row forms (at most n: its share of the
 * bound), and where each part's room starts (the bound of the rows before it); undefined for one part.
 */
function rowCuts(
  ctx: WasmContext,
  a: { rp: number; ci: number },
  bRp: number,
  [m, k, n]: [number, number, number],
  bound: number,
): { starts: number[]; room: number[]; total: number } | undefined {
  // A product is cheaper than the other ops' units of work, and the cut costs a pass over a's entries and a bitmap a
  // part: below 8 units a thread (a 0.6 ms product at 0.1%, 67k products) it lost time in the bench.
  if (ctx.threads === 1 || bound < 8 * ctx.parallelMinWork) return undefined;
  const rp = ctx.heap.i32(a.rp, m + 1);
  const ci = ctx.heap.i32(a.ci, rp[m]);
  const brp = ctx.heap.i32(bRp, k + 1);
  const before = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) {
    let products = 0;
    for (let e = rp[i]; e < rp[i + 1]; e++) products += brp[ci[e] + 1] - brp[ci[e]];
    before[i + 1] = before[i] + Math.min(products, n);
  }
  const starts = ctx.cuts(m, bound, (i) => before[i]);
  if (starts.length === 2) return undefined;
  return { starts, room: starts.slice(0, -1).map((r) => before[r]), total: before[m] };
}
