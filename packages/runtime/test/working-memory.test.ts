import { expect, it } from 'vitest';
import { CsrMatrix, createRuntime, getOpInfo, ResourceExhaustedError } from '../src/index.js';
import { scratchParts } from '../src/working-memory.js';
import type { BoundArgs } from '../src/bind-args.js';

// kernel.scratch: the working memory a spec declares is counted only for the flags it names, from the dims alone,
// and refused before the call does any work of its size.

const csr = (rows: number, cols: number, batch?: number) =>
  batch === undefined
    ? new CsrMatrix([0, 1, ...Array(rows - 1).fill(1)], [0], [1], [rows, cols], 'float64')
    : new CsrMatrix(
        Array.from({ length: batch * (rows + 1) }, (_, i) => (i % (rows + 1) === 0 ? 0 : 1)),
        Array(batch).fill(0),
        Array(batch).fill(1),
        [batch, rows, cols],
        'float64',
      );

function bound(values: Record<string, unknown>): BoundArgs {
  return { values, dtypes: { T: 'float64' } } as unknown as BoundArgs;
}

const kernelData = (m: CsrMatrix) => ({ kind: 'csr', shape: m.denseShape.slice(), values: { length: m.nnz } });

it('counts each term for the flags it names, dims from the end and a missing axis as 1', () => {
  const op = getOpInfo('sparse_matrix_transpose')!;
  const [plain] = [scratchParts(op, bound({ input: kernelData(csr(2, 1000)) }))];
  // A cursor per column (4 bytes), and the pointers of a batch of 1 (4 bytes per column).
  expect(plain.map((p) => p.bytes)).toEqual([4000, 4000]);
  const batched = scratchParts(op, bound({ input: kernelData(csr(2, 1000, 3)) }));
  expect(batched.map((p) => p.bytes)).toEqual([4000, 12000]);
  const mm = getOpInfo('sparse_matrix_sparse_mat_mul')!;
  const args = (flags: Record<string, boolean>) =>
    bound({
      a: kernelData(csr(5, 7)),
      b: kernelData(csr(7, 9)),
      transpose_a: false,
      transpose_b: false,
      adjoint_a: false,
      adjoint_b: false,
      ...flags,
    });
  const total = (flags: Record<string, boolean>) => scratchParts(mm, args(flags)).reduce((n, p) => n + p.bytes, 0);
  // adjoint_a counts as transpose_a does; neither counts a's transposed copy.
  expect(total({ adjoint_a: true })).toBe(total({ transpose_a: true }));
  expect(total({ transpose_a: true })).toBeGreaterThan(total({}));
  expect(scratchParts(mm, args({})).some((p) => p.what.includes('dims -1 of a'))).toBe(false);
  expect(scratchParts(mm, args({ transpose_a: true })).some((p) => p.what.includes('dims -1 of a'))).toBe(true);
});

it('refuses a call on its scratch alone, in milliseconds, naming the op and the working memory', async () => {
  const rt = await createRuntime({ backend: 'js', maxBytes: 2 ** 26 });
  const wide = csr(1, 2 ** 31 - 1);
  const t0 = performance.now();
  let error: unknown;
  try {
    rt.run('sparse_matrix_sparse_mat_mul', { a: wide, b: wide, transpose_a: true });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ResourceExhaustedError);
  expect((error as Error).message).toMatch(/^sparse_matrix_sparse_mat_mul: working memory \(\d+ bytes × 2147483647/);
  expect(performance.now() - t0).toBeLessThan(100);
});
