import { describe, expect, it } from 'vitest';
import { compareOutputs } from '../src/compare.js';
import { isClose, resolveTolerance } from '../src/tolerance.js';

// Results are given as plain structural objects shaped like the runtime's SparseTensor and Tensor.
const sparseResult = (indices: number[][], values: ArrayLike<unknown>, denseShape: number[], dtype: string) => ({
  indices,
  values,
  denseShape,
  dtype,
});
const denseResult = (data: ArrayLike<unknown>, shape: number[], dtype: string) => ({ data, shape, dtype });
const sparseCase = (indices: number[][], values: unknown[], dense_shape: number[], dtype: string) => ({
  sparse: { indices, values, dense_shape },
  dtype,
});

/** Compares one float32/float64 sparse value, got vs want. */
function compareOne(got: number, want: unknown, dtype = 'float32', tolerance?: { rtol?: number; atol?: number }) {
  const storage = dtype === 'float32' ? Float32Array.from([got]) : Float64Array.from([got]);
  return compareOutputs(
    { output: sparseResult([[0]], storage, [1], dtype) },
    { output: sparseCase([[0]], [want], [1], dtype) },
    tolerance,
  );
}

describe('float tolerance', () => {
  it('accepts float32 rounding of a decimal', () => {
    expect(
      compareOutputs(
        { output: sparseResult([[0], [2]], Float32Array.from([0.1, 1 / 3]), [3], 'float32') },
        { output: sparseCase([[0], [2]], [0.1, 0.333333333], [3], 'float32') },
      ),
    ).toBe('');
  });

  it('uses the float32 defaults rtol 1e-5, atol 1e-6', () => {
    expect(compareOne(1.000005, 1)).toBe('');
    expect(compareOne(1.0001, 1)).toMatch(/^output\.values\[0\]: got 1\.0001\d*, want 1$/);
    expect(compareOne(5e-7, 0)).toBe('');
    expect(compareOne(2e-6, 0)).not.toBe('');
  });

  it('uses the tighter float64 defaults', () => {
    expect(compareOne(1.000005, 1, 'float64')).toBe('output.values[0]: got 1.000005, want 1');
    expect(compareOne(1 + 1e-13, 1, 'float64')).toBe('');
  });

  it('lets a case override rtol and atol, each on its own', () => {
    expect(compareOne(1.0001, 1, 'float32', { rtol: 1e-3 })).toBe('');
    expect(compareOne(0.5, 0, 'float64', { atol: 1 })).toBe('');
    expect(compareOne(0.5, 0, 'float64', { rtol: 1 })).not.toBe(''); // atol stays 1e-12
    expect(resolveTolerance('float32', { rtol: 0.1 })).toEqual({ rtol: 0.1, atol: 1e-6 });
  });

  it('treats NaN as equal to NaN and to nothing else', () => {
    expect(compareOne(NaN, 'nan')).toBe('');
    expect(compareOne(NaN, NaN)).toBe('');
    expect(compareOne(1, 'nan')).toBe('output.values[0]: got 1, want nan');
    expect(compareOne(NaN, 1)).toBe('output.values[0]: got nan, want 1');
    expect(compareOne(NaN, 1, 'float32', { rtol: 1e9, atol: 1e9 })).not.toBe('');
  });

  it('treats an infinity as equal only to the same infinity', () => {
    expect(compareOne(Infinity, 'inf')).toBe('');
    expect(compareOne(-Infinity, '-inf', 'float64')).toBe('');
    expect(compareOne(-Infinity, 'inf')).toBe('output.values[0]: got -inf, want inf');
    expect(compareOne(3e38, 'inf')).not.toBe('');
    expect(compareOne(Infinity, 1e308, 'float64')).not.toBe('');
    expect(isClose(Infinity, Infinity, { rtol: 0, atol: 0 })).toBe(true);
  });
});

