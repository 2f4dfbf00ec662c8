import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { dataDiff } from '@sparse/test-kit/data-diff';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { createWasmBackend, type WasmBackend } from '../dist/index.js';
import { runWasm } from './against-js.js';

// A threaded backend cuts the big passes between its threads, each writing its own part of the result: every
// output must be the same, bit for bit, as the one-thread backend's, and a failure must name the same entry.

const DTYPES = ['float32', 'float64', 'int32', 'int64'] as const;
type Numeric = (typeof DTYPES)[number];

function value(dtype: Numeric, rnd: () => number): number | bigint {
  const x = rnd() * 2 - 1;
  if (dtype === 'int32') return Math.round(x * 1000);
  if (dtype === 'int64') return BigInt(Math.round(x * 1000));
  return x;
}

/**
 * A rows × cols matrix with about `perRow` entries a row, rows of uneven length (some empty), in row-major order,
 * or shuffled with repeats.
 */
function matrix(
  rows: number,
  cols: number,
  perRow: number,
  dtype: Numeric,
  seed: number,
  shuffled = false,
): SparseData {
  const r = rng(seed);
  const entries: [number, number][] = [];
  for (let i = 0; i < rows; i++) {
    const k = r.next() < 0.1 ? 0 : r.int(2 * perRow + 1);
    const cs = new Set<number>();
    while (cs.size < Math.min(k, cols)) cs.add(r.int(cols));
    for (const c of [...cs].sort((a, b) => a - b)) entries.push([i, c]);
  }
  if (shuffled) {
    for (let i = 0; i < entries.length / 4; i++) entries.push(entries[r.int(entries.length)]);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [entries[i], entries[j]] = [entries[j], entries[i]];
    }
  }
  return sparse(
    entries,
    entries.map(() => value(dtype, r.next)),
    [rows, cols],
    dtype,
  );
}

function denseOf(shape: number[], dtype: Numeric, seed: number, nonzero = false): DenseData {
  const r = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  return dense(
    Array.from({ length: n }, () => {
      const v = value(dtype, r.next);
      return nonzero && (v === 0 || v === 0n) ? (dtype === 'int64' ? 1n : 1) : v;
    }),
    shape,
    dtype,
  );
}

type Call = [op: string, args: Record<string, unknown>];

/** The outputs of one backend and of the other, or the error each threw, compared exactly. */
function sameOnBoth(one: WasmBackend, many: WasmBackend, [op, args]: Call): string | undefined {
  const run = (b: WasmBackend) => {
    try {
      const r = runWasm(b, op, args);
      return { outputs: r.outputs, delegated: r.delegated };
    } catch (e) {
      return { error: `${(e as Error).name}: ${(e as Error).message}` };
    }
  };
  const a = run(one);
  const b = run(many);
  if ('error' in a || 'error' in b) return a.error === b.error ? undefined : `errors: ${a.error} vs ${b.error}`;
  if (b.delegated) return `delegated on threads: ${b.delegated}`;
  for (const name of Object.keys(a.outputs!)) {
    const diff = dataDiff(b.outputs![name], a.outputs![name], name);
    if (diff) return diff;
  }
  return undefined;
}

