import { inspect } from 'node:util';
import { afterEach, expect, it, vi } from 'vitest';
import { CsrMatrix, SparseTensor, Tensor } from '../src/index.js';

// How tensors print: toString, console.log (util.inspect) and print() agree, and a long list shows its first and
// last three entries with '…' between, as TensorFlow.js summarizes.

afterEach(() => vi.restoreAllMocks());

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

it('a SparseTensor of 735 entries shows its first and last three, and how many it has', () => {
  const st = new SparseTensor(
    range(735).map((i) => [Math.floor(i / 50), i % 50]),
    Float32Array.from(range(735)),
    [15, 50],
  );
  expect(String(st)).toBe(
    'SparseTensor(indices=[[0, 0], [0, 1], [0, 2], …, [14, 32], [14, 33], [14, 34]], ' +
      'values=[0, 1, 2, …, 732, 733, 734], dense_shape=[15,50], dtype=float32, nnz=735)',
  );
  expect(inspect(st)).toBe(String(st));
});

it('a small SparseTensor shows every entry', () => {
  const st = new SparseTensor(
    [
      [0, 1],
      [2, 0],
    ],
    ['a', 'b'],
    [3, 2],
  );
  expect(String(st)).toBe('SparseTensor(indices=[[0, 1], [2, 0]], values=["a", "b"], dense_shape=[3,2], dtype=string)');
});

it('a Tensor summarizes each dim longer than 20', () => {
  const t = new Tensor(Int32Array.from(range(30 * 4)), [30, 4], 'int32');
  expect(String(t)).toBe(
    'Tensor([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], …, [108, 109, 110, 111], [112, 113, 114, 115], ' +
      '[116, 117, 118, 119]], shape=[30,4], dtype=int32)',
  );
  expect(String(new Tensor(Float32Array.of(2.5), [], 'float32'))).toBe('Tensor(2.5, shape=[], dtype=float32)');
  expect(inspect(t)).toBe(String(t));
});

it('a CsrMatrix summarizes its long arrays', () => {
  const m = CsrMatrix.fromSparseTensor(
    new SparseTensor(
      range(25).map((i) => [0, i]),
      Float32Array.from(range(25), (i) => i + 1),
      [1, 25],
    ),
  );
  expect(String(m)).toMatch(
    /^CsrMatrix\(row_pointers=\[0, 25\], col_indices=\[0, 1, 2, …, 22, 23, 24\], values=\[1, 2, 3, …, 23, 24, 25\]/,
  );
  expect(inspect(m)).toBe(String(m));
});

it('print() writes toString() with console.log', () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const st = new SparseTensor([[1]], [2], [3], 'float32');
  st.print();
  const t = new Tensor(Float32Array.of(1, 2), [2], 'float32');
  t.print();
  expect(log.mock.calls).toEqual([[String(st)], [String(t)]]);
});
