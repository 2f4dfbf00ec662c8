import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  matrixMarketChunks,
  parseMatrixMarket,
  readMatrixMarket,
  SparseTensor,
  Tensor,
  toMatrixMarket,
} from '../src/index.js';

// Matrix Market files (.mtx), as scipy.io.mmread and mmwrite read and write them.

const json = (x: SparseTensor | Tensor) =>
  x instanceof SparseTensor ? x.toJSON() : { data: x.toArray(), dtype: x.dtype };

describe('reading', () => {
  it('a general real coordinate file: entries in the file order, 1-based indices made 0-based, float64', () => {
    const text = `%%MatrixMarket matrix coordinate real general
% a comment
%another

3 4 3
1 2 1.5
3 1 -2e3
2 4 0.25
`;
    expect(json(parseMatrixMarket(text))).toEqual({
      indices: [
        [0, 1],
        [2, 0],
        [1, 3],
      ],
      values: [1.5, -2000, 0.25],
      dense_shape: [3, 4],
      dtype: 'float64',
    });
  });

  it('a symmetric file mirrors its off-diagonal entries after its own; a skew one negates them', () => {
    const sym = '%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 4\n2 1 5\n3 2 6\n';
    expect(json(parseMatrixMarket(sym, { dtype: 'float32' }))).toEqual({
      indices: [
        [0, 0],
        [1, 0],
        [2, 1],
        [0, 1],
        [1, 2],
      ],
      values: [4, 5, 6, 5, 6],
      dense_shape: [3, 3],
      dtype: 'float32',
    });
    const skew = '%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 7\n';
    expect(json(parseMatrixMarket(skew))).toEqual({
      indices: [
        [1, 0],
        [0, 1],
      ],
      values: [7, -7],
      dense_shape: [2, 2],
      dtype: 'int64',
    });
  });

  it('pattern entries are ones; integer files are int64, exactly', () => {
    const pattern = '%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 2\n';
    expect((parseMatrixMarket(pattern) as SparseTensor).toJSON().values).toEqual([1, 1]);
    const big = '%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 9007199254740993\n';
    expect(Array.from((parseMatrixMarket(big) as SparseTensor).values as BigInt64Array)).toEqual([9007199254740993n]);
  });

  it('an array file is a dense Tensor, read column by column; a symmetric one fills its upper triangle', () => {
    const general = '%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n';
    expect(json(parseMatrixMarket(general))).toEqual({
      data: [
        [1, 3, 5],
        [2, 4, 6],
      ],
      dtype: 'float64',
    });
    const sym = '%%MatrixMarket matrix array integer symmetric\n2 2\n1\n2\n3\n';
    expect(json(parseMatrixMarket(sym, { dtype: 'int32' }))).toEqual({
      data: [
        [1, 2],
        [2, 3],
      ],
      dtype: 'int32',
    });
    const skew = '%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n';
    expect(json(parseMatrixMarket(skew))).toEqual({
      data: [
        [0, -1, -2],
        [1, 0, -3],
        [2, 3, 0],
      ],
      dtype: 'float64',
    });
  });

  it('each error names the line', () => {
    const bad = (text: string, message: RegExp) => {
      expect(() => parseMatrixMarket(text)).toThrow(InvalidArgumentError);
      expect(() => parseMatrixMarket(text)).toThrow(message);
    };
    bad(
      '%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n',
      /^readMatrixMarket: line 3: the row index 3 is outside 1 … 2$/,
    );
    bad(
      '%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n',
      /line 3: the file holds 1 entries; its size line says 2/,
    );
    bad('%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n', /line 3: "x" is not a number/);
    bad('%%MatrixMarket matrix coordinate complex general\n', /line 1: complex values are not read/);
    bad('MatrixMarket\n', /line 1: a Matrix Market file starts with "%%MatrixMarket matrix/);
    bad('%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n', /line 4: more entries than the 1/);
    bad('%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n', /line 2: a symmetric matrix is square, not 2 × 3/);
    expect(() =>
      parseMatrixMarket('%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 3e9\n', { dtype: 'int32' }),
    ).toThrow(/3000000000 does not fit int32 \(read with \{ dtype: 'int64' \}\)/);
    expect(() => parseMatrixMarket('', { dtype: 'string' })).toThrow(TypeError);
  });
});

describe('streams and round trips', () => {
  it('reads a stream of bytes split anywhere, lines across chunks, with progress', async () => {
    const n = 200_000;
    const st = new SparseTensor(
      Array.from({ length: n }, (_, e) => [e % 1000, Math.floor(e / 1000)]),
      Float32Array.from({ length: n }, (_, e) => (e % 97) / 7),
      [1000, 200],
    );
    const bytes = new TextEncoder().encode(toMatrixMarket(st));
    const pieces = Array.from({ length: Math.ceil(bytes.length / 4093) }, (_, k) =>
      bytes.subarray(k * 4093, (k + 1) * 4093),
    );
    const progress: number[] = [];
    const back = (await readMatrixMarket(Readable.from(pieces), {
      dtype: 'float32',
      onProgress: (read, total) => {
        expect(total).toBe(n);
        progress.push(read);
      },
    })) as SparseTensor;
    expect(back.toJSON()).toEqual(st.toJSON());
    expect(progress).toEqual([65_536, 131_072, 196_608, n]);
  });

  it('writes exactly: every value reads back the same, in chunks for any size', () => {
    const values = Float64Array.of(0.1, -1e-300, 1 / 3, 2 ** 60, -0);
    const st = new SparseTensor(
      [
        [0, 0],
        [0, 1],
        [1, 2],
        [2, 2],
        [1, 1],
      ],
      values,
      [3, 3],
      'float64',
    );
    const text = toMatrixMarket(st, { comment: 'made by sparse\ntwo lines' });
    expect(text.split('\n').slice(0, 4)).toEqual([
      '%%MatrixMarket matrix coordinate real general',
      '%made by sparse',
      '%two lines',
      '3 3 5',
    ]);
    expect(Array.from((parseMatrixMarket(text) as SparseTensor).values as Float64Array)).toEqual(Array.from(values));
    const dense = new Tensor(Int32Array.of(1, 2, 3, 4, 5, 6), [2, 3], 'int32');
    expect(toMatrixMarket(dense)).toBe('%%MatrixMarket matrix array integer general\n2 3\n1\n4\n2\n5\n3\n6\n');
    expect(json(parseMatrixMarket(toMatrixMarket(dense), { dtype: 'int32' }))).toEqual(json(dense));
    const many = new SparseTensor(
      Array.from({ length: 20_000 }, (_, e) => [e, 0]),
      Float32Array.from({ length: 20_000 }, (_, e) => e),
      [20_000, 1],
    );
    const chunks = [...matrixMarketChunks(many)];
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(toMatrixMarket(many));
  });

  it('refuses what a Matrix Market file cannot hold', () => {
    expect(() => toMatrixMarket(new SparseTensor([[0, 0, 0]], [1], [1, 1, 1], 'float32'))).toThrow(
      /a Matrix Market file holds a matrix \(rank 2\), got rank 3/,
    );
    expect(() => toMatrixMarket(new SparseTensor([[0, 0]], ['a'], [1, 1]))).toThrow(
      /string values have no Matrix Market field/,
    );
  });
});
