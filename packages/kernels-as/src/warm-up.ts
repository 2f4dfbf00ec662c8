import type { DenseData, SparseData } from '@sparse/kernel-abi';
import type { Kernel } from './kernel.js';
import type { WasmContext } from './wasm-context.js';
import { HeapExhausted } from './heap.js';

/**
 * What a fresh backend does before its first call, so that the first call runs about as fast as later ones.
 *
 * - A fresh module runs on V8's baseline wasm code (Liftoff), several times slower than the optimized code a
 *   function gets once it has run a while, and V8 swaps the code in only between calls: a first 4096² SpMM spent
 *   15 ms in its kernel, later ones 1.6. So the backend makes ROUNDS rounds of small calls of the common float32
 *   kernels (the products, the index check, reductions by row, merges, transposes, concats, sorts, scatters),
 *   enough work for V8 to optimize their loops (it does so once a function has run through a budget of code; on the
 *   bench machine the calls of a round stopped getting faster after five to eight rounds, and with two a first
 *   reduction of 10^6 entries still ran at 5× its later speed). Results are dropped; nothing is kept prepared (the
 *   data is not marked immutable).
 * - A new page of wasm memory costs its first touch (the OS maps and zeroes it: 3 to 6 µs a page on the 2-core
 *   machine of the bench), and a first call grows the memory it then touches. So the warm-up maps MAPPED_BYTES
 *   (16 MiB: a first 4096² SpMM with n = 128 uses about 8), which later calls reuse.
 *
 * About 35 ms in all on that machine, a third of it mapping the memory (warmUp: false in createWasmBackend's options
 * skips it).
 */
const SIZE = 256;
const ROUNDS = 8;
/** The wasm memory mapped (touched) by the warm-up. */
export const MAPPED_BYTES = 16 * 2 ** 20;

export function warmUp(ctx: WasmContext, kernels: Record<string, Kernel>): void {
  const a = matrix(SIZE, 32, 1);
  const b = matrix(SIZE, 32, 5);
  const shuffled = shuffle(a);
  const dense: DenseData = {
    kind: 'dense',
    data: new Float32Array(384 * 64).fill(0.5),
    shape: [384, 64],
    dtype: 'float32',
  };
  const calls: [string, Record<string, unknown>][] = [
    ['sparse_tensor_dense_matmul', { sp_a: a, b: dense, adjoint_a: false, adjoint_b: false }],
    ['sparse_tensor_dense_matmul', { sp_a: shuffled, b: dense, adjoint_a: false, adjoint_b: false }],
    ['sparse_reduce_sum', { sp_input: a, axis: [1], keepdims: false }],
    ['sparse_add', { a, b, thresh: 0 }],
    ['sparse_transpose', { sp_input: a, perm: null }],
    ['sparse_concat', { sp_inputs: [a, b], axis: 1, expand_nonconcat_dim: false }],
    ['sparse_tensor_to_dense', { sp_input: a, default_value: 0, validate_indices: true }],
    ['sparse_reorder', { sp_input: shuffled }],
  ];
  for (let round = 0; round < ROUNDS; round++) {
    ctx.indicesValid(a);
    for (const [op, args] of calls) kernels[op]?.(args);
  }
  // The memory a first real call is likely to use, mapped now: a new page of wasm memory costs its first touch.
  ctx.heap.reset();
  try {
    ctx.heap.u8(ctx.heap.alloc(MAPPED_BYTES), MAPPED_BYTES).fill(0);
  } catch (e) {
    // A heap kept smaller than that (maxHeapBytes): nothing to map ahead.
    if (!(e instanceof HeapExhausted)) throw e;
  }
  ctx.heap.reset();
}

/**
 * A size×size float32 matrix in canonical order with `perRow` entries a row: columns j·step + (row + shift) mod
 * step, step = size / perRow.
 */
function matrix(size: number, perRow: number, shift: number): SparseData {
  const step = size / perRow;
  const n = size * perRow;
  const indices = new Float64Array(2 * n);
  const values = new Float32Array(n);
  for (let r = 0, i = 0; r < size; r++) {
    for (let j = 0; j < perRow; j++, i++) {
      indices[2 * i] = r;
      indices[2 * i + 1] = j * step + ((r + shift) % step);
      values[i] = ((r + j) % 7) - 3;
    }
  }
  return { kind: 'sparse', indices, values, shape: [size, size], dtype: 'float32' };
}

/** The same entries in reverse order (out of row order: the sorting paths). */
function shuffle(a: SparseData): SparseData {
  const n = a.values.length;
  const indices = new Float64Array(2 * n);
  const values = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    indices[2 * i] = a.indices[2 * (n - 1 - i)];
    indices[2 * i + 1] = a.indices[2 * (n - 1 - i) + 1];
    values[i] = a.values[n - 1 - i] as number;
  }
  return { ...a, indices, values };
}
