import { describe, expect, it } from 'vitest';
import { CsrMatrix, sparse } from '@sparse/runtime';

// TensorFlow's CSRSparseMatrix holds float32, float64, complex64 and complex128 only; sparse has the float ones.
// Any other dtype is refused when the matrix is made, not by every op it is later given to.
describe('CsrMatrix dtypes', () => {
  it.each(['int32', 'int64', 'bool', 'string'] as const)(
    'refuses %s values, naming CsrMatrix and the dtype',
    (dtype) => {
      const values = { int32: [1, 2], int64: [1n, 2n], bool: [true, true], string: ['a', 'b'] }[dtype];
      const make = () => new CsrMatrix([0, 1, 2], [0, 1], values, [2, 2], dtype);
      expect(make).toThrow(TypeError);
      expect(make).toThrow(
        `CsrMatrix: values: a CSR matrix of dtype ${dtype} is not allowed; its values are float32 or float64`,
      );
    },
  );

  it('refuses an inferred int32 and a typed array of int storage', () => {
    expect(() => new CsrMatrix([0, 1], [0], [1], [1, 2])).toThrow(/dtype int32 is not allowed/);
    expect(() => new CsrMatrix([0, 1], [0], new Int32Array([1]), [1, 2])).toThrow(/dtype int32 is not allowed/);
    expect(() =>
      CsrMatrix.fromJSON({ row_pointers: [0, 1], col_indices: [0], values: [true], dense_shape: [1, 2] }),
    ).toThrow(/CsrMatrix.fromJSON: values: a CSR matrix of dtype bool is not allowed/);
  });

  it('refuses it in a plain CSR argument of an op too', () => {
    const plain = { row_pointers: [0, 1], col_indices: [0], values: [1], dense_shape: [1, 2] };
    expect(() => sparse.csrSparseMatrixToDense(plain as never)).toThrow(/dtype int32 is not allowed/);
  });

  it('takes float32 and float64, given or inferred', () => {
    expect(new CsrMatrix([0, 1], [0], [1.5], [1, 2]).dtype).toBe('float32');
    expect(new CsrMatrix([0, 1], [0], new Float64Array([1]), [1, 2]).dtype).toBe('float64');
    expect(new CsrMatrix([0, 1], [0], [1], [1, 2], 'float64').toDense().toArray()).toEqual([[1, 0]]);
  });
});