describe('a threaded wasm backend', async () => {
  const one = await createWasmBackend();
  const two = await createWasmBackend(undefined, { threads: 2 });
  const three = await createWasmBackend(undefined, { threads: 3 });

  it('runs on the threads asked for', () => {
    expect(one.threads).toBe(1);
    expect(two.threads).toBe(2);
    expect(three.threads).toBe(3);
    expect(two.threadsNote).toBeUndefined();
  });

  describe('gives every product the one-thread result, bit for bit', () => {
    for (const dtype of DTYPES) {
      it(dtype, () => {
        const calls: Call[] = [];
        // Rows in order; shuffled with repeats (the counting-sort path); a B past the cache (slabs of B's rows).
        const a = matrix(600, 500, 12, dtype, 1);
        const shuffled = matrix(600, 500, 12, dtype, 2, true);
        const wide = matrix(300, 6000, 90, dtype, 3);
        for (const [sp, b] of [
          [a, denseOf([500, 37], dtype, 4)],
          [shuffled, denseOf([500, 9], dtype, 5)],
          [wide, denseOf([6000, 64], dtype, 6)],
        ] as const) {
          calls.push(['sparse_tensor_dense_matmul', { sp_a: sp, b, adjoint_a: false, adjoint_b: false }]);
        }
        calls.push([
          'sparse_tensor_dense_matmul',
          { sp_a: a, b: denseOf([600, 40], dtype, 7), adjoint_a: true, adjoint_b: false },
        ]);
        calls.push([
          'sparse_tensor_dense_matmul',
          { sp_a: a, b: denseOf([33, 500], dtype, 8), adjoint_a: false, adjoint_b: true },
        ]);
        for (const call of calls) {
          expect(sameOnBoth(one, two, call)).toBeUndefined();
          expect(sameOnBoth(one, three, call)).toBeUndefined();
        }
      });
    }
  });

  describe('gives reductions, element-wise ops, merges and transposes the one-thread result, bit for bit', () => {
    for (const dtype of DTYPES) {
      it(dtype, () => {
        const a = matrix(3000, 400, 30, dtype, 11);
        const b = matrix(3000, 400, 30, dtype, 12);
        const calls: Call[] = [
          ['sparse_reduce_sum', { sp_input: a, axis: [1], keepdims: false }],
          ['sparse_reduce_max', { sp_input: a, axis: [1], keepdims: true }],
          ['sparse_reduce_sum', { sp_input: a, axis: null, keepdims: false }],
          ['sparse_dense_cwise_mul', { sp_input: a, dense: denseOf([400], dtype, 13) }],
          ['sparse_dense_cwise_add', { sp_input: a, dense: denseOf([3000, 400], dtype, 14) }],
          ['sparse_add', { a, b, thresh: dtype === 'int64' ? 300n : 0.3 }],
          ['sparse_maximum', { sp_a: a, sp_b: b }],
          ['sparse_transpose', { sp_input: a, perm: null }],
          ['sparse_transpose', { sp_input: matrix(300, 5000, 4, dtype, 16), perm: [1, 0] }],
          ['sparse_add', { a, b: denseOf([3000, 400], dtype, 15), thresh: dtype === 'int64' ? 0n : 0 }],
        ];
        for (const call of calls) {
          expect(sameOnBoth(one, two, call)).toBeUndefined();
          expect(sameOnBoth(one, three, call)).toBeUndefined();
        }
      });
    }
  });

  it('merges tensors of rank 1 and 3, and where one operand is empty', () => {
    const r = rng(21);
    const vec = (n: number, seed: number) => {
      const s = rng(seed);
      const at = [...new Set(Array.from({ length: n }, () => s.int(10 * n)))].sort((x, y) => x - y);
      return sparse(
        at.map((i) => [i]),
        at.map(() => s.next()),
        [10 * n],
        'float64',
      );
    };
    const cube = (seed: number) => {
      const m = matrix(4000, 60, 20, 'float32', seed);
      const idx = new Float64Array(m.values.length * 3);
      for (let i = 0; i < m.values.length; i++) {
        idx[3 * i] = Math.floor(m.indices[2 * i] / 40);
        idx[3 * i + 1] = m.indices[2 * i] % 40;
        idx[3 * i + 2] = m.indices[2 * i + 1];
      }
      return sparse(idx, m.values, [100, 40, 60], 'float32');
    };
    const empty = sparse([], [], [4000, 60], 'float32');
    const calls: Call[] = [
      ['sparse_add', { a: vec(50000, r.int(1000)), b: vec(40000, r.int(1000)), thresh: 0 }],
      ['sparse_add', { a: cube(22), b: cube(23), thresh: 0 }],
      ['sparse_add', { a: matrix(4000, 60, 20, 'float32', 24), b: empty, thresh: 0 }],
      ['sparse_add', { a: empty, b: matrix(4000, 60, 20, 'float32', 25), thresh: 0 }],
    ];
    for (const call of calls) expect(sameOnBoth(one, three, call)).toBeUndefined();
  });

  it('names the same entry as one thread when a part fails (an int32 division by zero late in the entries)', () => {
    const a = matrix(3000, 400, 30, 'int32', 31);
    const divisor = denseOf([3000, 400], 'int32', 32, true);
    const n = a.values.length;
    // Zero the divisor under an entry in the last third, so that the failing part is not the first.
    const late = Math.floor((n * 5) / 6);
    (divisor.data as Int32Array)[a.indices[2 * late] * 400 + a.indices[2 * late + 1]] = 0;
    const call: Call = ['sparse_dense_cwise_div', { sp_input: a, dense: divisor }];
    expect(() => runWasm(one, ...call)).toThrow(`sp_input.indices[${late}]`);
    expect(sameOnBoth(one, three, call)).toBeUndefined();
  });

  it('gives its memory back as one thread does, with fresh threads, and computes as before', async () => {
    const b = await createWasmBackend(undefined, { threads: 2, warmUp: false });
    const n = 2 ** 24; // a 64 MiB dense operand in wasm memory
    const big: Call = [
      'sparse_tensor_dense_matmul',
      {
        sp_a: sparse([[0, 0]], [2], [1, n], 'float32'),
        b: dense(new Float32Array(n).fill(1.5), [n, 1], 'float32'),
        adjoint_a: false,
        adjoint_b: false,
      },
    ];
    expect(runWasm(b, ...big).outputs.output).toMatchObject({ data: new Float32Array([3]) });
    expect(b.memoryBytes()).toBeGreaterThan(64 * 2 ** 20);
    await b.releaseMemory();
    expect(b.memoryBytes()).toBeLessThan(2 ** 20);
    expect(b.threads).toBe(2);
    const call: Call = [
      'sparse_tensor_dense_matmul',
      {
        sp_a: matrix(600, 500, 12, 'float32', 41),
        b: denseOf([500, 37], 'float32', 42),
        adjoint_a: false,
        adjoint_b: false,
      },
    ];
    expect(sameOnBoth(one, b, call)).toBeUndefined();
  });

  it('refuses a thread count that is not a whole number from 1', async () => {
    for (const threads of [0, 1.5, -2, Number.NaN, '2' as unknown as number])
      await expect(createWasmBackend(undefined, { threads })).rejects.toThrow(/threads must be a whole number/);
  });

  it('lets the process exit while its threads wait for work', () => {
    const index = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = `import(${JSON.stringify(index)}).then(async ({ createWasmBackend }) => {
      const b = await createWasmBackend(undefined, { threads: 3 });
      console.log(b.threads);
    });`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stderr).toBe('');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('3');
  });
});

