import { describe, expect, it } from 'vitest';
import { SparseTensor, sparse, tensor } from '../src/index.js';

// The typed API of the feature crosses: a list mixing SparseTensors, Tensors and plain nested lists, each item of
// its own dtype; the null defaults of separator and hashKey.

const features = (names: string[]) => names.map((n) => new SparseTensor([[0, 0]], [n], [1, 1], 'string'));
const TF_TEST = features(['batch1-FC1-F1', 'batch1-FC2-F1', 'batch1-FC3-F1']);

describe('sparse.cross and sparse.crossHashed', () => {
  it('take SparseTensors, Tensors and nested lists in one list, each of its own dtype', () => {
    const ids = new SparseTensor(
      [
        [0, 0],
        [1, 0],
        [1, 1],
      ],
      [7n, -8n, 9n],
      [2, 2],
      'int64',
    );
    const out = sparse.cross([tensor([[1], [2]], 'int32'), ids, [['a'], ['b']]], { separator: '-' });
    expect(out.values).toEqual(['7-1-a', '-8-2-b', '9-2-b']);
    expect(out.denseShape).toEqual([2, 2]);
    expect(sparse.cross([ids]).values).toEqual(['7', '-8', '9']);
  });

  it("give TensorFlow's hashes, with the key as a bigint, a number, an int64 Tensor or null for the default", () => {
    const key = 0xdecafcaffen + 1n;
    expect(sparse.crossHashed(TF_TEST, { numBuckets: 100, hashKey: key }).values).toEqual(new BigInt64Array([31n]));
    expect(sparse.crossHashed(TF_TEST, { numBuckets: 100, hashKey: Number(key) }).values).toEqual(
      new BigInt64Array([31n]),
    );
    expect(sparse.crossHashed(TF_TEST, { numBuckets: 100, hashKey: tensor(key, 'int64') }).values).toEqual(
      new BigInt64Array([31n]),
    );
    expect(sparse.crossHashed(TF_TEST, { numBuckets: 100, hashKey: null }).values).toEqual(new BigInt64Array([83n]));
    expect(sparse.crossHashed(TF_TEST).values).toEqual(new BigInt64Array([1971693436396284976n]));
  });

  it('cast float features to int64 as TensorFlow does, and refuse a float no int64 holds, naming the item', () => {
    expect(sparse.cross([[['a']], [[-0.5, 2.5]]]).values).toEqual(['a_X_0', 'a_X_2']);
    expect(() => sparse.cross([[['a']], [[NaN]]])).toThrow(
      /^sparse_cross: inputs\[1\]\.data\[0\] = NaN cannot be cast to int64/,
    );
  });

  it('refuse what is not a list of matrices, naming the item', () => {
    expect(() => sparse.cross(tensor([['a']]) as never)).toThrow(TypeError);
    expect(() => sparse.cross(new Array(2))).toThrow(/inputs\[0\]/);
    expect(() => sparse.crossHashed([[['a']]], { hashKey: 2n ** 63n })).toThrow(
      /hash_key: 9223372036854775808 does not fit in int64/,
    );
    expect(() => sparse.crossHashed([[['a']]], { hashKey: 'k' as never })).toThrow(TypeError);
  });
});
