import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markImmutable, type DType, type SparseData } from '@sparse/kernel-abi';
import { dense, scalar, store } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { createWasmBackend, type WasmBackend } from '../dist/index.js';
import { againstJs, runWasm } from './against-js.js';

// Operands kept prepared: a tensor's indices, values and row pointers stay in wasm memory between calls, keyed on
// its arrays, for arrays marked immutable (as the runtime marks a SparseTensor's own storage).

type Order = 'canonical' | 'rows' | 'shuffled';

/**
 * A rows × cols matrix with about `perRow` entries a row (seeded), marked immutable unless `mark` is false.
 * 'canonical': row-major order; 'rows': rows in order, columns within a row not (with repeats); 'shuffled': any.
 */
function matrix(
  rows: number,
  cols: number,
  perRow: number,
  seed: number,
  { order = 'canonical', dtype = 'float32', mark = true }: { order?: Order; dtype?: DType; mark?: boolean } = {},
): SparseData {
  const r = rng(seed);
  const entries: [number, number][] = [];
  for (let i = 0; i < rows; i++) {
    const n = r.int(2 * perRow + 1);
    const row = new Set<number>();
    for (let k = 0; k < n; k++) row.add(r.int(cols));
    const cs = [...row].sort((a, b) => a - b);
    if (order === 'rows' && cs.length > 1) {
      cs.reverse();
      cs.push(cs[0]); // a repeat, out of column order
    }
    for (const c of cs) entries.push([i, c]);
  }
  if (order === 'shuffled') {
    for (let i = entries.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [entries[i], entries[j]] = [entries[j], entries[i]];
    }
  }
  const indices = Float64Array.from(entries.flat());
  const values = store(
    dtype,
    entries.map(() => (dtype === 'int32' || dtype === 'int64' ? r.int(19) - 9 : Math.round(r.next() * 40 - 20) / 8)),
  );
  if (mark) markImmutable(indices, values as object);
  return { kind: 'sparse', indices, values, shape: [rows, cols], dtype };
}

const spmm = (sp_a: SparseData, n: number, adjoint_a = false) => {
  const k = sp_a.shape[adjoint_a ? 0 : 1];
  return {
    sp_a,
    b: dense(
      Float32Array.from({ length: k * n }, (_, i) => ((i * 7) % 13) - 6),
      [k, n],
      sp_a.dtype,
    ),
    adjoint_a,
    adjoint_b: false,
  };
};

/** Runs the op twice (the second time on what the first prepared) and checks both against the JS kernels. */
function twiceAgainstJs(backend: WasmBackend, op: string, args: Record<string, unknown>): void {
  for (const time of ['first', 'second']) {
    const { diff, delegated } = againstJs(backend, op, args);
    expect(diff, `${op}, ${time} call`).toBeUndefined();
    expect(delegated, `${op}, ${time} call`).toBeUndefined();
  }
}