describe('a threaded wasm backend that splits every call', async () => {
  // parallelMinWork 0: even the smallest calls are cut, so that every split path meets edge cases (one row, empty
  // rows at the cuts, fewer rows than threads).
  const one = await createWasmBackend(undefined, { warmUp: false });
  const split = await createWasmBackend(undefined, { threads: 4, parallelMinWork: 0, warmUp: false });

  it('gives small and degenerate calls the one-thread result', () => {
    const calls: Call[] = [];
    for (const [rows, cols, per] of [
      [1, 1, 1],
      [2, 3, 1],
      [3, 50, 4],
      [17, 5, 2],
      [5, 0, 0],
    ] as const) {
      const a = matrix(rows, cols, per, 'float32', rows * 7 + cols);
      const b = matrix(rows, cols, per, 'float32', rows * 11 + cols);
      calls.push(
        [
          'sparse_tensor_dense_matmul',
          { sp_a: a, b: denseOf([cols, 3], 'float32', 1), adjoint_a: false, adjoint_b: false },
        ],
        ['sparse_reduce_sum', { sp_input: a, axis: [1], keepdims: false }],
        ['sparse_dense_cwise_mul', { sp_input: a, dense: denseOf([cols], 'float32', 2) }],
        ['sparse_add', { a, b, thresh: 0 }],
        ['sparse_transpose', { sp_input: a, perm: null }],
      );
    }
    for (const call of calls) expect(sameOnBoth(one, split, call)).toBeUndefined();
  });
});