describe('exact parts', () => {
  const want = {
    output: sparseCase(
      [
        [0, 1],
        [1, 2],
      ],
      [1, 2],
      [2, 3],
      'int32',
    ),
  };

  it('passes identical sparse tensors', () => {
    expect(
      compareOutputs(
        {
          output: sparseResult(
            [
              [0, 1],
              [1, 2],
            ],
            Int32Array.from([1, 2]),
            [2, 3],
            'int32',
          ),
        },
        want,
      ),
    ).toBe('');
  });

  it('compares integers exactly whatever the tolerance', () => {
    const got = {
      output: sparseResult(
        [
          [0, 1],
          [1, 2],
        ],
        Int32Array.from([1, 3]),
        [2, 3],
        'int32',
      ),
    };
    expect(compareOutputs(got, want, { rtol: 10, atol: 10 })).toBe('output.values[1]: got 3, want 2');
  });

  it('names a dense_shape that differs', () => {
    const got = {
      output: sparseResult(
        [
          [0, 1],
          [1, 2],
        ],
        Int32Array.from([1, 2]),
        [2, 4],
        'int32',
      ),
    };
    expect(compareOutputs(got, want)).toBe('output.dense_shape: got [2,4], want [2,3]');
  });

  it('names an index that differs', () => {
    const got = {
      output: sparseResult(
        [
          [0, 1],
          [1, 1],
        ],
        Int32Array.from([1, 2]),
        [2, 3],
        'int32',
      ),
    };
    expect(compareOutputs(got, want)).toBe('output.indices[1]: got [1,1], want [1,2]');
  });

  it('reports a different number of entries', () => {
    const got = { output: sparseResult([[0, 1]], Int32Array.from([1]), [2, 3], 'int32') };
    expect(compareOutputs(got, want)).toBe('output.indices: got 1 entries [[0,1]], want 2 [[0,1],[1,2]]');
  });

  it('reports a dtype that differs and compares no further', () => {
    const got = {
      output: sparseResult(
        [
          [0, 1],
          [1, 2],
        ],
        Float32Array.from([1, 2]),
        [2, 3],
        'float32',
      ),
    };
    expect(compareOutputs(got, want)).toBe('output.dtype: got float32, want int32');
  });

  it('compares int64 exactly beyond 2^53', () => {
    const big = 2n ** 60n;
    const got = { output: denseResult(BigInt64Array.from([big + 1n, -5n]), [2], 'int64') };
    expect(compareOutputs(got, { output: { dense: [(big + 1n).toString(), -5], dtype: 'int64' } })).toBe('');
    // As doubles these would be equal: the comparison must not go through Number.
    expect(compareOutputs(got, { output: { dense: [big.toString(), -5], dtype: 'int64' } })).toBe(
      `output[0]: got ${big + 1n}, want ${big}`,
    );
  });

  it('reads bools stored as 0/1', () => {
    const got = { output: denseResult(Uint8Array.from([1, 0]), [2], 'bool') };
    expect(compareOutputs(got, { output: { dense: [true, false], dtype: 'bool' } })).toBe('');
    expect(compareOutputs(got, { output: { dense: [true, true], dtype: 'bool' } })).toBe(
      'output[1]: got false, want true',
    );
  });

  it('compares strings exactly', () => {
    const got = { output: sparseResult([[0]], ['a'], [2], 'string') };
    expect(compareOutputs(got, { output: sparseCase([[0]], ['a'], [2], 'string') })).toBe('');
    expect(compareOutputs(got, { output: sparseCase([[0]], ['A'], [2], 'string') })).toBe(
      'output.values[0]: got "a", want "A"',
    );
  });
});