describe('operands kept prepared in wasm memory', async () => {
  it('copies a marked tensor in once: a second call on it uploads nothing', async () => {
    const backend = await createWasmBackend();
    const a = matrix(2000, 600, 20, 1);
    const before = backend.residentStats();
    expect(before).toEqual({ uploads: 0, residentBytes: 0, residentArrays: 0 });
    runWasm(backend, 'sparse_tensor_dense_matmul', spmm(a, 16));
    const once = backend.residentStats();
    expect(once.uploads).toBe(2); // the indices and the values
    expect(once.residentArrays).toBe(2);
    const n = a.values.length;
    expect(once.residentBytes).toBe(n * 2 * 4 + n * 4); // i32 indices, float32 values
    expect(backend.residentBytes()).toBe(once.residentBytes);
    // The same tensor again, and other ops on it: nothing is copied in again (a matrix's row pointers are made
    // once, beside its indices).
    twiceAgainstJs(backend, 'sparse_tensor_dense_matmul', spmm(a, 16));
    twiceAgainstJs(backend, 'sparse_reduce_sum', { sp_input: a, axis: [1], keepdims: false });
    twiceAgainstJs(backend, 'sparse_transpose', { sp_input: a, perm: null });
    twiceAgainstJs(backend, 'sparse_tensor_to_dense', { sp_input: a, default_value: 0, validate_indices: true });
    expect(backend.residentStats().uploads).toBe(2);
    expect(backend.residentStats().residentBytes).toBe(once.residentBytes + (2000 + 1) * 4);
  });

  it('copies arrays that are not marked for each call, and keeps none of them', async () => {
    const backend = await createWasmBackend();
    const a = matrix(2000, 600, 20, 2, { mark: false });
    twiceAgainstJs(backend, 'sparse_tensor_dense_matmul', spmm(a, 16));
    twiceAgainstJs(backend, 'sparse_reduce_sum', { sp_input: a, axis: [1], keepdims: false });
    expect(backend.residentStats()).toEqual({ uploads: 0, residentBytes: 0, residentArrays: 0 });
  });

  it('lets a tensor go when told to forget it, and everything on dispose, with the memory', async () => {
    const backend = await createWasmBackend();
    const fresh = (await createWasmBackend(undefined, { warmUp: false })).memoryBytes();
    const a = matrix(2000, 600, 20, 3);
    const b = matrix(2000, 600, 20, 4);
    runWasm(backend, 'sparse_add', { a, b, thresh: 0 });
    const both = backend.residentBytes();
    expect(backend.residentStats().residentArrays).toBe(4);
    backend.forget([a.indices, a.values]);
    expect(backend.residentStats().residentArrays).toBe(2);
    expect(backend.residentBytes()).toBe(both - a.values.length * 12);
    await backend.dispose();
    expect(backend.residentBytes()).toBe(0);
    expect(backend.memoryBytes()).toBe(fresh);
    // Still usable: the tensors are prepared again.
    twiceAgainstJs(backend, 'sparse_add', { a, b, thresh: 0 });
    expect(backend.residentStats().residentArrays).toBe(4);
  });

  it('drops what it kept when the module moves to a fresh instance, and computes as before', async () => {
    const backend = await createWasmBackend();
    const a = matrix(2000, 600, 20, 5);
    runWasm(backend, 'sparse_reduce_sum', { sp_input: a, axis: [1], keepdims: false });
    const uploads = backend.residentStats().uploads;
    expect(backend.residentBytes()).toBeGreaterThan(0);
    await backend.releaseMemory();
    expect(backend.residentBytes()).toBe(0);
    twiceAgainstJs(backend, 'sparse_reduce_sum', { sp_input: a, axis: [1], keepdims: false });
    twiceAgainstJs(backend, 'sparse_tensor_dense_matmul', spmm(a, 8));
    // Prepared again in the new memory: once.
    expect(backend.residentStats().uploads).toBe(uploads + 2);
  });

  it('keeps at most its limit, letting the least recently used go first', async () => {
    const backend = await createWasmBackend();
    const a = matrix(2000, 600, 20, 6);
    const b = matrix(2000, 600, 20, 7);
    const bytesOf = (s: SparseData) => s.values.length * 12 + (s.shape[0] + 1) * 4;
    const limit = bytesOf(a) + bytesOf(b) - 1;
    backend.limitResident(limit);
    const reduce = (s: SparseData) =>
      runWasm(backend, 'sparse_reduce_sum', { sp_input: s, axis: [1], keepdims: false });
    reduce(a);
    expect(backend.residentBytes()).toBe(bytesOf(a));
    reduce(b);
    // b did not all fit beside a: a's indices (with its row pointers), the least recently used, went.
    expect(backend.residentBytes()).toBe(bytesOf(b) + a.values.length * 4);
    let uploads = backend.residentStats().uploads;
    reduce(b);
    expect(backend.residentStats().uploads).toBe(uploads);
    // a again: what of it went is copied in again (its values too, now the least recently used), once.
    reduce(a);
    uploads = backend.residentStats().uploads;
    twiceAgainstJs(backend, 'sparse_reduce_sum', { sp_input: a, axis: [1], keepdims: false });
    expect(backend.residentStats().uploads).toBe(uploads);
    expect(backend.residentBytes()).toBeLessThanOrEqual(limit);
    // Nothing kept at a limit of 0; the calls compute as before.
    backend.limitResident(0);
    expect(backend.residentBytes()).toBe(0);
    uploads = backend.residentStats().uploads;
    twiceAgainstJs(backend, 'sparse_reduce_sum', { sp_input: a, axis: [1], keepdims: false });
    expect(backend.residentStats().uploads).toBe(uploads);
    expect(backend.residentBytes()).toBe(0);
  });

  it('gives back what it kept for a tensor the garbage collector took', () => {
    // In a child process with --expose-gc: the FinalizationRegistry callback runs after a collection, between tasks.
    const dist = new URL('../dist/index.js', import.meta.url).href;
    const script = `
      import { createWasmBackend } from '${dist}';
      import { markImmutable } from '@sparse/kernel-abi';
      const backend = await createWasmBackend(undefined, { warmUp: false });
      (() => {
        const n = 40000;
        const indices = new Float64Array(2 * n);
        for (let i = 0; i < n; i++) { indices[2 * i] = Math.floor(i / 20); indices[2 * i + 1] = i % 20; }
        const values = new Float32Array(n).fill(1);
        markImmutable(indices, values);
        backend.kernels.sparse_reduce_sum({ sp_input: { kind: 'sparse', indices, values, shape: [2000, 20], dtype: 'float32' }, axis: [1], keepdims: false });
      })();
      const kept = backend.residentBytes();
      for (let i = 0; i < 20 && backend.residentBytes() > 0; i++) {
        globalThis.gc();
        await new Promise((r) => setTimeout(r, 10));
      }
      console.log(JSON.stringify({ kept, after: backend.residentBytes() }));
    `;
    const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    const { kept, after } = JSON.parse(child.stdout);
    expect(kept).toBe(40000 * 12 + 2001 * 4);
    expect(after).toBe(0);
  });

  describe('results on prepared operands equal the JS kernels, on every path', async () => {
    // Everything kept, however small, so that each path runs on prepared operands.
    const backend = await createWasmBackend(undefined, { residentMinBytes: 0 });
    const orders: Order[] = ['canonical', 'rows', 'shuffled'];

    for (const order of orders) {
      for (const dtype of ['float32', 'float64', 'int32', 'int64'] as DType[]) {
        it(`${order} ${dtype} matrices`, () => {
          const a = matrix(60, 40, 5, 10, { order, dtype });
          const b = matrix(60, 40, 5, 11, { order, dtype });
          const narrow = matrix(45, 40, 5, 12, { order, dtype });
          const wide = matrix(60, 17, 3, 13, { order, dtype });
          twiceAgainstJs(backend, 'sparse_tensor_dense_matmul', spmm(a, 9));
          twiceAgainstJs(backend, 'sparse_tensor_dense_matmul', spmm(a, 30, true));
          for (const op of ['sparse_reduce_sum', 'sparse_reduce_max', 'sparse_reduce_min', 'sparse_reduce_prod'])
            for (const axis of [[1], [-1], null, [0], [0, 1]])
              for (const keepdims of [false, true]) twiceAgainstJs(backend, op, { sp_input: a, axis, keepdims });
          twiceAgainstJs(backend, 'sparse_transpose', { sp_input: a, perm: null });
          twiceAgainstJs(backend, 'sparse_transpose', { sp_input: a, perm: [0, 1] });
          for (const [inputs, axis, expand] of [
            [[a, b], 1, false],
            [[a, b, a], 0, false],
            [[a, wide], 1, false],
            [[narrow, a], 1, true],
            [[a, narrow], 0, false],
            [[a, b], -1, false],
          ] as [SparseData[], number, boolean][])
            twiceAgainstJs(backend, 'sparse_concat', { sp_inputs: inputs, axis, expand_nonconcat_dim: expand });
          twiceAgainstJs(backend, 'sparse_reorder', { sp_input: a });
          twiceAgainstJs(backend, 'sparse_tensor_to_dense', {
            sp_input: a,
            default_value: scalar(dtype, 0),
            validate_indices: false,
          });
          twiceAgainstJs(backend, 'sparse_slice', { sp_input: a, start: [3, 5], size: [30, 20] });
          twiceAgainstJs(backend, 'sparse_abs', { sp_input: a });
          twiceAgainstJs(backend, 'sparse_dense_cwise_mul', {
            sp_input: a,
            dense: dense(
              Array.from({ length: 40 }, (_, i) => (i % 5) - 2),
              [40],
              dtype,
            ),
          });
          if (order === 'canonical') {
            twiceAgainstJs(backend, 'sparse_add', { a, b, thresh: scalar(dtype, 0) });
            twiceAgainstJs(backend, 'sparse_add', { a, b: a, thresh: scalar(dtype, 3) });
            twiceAgainstJs(backend, 'sparse_maximum', { sp_a: a, sp_b: b });
          }
        });
      }
    }

    it('rank 1 and rank 3 tensors, and an empty one', () => {
      const r = rng(20);
      const rank3 = (mark: boolean): SparseData => {
        const idx: number[] = [];
        for (let i = 0; i < 4; i++)
          for (let j = 0; j < 5; j++) for (let k = 0; k < 6; k++) if (r.int(3) === 0) idx.push(i, j, k);
        const indices = Float64Array.from(idx);
        const values = Float32Array.from({ length: idx.length / 3 }, () => r.int(9) - 4);
        if (mark) markImmutable(indices, values);
        return { kind: 'sparse', indices, values, shape: [4, 5, 6], dtype: 'float32' };
      };
      const t = rank3(true);
      for (const axis of [[2], [1, 2], null, [0]])
        twiceAgainstJs(backend, 'sparse_reduce_sum', { sp_input: t, axis, keepdims: false });
      twiceAgainstJs(backend, 'sparse_transpose', { sp_input: t, perm: [2, 0, 1] });
      twiceAgainstJs(backend, 'sparse_concat', { sp_inputs: [t, rank3(true)], axis: 1, expand_nonconcat_dim: false });
      const v = {
        kind: 'sparse',
        indices: Float64Array.from([0, 3, 7]),
        values: Float32Array.from([1, 2, 3]),
        shape: [9],
        dtype: 'float32',
      } as SparseData;
      markImmutable(v.indices, v.values);
      twiceAgainstJs(backend, 'sparse_reduce_sum', { sp_input: v, axis: null, keepdims: false });
      const empty = {
        kind: 'sparse',
        indices: new Float64Array(0),
        values: new Float32Array(0),
        shape: [3, 4],
        dtype: 'float32',
      } as SparseData;
      markImmutable(empty.indices, empty.values);
      twiceAgainstJs(backend, 'sparse_reduce_sum', { sp_input: empty, axis: [1], keepdims: false });
      twiceAgainstJs(backend, 'sparse_transpose', { sp_input: empty, perm: null });
      twiceAgainstJs(backend, 'sparse_concat', { sp_inputs: [empty, empty], axis: 1, expand_nonconcat_dim: false });
    });
  });
});
