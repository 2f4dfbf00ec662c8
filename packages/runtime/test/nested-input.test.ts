import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ResourceExhaustedError, createRuntime, tensor } from '@sparse/runtime';

// Nested lists are converted where they are, row by row, into the dtype's storage: the element count is checked
// from the lengths before anything is read, a value that is not one (a hole of `new Array(n)`, undefined, an object)
// is refused at its position when it is reached, and no flat JS array of every value is built (V8 ends the process
// when a JS array grows past ~1.3e8 entries).

const ROOT = join(import.meta.dirname, '../../..');

/** A list whose entry `i` throws when read: conversion must stop before it. */
function tripwire(values: unknown[], i: number): unknown[] {
  const list = values.slice();
  Object.defineProperty(list, i, {
    get() {
      throw new Error(`entry ${i} was read`);
    },
  });
  return list;
}

describe('nested lists', () => {
  it('convert row by row into the storage of every dtype', () => {
    const floats = tensor([
      [0.1, 2.5, -3],
      [4, 5e-40, 1e39],
    ]);
    expect(floats.dtype).toBe('float32');
    expect(floats.shape).toEqual([2, 3]);
    expect(floats.dataSync()).toEqual(Float32Array.from([0.1, 2.5, -3, 4, 5e-40, 1e39]));

    const grid = Array.from({ length: 2 }, (_, i) =>
      Array.from({ length: 3 }, (_, j) => Array.from({ length: 4 }, (_, k) => 100 * i + 10 * j + k - 50)),
    );
    const ints = tensor(grid);
    expect(ints.dtype).toBe('int32');
    expect(ints.shape).toEqual([2, 3, 4]);
    expect(ints.dataSync()).toEqual(Int32Array.from(grid.flat(2)));

    // A wide int or a bigint in a later row makes every row int64.
    const wide = tensor([
      [1, -4],
      [3n, 2 ** 40],
    ]);
    expect(wide.dtype).toBe('int64');
    expect(wide.dataSync()).toEqual(BigInt64Array.from([1n, -4n, 3n, 2n ** 40n]));
    // A float in the last row makes every row float32.
    expect(
      tensor([
        [1, 2],
        [3, 4.5],
      ]).dtype,
    ).toBe('float32');

    expect(tensor([[true], [false]]).dataSync()).toEqual(Uint8Array.from([1, 0]));
    const strings = tensor([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect([strings.dtype, strings.dataSync()]).toEqual(['string', ['a', 'b', 'c', 'd']]);

    expect(
      tensor(
        [
          [1, 2],
          [3, 4],
        ],
        'float64',
      ).dataSync(),
    ).toEqual(Float64Array.from([1, 2, 3, 4]));
    expect(
      tensor(
        [
          ['1', 2],
          [3n, -4],
        ],
        'int64',
      ).dataSync(),
    ).toEqual(BigInt64Array.from([1n, 2n, 3n, -4n]));
    expect(tensor([[], [], []]).shape).toEqual([3, 0]);
    expect(tensor(7).dataSync()).toEqual(Int32Array.from([7]));
    expect(tensor([[1, 2, 3, 4, 5, 6]], 'float32', [3, 2]).toArray()).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
  });

  it('convert many rows of floats exactly as float32 rounds them', () => {
    const rows = Array.from({ length: 7 }, (_, i) =>
      Array.from({ length: 1000 }, (_, j) => Math.sin(i * 1000 + j) * 1e3),
    );
    const t = tensor(rows);
    expect([t.dtype, t.shape]).toEqual(['float32', [7, 1000]]);
    expect(t.dataSync()).toEqual(Float32Array.from(rows.flat()));
    expect(tensor(rows, 'float64').dataSync()).toEqual(Float64Array.from(rows.flat()));
  });

  it('refuse a value that is not one at its position, naming the argument', async () => {
    const holey = new Array<unknown>(3);
    holey[0] = 1;
    holey[2] = 3;
    expect(() => tensor([[1, 2, 3], holey])).toThrow(/^tensor\[1\]\[1\]: cannot make a tensor of undefined$/);
    expect(() => tensor([[1], [{}]])).toThrow(/^tensor\[1\]\[0\]: cannot make a tensor of an object$/);
    expect(() => tensor([[[1, 2]], [[3, null]]])).toThrow(/^tensor\[1\]\[0\]\[1\]: cannot make a tensor of null$/);
    expect(() =>
      tensor(
        [
          [1, 2],
          [3, undefined],
        ],
        'float32',
      ),
    ).toThrow(/^tensor\[1\]\[1\]: undefined is not a valid float32 value$/);
    expect(() =>
      tensor(
        [
          [1, 2],
          [3, 2 ** 31],
        ],
        'int32',
      ),
    ).toThrow(/^tensor\[1\]\[1\]: 2147483648 does not fit in int32$/);
    expect(() => tensor({ length: 2 })).toThrow(/^tensor: cannot make a tensor of an object claiming length 2/);
    const rt = await createRuntime();
    expect(() =>
      rt.run('sparse_to_dense', { sparse_indices: [[0], [undefined]], output_shape: [3], sparse_values: 1 }),
    ).toThrow(/^sparse_to_dense: sparse_indices\[1\]\[0\]: cannot make a tensor of undefined$/);
  });

  it('stop at the first value that is not one: nothing after it is read', () => {
    const later = tripwire([5, 6], 0);
    expect(() => tensor([[undefined, 1], later])).toThrow(/^tensor\[0\]\[0\]: cannot make a tensor of undefined$/);
    expect(() => tensor([[1, undefined], later], 'float32')).toThrow(/^tensor\[0\]\[1\]: undefined is not a valid/);
    expect(() => tensor([[1, 2], [3, 'x'], later])).toThrow(/^tensor\[1\]\[1\]: mixed value kinds: number and string$/);
    expect(() => tensor(tripwire([undefined, 1, 2], 2))).toThrow(/^tensor\[0\]: cannot make a tensor of undefined$/);
  });

  it('count their values before reading any', () => {
    // 2^16 references to one row of 2^16: 2^32 values, more than a dense tensor holds; the row's second entry is
    // never read.
    const row = tripwire(new Array(2 ** 16).fill(1), 1);
    expect(() => tensor(new Array(2 ** 16).fill(row))).toThrow(ResourceExhaustedError);
    expect(() => tensor(new Array(2 ** 16).fill(row))).toThrow(
      /^tensor of dense shape \[65536,65536\] would hold 4\.295e\+9 elements, more than the 2147483647 a dense tensor can hold$/,
    );
  });

  it('keep the errors of ragged nesting, mixed kinds and nesting too deep', () => {
    expect(() => tensor([[1, 2], [3]])).toThrow(
      /^tensor: the nesting is not rectangular at \[1\]: expected 2 entries$/,
    );
    expect(() => tensor([[1], 2])).toThrow(/^tensor: the nesting is not rectangular at \[1\]: expected 1 entries$/);
    expect(() =>
      tensor([
        [1, 2],
        [3, [4]],
      ]),
    ).toThrow(/^tensor: the nesting is not rectangular at \[1\]\[1\]$/);
    expect(() =>
      tensor(
        [
          [1, 2],
          [3, [4]],
        ],
        'float32',
      ),
    ).toThrow(/^tensor: the nesting is not rectangular at \[1\]\[1\]$/);
    expect(() =>
      tensor([
        [1, 2],
        ['a', 'b'],
      ]),
    ).toThrow(/^tensor\[1\]\[0\]: mixed value kinds: number and string$/);
    expect(() => tensor([1, true])).toThrow(/^tensor\[1\]: mixed value kinds: number and boolean$/);
    let deep: unknown = 1;
    for (let i = 0; i < 255; i++) deep = [deep];
    expect(() => tensor(deep)).toThrow(InvalidArgumentError);
    expect(() => tensor(deep)).toThrow(/^tensor: the lists are nested more than 254 deep, the most dims a tensor has$/);
  });

  it('never abort the process: holey arrays and counts past the limit end in an error, in milliseconds', () => {
    // In a child process: before nested lists were read in place, each of these ended the process (a fatal V8
    // "invalid size error" growing a flat array), which here fails the test instead of ending vitest.
    const script = `
      import { createRuntime, tensor } from '@sparse/runtime';
      const rt = await createRuntime();
      const row = new Array(2 ** 16); row[0] = 1;
      Object.defineProperty(row, 1, { get() { throw new Error('row[1] was read'); } });
      const calls = {
        'fromDense(new Array(1e9))': () => rt.sparse.fromDense(new Array(1e9)),
        'fromDense([new Array(1e8), new Array(1e8)])': () => rt.sparse.fromDense([new Array(1e8), new Array(1e8)]),
        'sparse_to_dense of new Array(1e9) indices': () =>
          rt.run('sparse_to_dense', { sparse_indices: new Array(1e9), output_shape: [3], sparse_values: 1 }),
        'tensor of two holey rows as float32': () => tensor([new Array(1e8), new Array(1e8)], 'float32'),
        'fromDense(new Array(2 ** 31))': () => rt.sparse.fromDense(new Array(2 ** 31)),
        'fromDense of 2^16 rows of 2^16': () => rt.sparse.fromDense(new Array(2 ** 16).fill(row)),
        'sparse_concat of new Array(1e9) inputs': () => rt.run('sparse_concat', { axis: 0, sp_inputs: new Array(1e9) }),
        'sparse_reshape to a list of new Array(1e9) dims': () =>
          rt.run('sparse_reshape', { sp_input: { indices: [[0]], values: [1], dense_shape: [2] }, shape: new Array(1e9) }),
        'sparse_to_dense to an output_shape of new Array(1e9)': () =>
          rt.run('sparse_to_dense', { sparse_indices: [0], output_shape: new Array(1e9), sparse_values: 1 }),
      };
      for (const [name, call] of Object.entries(calls)) {
        const started = performance.now();
        let outcome = 'returned';
        try { call(); } catch (e) { outcome = e.name + ': ' + e.message; }
        console.log(JSON.stringify({ name, outcome, ms: performance.now() - started }));
      }
    `;
    const child = spawnSync(process.execPath, ['--max-old-space-size=512', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(child.status, `the child ended with ${child.signal ?? child.status}: ${child.stderr.slice(-2000)}`).toBe(0);
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { name: string; outcome: string; ms: number });
    expect(Object.fromEntries(lines.map((l) => [l.name, l.outcome]))).toEqual({
      'fromDense(new Array(1e9))': 'TypeError: from_dense: tensor[0]: cannot make a tensor of undefined',
      'fromDense([new Array(1e8), new Array(1e8)])':
        'TypeError: from_dense: tensor[0][0]: cannot make a tensor of undefined',
      'sparse_to_dense of new Array(1e9) indices':
        'TypeError: sparse_to_dense: sparse_indices[0]: cannot make a tensor of undefined',
      'tensor of two holey rows as float32': 'TypeError: tensor[0][0]: undefined is not a valid float32 value',
      'fromDense(new Array(2 ** 31))':
        'ResourceExhaustedError: from_dense: tensor of dense shape [2147483648] would hold 2.147e+9 elements, more than the 2147483647 a dense tensor can hold',
      'fromDense of 2^16 rows of 2^16':
        'ResourceExhaustedError: from_dense: tensor of dense shape [65536,65536] would hold 4.295e+9 elements, more than the 2147483647 a dense tensor can hold',
      'sparse_concat of new Array(1e9) inputs':
        'TypeError: sparse_concat: sp_inputs[0] must be a SparseTensor, got undefined',
      'sparse_reshape to a list of new Array(1e9) dims':
        'TypeError: sparse_reshape: shape[0] must be a whole number, got undefined',
      'sparse_to_dense to an output_shape of new Array(1e9)':
        'InvalidArgumentError: sparse_to_dense: output_shape has 1000000000 dims; a tensor has at most 254',
    });
    // Refused at once, not after walking a billion holes.
    for (const l of lines) expect(l.ms, l.name).toBeLessThan(1000);
  });
});