describe('dense outputs', () => {
  it('names the position of a differing value', () => {
    const got = { output: denseResult(Float32Array.from([1, 0, 0, 5]), [2, 2], 'float32') };
    expect(
      compareOutputs(got, {
        output: {
          dense: [
            [1, 0],
            [0, 5],
          ],
          dtype: 'float32',
        },
      }),
    ).toBe('');
    expect(
      compareOutputs(got, {
        output: {
          dense: [
            [1, 0],
            [0, 6],
          ],
          dtype: 'float32',
        },
      }),
    ).toBe('output[1][1]: got 5, want 6');
  });

  it('reports a shape that differs', () => {
    const got = { output: denseResult(Int32Array.from([1, 2, 3, 4, 5, 6]), [2, 3], 'int32') };
    expect(
      compareOutputs(got, {
        output: {
          dense: [
            [1, 2],
            [3, 4],
            [5, 6],
          ],
          dtype: 'int32',
        },
      }),
    ).toBe('output.shape: got [2,3], want [3,2]');
  });

  it('uses `shape` for zero-sized dims', () => {
    const want = { output: { dense: [], shape: [0, 3], dtype: 'float32' } };
    expect(compareOutputs({ output: denseResult(new Float32Array(0), [0, 3], 'float32') }, want)).toBe('');
    expect(compareOutputs({ output: denseResult(new Float32Array(0), [0, 4], 'float32') }, want)).toBe(
      'output.shape: got [0,4], want [0,3]',
    );
  });

  it('handles a scalar', () => {
    const got = { output: denseResult(Float64Array.from([2.5]), [], 'float64') };
    expect(compareOutputs(got, { output: { dense: 2.5, dtype: 'float64' } })).toBe('');
    expect(compareOutputs(got, { output: { dense: 3, dtype: 'float64' } })).toBe('output: got 2.5, want 3');
  });

  it('tells a dense result from a sparse one', () => {
    const got = { output: denseResult(Int32Array.from([1]), [1], 'int32') };
    expect(compareOutputs(got, { output: sparseCase([[0]], [1], [1], 'int32') })).toBe(
      'output: got a dense Tensor, want a SparseTensor',
    );
  });
});

describe('outputs by name and lists', () => {
  const part = (v: number) => sparseResult([[0, 0]], Float32Array.from([v]), [1, 2], 'float32');
  const wantPart = (v: number) => sparseCase([[0, 0]], [v], [1, 2], 'float32');

  it('compares a list of SparseTensors item by item', () => {
    expect(compareOutputs({ output: [part(1), part(2)] }, { output: [wantPart(1), wantPart(2)] })).toBe('');
    expect(compareOutputs({ output: [part(1), part(3)] }, { output: [wantPart(1), wantPart(2)] })).toBe(
      'output[1].values[0]: got 3, want 2',
    );
  });

  it('reports a list of another length', () => {
    expect(compareOutputs({ output: [part(1), part(2)] }, { output: [wantPart(1), wantPart(2), wantPart(3)] })).toBe(
      'output: got a list of 2 tensors, want 3',
    );
  });

  it('tells a list from a single tensor', () => {
    expect(compareOutputs({ output: part(1) }, { output: [wantPart(1)] })).toBe(
      'output: got a SparseTensor, want a list of 1',
    );
  });

  it('checks every expected output and reports one that is missing', () => {
    const got = { output: part(1), empty_row_indicator: denseResult(Uint8Array.from([0]), [1], 'bool') };
    expect(compareOutputs(got, { output: wantPart(1), empty_row_indicator: { dense: [false], dtype: 'bool' } })).toBe(
      '',
    );
    expect(compareOutputs(got, { output: wantPart(1), empty_row_indicator: { dense: [true], dtype: 'bool' } })).toBe(
      'empty_row_indicator[0]: got false, want true',
    );
    expect(
      compareOutputs(
        { output: part(1) },
        { output: wantPart(1), empty_row_indicator: { dense: [false], dtype: 'bool' } },
      ),
    ).toMatch(/^empty_row_indicator: missing/);
  });

  it('says what it got when a result is not a tensor', () => {
    expect(compareOutputs({ output: 3 }, { output: wantPart(1) })).toBe('output: got number 3, want a SparseTensor');
  });

  it('lists every mismatch up to ten, then counts the rest', () => {
    const n = 14;
    const got = { output: denseResult(new Int32Array(n), [n], 'int32') };
    const message = compareOutputs(got, {
      output: { dense: Array.from({ length: n }, (_, i) => i + 1), dtype: 'int32' },
    });
    expect(message.split('; ')).toHaveLength(11);
    expect(message).toMatch(/^output\[0\]: got 0, want 1; output\[1\]: got 0, want 2;/);
    expect(message).toMatch(/; … and 4 more mismatches$/);
  });
});
