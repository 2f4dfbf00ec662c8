import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  ResourceExhaustedError,
  SparseTensor,
  createRuntime,
  getOpInfo,
  listBackends,
  listOps,
  tensor,
  type ArgMeta,
} from '@sparse/runtime';
import { toRuntimeArgs, type Case } from '../src/index.js';

// Malformed input of every kind, for every argument of every op: each call must return or throw
// InvalidArgumentError / TypeError, or ResourceExhaustedError where a whole number asks for more than the byte budget
// (sparse_eye's num_rows) — never another exception, a hang or a crash.

const BUNDLE = JSON.parse(readFileSync(join(import.meta.dirname, '../generated/cases.json'), 'utf8')).cases as Case[];
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

const ANYTHING: unknown[] = [
  null,
  'x',
  '',
  1.5,
  NaN,
  -1,
  2 ** 60,
  -Infinity,
  true,
  {},
  [],
  [[1], [2, 3]],
  [null],
  () => 0,
  Symbol('s'),
  10n,
];

/** Malformed SparseTensors, as plain SparseTensorValue objects (the constructor itself refuses some of these). */
const BAD_SPARSE: unknown[] = [
  { indices: [[0, 9]], values: [1], dense_shape: [2, 2] },
  { indices: [[0, -1]], values: [1], dense_shape: [2, 2] },
  { indices: [[0, 0.5]], values: [1], dense_shape: [2, 2] },
  { indices: [[0, NaN]], values: [1], dense_shape: [2, 2] },
  { indices: [[0]], values: [1], dense_shape: [2, 2] },
  {
    indices: [
      [0, 0],
      [1, 1],
    ],
    values: [1],
    dense_shape: [2, 2],
  },
  { indices: [[0, 0]], values: [1], dense_shape: [2, -1] },
  { indices: [[0, 0]], values: [1], dense_shape: [2, NaN] },
  { indices: [[0, 0]], values: [1], dense_shape: [2, 1.5] },
  { indices: [[0, 0]], values: [1], dense_shape: ['a', 2] },
  { indices: [[0, 0]], values: [1], dense_shape: [1e15, 1e15] },
  { indices: [[0, 0]], values: ['a'], dense_shape: [2, 2] },
  { indices: [[0, 0]], values: [{}], dense_shape: [2, 2] },
  { indices: 'x', values: [1], dense_shape: [2] },
  {
    indices: [
      [1, 1],
      [0, 0],
    ],
    values: [1, 2],
    dense_shape: [2, 2],
  },
  {
    indices: [
      [0, 0],
      [0, 0],
    ],
    values: [1, 2],
    dense_shape: [2, 2],
  },
  { indices: [], values: [], dense_shape: [] },
];

// CsrMatrix plain forms that are not CSR matrices: pointers that decrease, run past the values or are not whole,
// columns out of range or unsorted, ranks other than 2 and 3, a shape too large for int32 pointers, junk parts.
const BAD_CSR: unknown[] = [
  { row_pointers: [0, 2, 1], col_indices: [0, 1], values: [1, 2], dense_shape: [2, 2] },
  { row_pointers: [0, 1, 3], col_indices: [0, 1], values: [1, 2], dense_shape: [2, 2] },
  { row_pointers: [1, 1], col_indices: [0], values: [1], dense_shape: [1, 2] },
  { row_pointers: [0, 1.5], col_indices: [0], values: [1], dense_shape: [1, 2] },
  { row_pointers: [0, 1], col_indices: [5], values: [1], dense_shape: [1, 2] },
  { row_pointers: [0, 2], col_indices: [1, 0], values: [1, 2], dense_shape: [1, 2] },
  { row_pointers: [0, 1], col_indices: [0], values: [1], dense_shape: [2] },
  { row_pointers: [0, 0], col_indices: [], values: [], dense_shape: [1, 2, 3, 4] },
  { row_pointers: [0], col_indices: [], values: [], dense_shape: [1e15, 1e15] },
  { row_pointers: [0, 1], col_indices: [0], values: ['a'], dense_shape: [1, 2] },
  { row_pointers: 'x', col_indices: [0], values: [1], dense_shape: [1, 2] },
  { row_pointers: [0, 1], col_indices: [0], values: [1], dense_shape: [1, 2], batch_pointers: [0, 2] },
  { row_pointers: [0, 1], col_indices: [0], values: [1], dense_shape: [1, 2], extra: 1 },
];

