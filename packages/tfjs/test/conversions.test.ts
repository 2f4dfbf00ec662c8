import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SparseTensor, sparse, tensor } from '@sparse/runtime';
import { fromTf, sparseFromTf, sparseToTf, toTf } from '../src/index.js';

await tf.setBackend('cpu');

describe('dense tensors both ways', () => {
  it('keeps the values, shape and dtype of float32, int32, bool and string', () => {
    for (const [values, dtype] of [
      [
        [
          [1.5, -2],
          [3, 4],
        ],
        'float32',
      ],
      [
        [
          [1, -2],
          [3, 2147483647],
        ],
        'int32',
      ],
      [
        [
          [true, false],
          [false, true],
        ],
        'bool',
      ],
      [
        [
          ['a', 'bc'],
          ['', 'd'],
        ],
        'string',
      ],
    ] as const) {
      const ours = tensor(values as never, dtype);
      const theirs = toTf(ours);
      // TF.js reads bools back as 1 and 0.
      const tfValues = dtype === 'bool' ? values.map((row) => row.map(Number)) : values;
      expect([theirs.dtype, theirs.shape, theirs.arraySync()]).toEqual([dtype, [2, 2], tfValues]);
      const back = fromTf(theirs);
      expect([back.dtype, back.shape, back.toArray()]).toEqual([dtype, [2, 2], values]);
      theirs.dispose();
    }
  });

  it('refuses float64 and int64 unless asked to narrow, and then checks every int64 fits int32', () => {
    const f64 = tensor([0.1, 1e300], 'float64');
    expect(() => toTf(f64)).toThrow(TypeError);
    expect(() => toTf(f64)).toThrow(/TF\.js has no float64; pass \{ dtype: 'float32' \} to narrow it/);
    const narrowed = toTf(f64, { dtype: 'float32' });
    expect([narrowed.dtype, Array.from(narrowed.dataSync())]).toEqual(['float32', [Math.fround(0.1), Infinity]]);
    const i64 = tensor([1n, -2n], 'int64');
    expect(() => toTf(i64)).toThrow(/TF\.js has no int64; pass \{ dtype: 'int32' \}/);
    expect(Array.from(toTf(i64, { dtype: 'int32' }).dataSync())).toEqual([1, -2]);
    expect(() => toTf(tensor([1n, 2n ** 31n], 'int64'), { dtype: 'int32' })).toThrow(
      /value 1 = 2147483648 does not fit int32/,
    );
    expect(() => toTf(f64, { dtype: 'int32' })).toThrow(
      /TF\.js has no float64; pass \{ dtype: 'float32' \} to narrow it \(not 'int32'\)/,
    );
  });

  it('refuses complex64, which sparse has not', () => {
    expect(() => fromTf(tf.complex([1], [2]))).toThrow(/sparse has no complex64/);
  });
});

describe('sparse tensors both ways', () => {
  it('as int32 indices, values and a dense shape', () => {
    const st = new SparseTensor(
      [
        [0, 1],
        [2, 0],
      ],
      [1.5, -2],
      [3, 4],
      'float32',
    );
    const t = sparseToTf(st);
    expect([t.indices.dtype, t.indices.arraySync(), t.values.arraySync(), t.denseShape]).toEqual([
      'int32',
      [
        [0, 1],
        [2, 0],
      ],
      [1.5, -2],
      [3, 4],
    ]);
    const back = sparseFromTf(t.indices, t.values, tf.tensor1d([3, 4], 'int32'));
    expect([back.indices, Array.from(back.values as Float32Array), back.denseShape, back.dtype]).toEqual([
      [
        [0, 1],
        [2, 0],
      ],
      [1.5, -2],
      [3, 4],
      'float32',
    ]);
  });

  it('checks what it is given as any SparseTensor, and refuses dims past int32 and float64 values', () => {
    expect(() =>
      sparseFromTf(
        tf.tensor2d(
          [
            [0, 5],
            [1, 1],
          ],
          [2, 2],
          'int32',
        ),
        tf.tensor1d([1]),
        [2, 2],
      ),
    ).toThrow(/SparseTensor: indices holds 4 numbers/);
    // Indices are checked against the dense shape when an op takes the tensor, as for any SparseTensor.
    const outside = sparseFromTf(tf.tensor2d([[0, 5]], [1, 2], 'int32'), tf.tensor1d([1]), [2, 2]);
    expect(() => sparse.toDense(outside)).toThrow(InvalidArgumentError);
    expect(() => sparseFromTf(tf.tensor1d([0], 'int32'), tf.tensor1d([1]), [2])).toThrow(
      /indices must be \[nnz, rank\]/,
    );
    expect(() => sparseToTf(new SparseTensor([[0, 0]], [1], [1, 2 ** 31], 'float32'))).toThrow(
      /dim 1 = 2147483648 exceeds 2\^31 - 1/,
    );
    const f64 = new SparseTensor([[0]], [0.5], [2], 'float64');
    expect(() => sparseToTf(f64)).toThrow(TypeError);
    expect(sparseToTf(f64, { dtype: 'float32' }).values.dtype).toBe('float32');
  });
});