const BAD_DENSE: unknown[] = [
  [[1, 2], [3]],
  [['a', 1]],
  tensor([1, 2, 3]),
  tensor([[1.5, 2.5]]),
  tensor(['a', 'b']),
  tensor(true),
  [1e40],
];
const BAD_INTS: unknown[] = [
  1.5,
  NaN,
  1e20,
  -1e20,
  '1',
  [1.5],
  [-1],
  [NaN],
  [2 ** 60],
  [[]],
  ['a'],
  [1e15, 1e15],
  [-1, -1],
];

function malformed(a: ArgMeta): unknown[] {
  const sparse = new SparseTensor([[0, 1]], [1], [2, 2]);
  switch (a.type) {
    case 'sparse':
    case 'sparse_or_null':
    case 'sparse_or_sparse_list':
      return [...BAD_SPARSE, tensor([[1, 2]]), ...ANYTHING];
    case 'sparse_list':
      return [
        BAD_SPARSE,
        [sparse, ...BAD_SPARSE.slice(0, 3)],
        [sparse, new SparseTensor([[0]], [1], [3])],
        ...ANYTHING,
      ];
    case 'sparse_or_dense':
      return [...BAD_SPARSE, ...BAD_DENSE, ...ANYTHING];
    case 'sparse_or_dense_list':
      return [
        BAD_SPARSE,
        BAD_DENSE,
        [sparse, ...BAD_DENSE.slice(0, 3)],
        [tensor([[1, 2]]), ...BAD_SPARSE.slice(0, 3)],
        [
          sparse,
          tensor([
            [1, 2],
            [3, 4],
            [5, 6],
          ]),
        ],
        [sparse, new SparseTensor([[0, 0, 0]], [1], [2, 2, 2])],
        new Array(2),
        ...ANYTHING,
      ];
    case 'dense':
    case 'scalar':
      return [sparse, ...BAD_DENSE, ...ANYTHING];
    case 'csr':
      return [sparse, tensor([[1, 2]]), ...BAD_CSR, ...ANYTHING];
    default:
      return [sparse, ...BAD_INTS, ...ANYTHING];
  }
}

// Through runAsync, which every backend has and the asynchronous one (webgpu) needs: its checks throw before the
// promise is made, as run's do, and the kernel's own errors reject it.
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'returned';
  } catch (e) {
    if (e instanceof InvalidArgumentError || e instanceof TypeError || e instanceof ResourceExhaustedError)
      return 'refused';
    return `threw ${(e as Error)?.name ?? typeof e}: ${(e as Error)?.message ?? String(e)}`;
  }
}

for (const backend of listBackends()) {
  describe(`malformed input on ${backend}: only InvalidArgumentError, TypeError or ResourceExhaustedError`, () => {
    for (const op of listOps()) {
      it(op, async () => {
        const rt = await createRuntime({ backend });
        const example = BUNDLE.find((c) => c.op === op && c.expect);
        expect(example, `${op} has an example to start from`).toBeTruthy();
        const base = toRuntimeArgs(example!.args);
        const info = getOpInfo(op)!;
        const bad: string[] = [];
        for (const a of info.args) {
          for (const v of malformed(a)) {
            const result = await outcome(() => rt.runAsync(op, { ...base, [a.name]: v }));
            if (result.startsWith('threw'))
              bad.push(`${a.name} = ${String(typeof v === 'symbol' ? 'Symbol' : JSON.stringify(v))}: ${result}`);
          }
        }
        // Random values of every kind, one argument at a time.
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...info.args),
            fc.anything({ withBigInt: true, withTypedArray: true, withSparseArray: true }),
            async (a, v) => {
              const result = await outcome(() => rt.runAsync(op, { ...base, [a.name]: v }));
              if (result.startsWith('threw')) bad.push(`${a.name} = ${fc.stringify(v)}: ${result}`);
            },
          ),
          { numRuns: RUNS },
        );
        expect(bad, bad.slice(0, 5).join('\n')).toEqual([]);
      });
    }
  });
}
