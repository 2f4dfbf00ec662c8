import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  ResourceExhaustedError,
  SparseTensor,
  createRuntime,
  getOpInfo,
  listOps,
  registerBackend,
  sparse,
  tensor,
} from '@sparse/runtime';

// TensorFlow's error kinds: bad data (a number too large, a shape too large to count, a shape argument of the wrong
// rank) is an InvalidArgumentError; what TensorFlow accepts (an empty list of ids) is accepted.

const st = () =>
  new SparseTensor(
    [
      [0, 0],
      [1, 2],
    ],
    [1, 2],
    [2, 3],
  );

describe('whole numbers too large to hold', () => {
  it('are InvalidArgumentErrors saying so, never "not a whole number" nor a result', () => {
    const tooLarge = /is too large: it does not fit in int64/;
    expect(() => sparse.expandDims(st(), { axis: 1e300 })).toThrow(InvalidArgumentError);
    expect(() => sparse.expandDims(st(), { axis: 1e300 })).toThrow(/sparse_expand_dims: axis = 1e\+300 /);
    expect(() => sparse.expandDims(st(), { axis: 1e300 })).toThrow(tooLarge);
    expect(() => sparse.reshape(st(), [1e300])).toThrow(/sparse_reshape: shape\[0\] = 1e\+300 is too large/);
    expect(() => sparse.slice(st(), [0, 0], [2 ** 64, 1])).toThrow(InvalidArgumentError);
    expect(() => new SparseTensor([[0, 0]], [1], [2, 2n ** 64n])).toThrow(tooLarge);
    expect(() => new SparseTensor([[0, 2n ** 70n]], [1], [2, 2])).toThrow(InvalidArgumentError);
  });

  it('past 2^53 - 1, where a JS number is no longer exact, within int64: too large for sparse, naming the value', () => {
    const past =
      /sparse_transpose: perm\[1\] = 9007199254740993 is too large: sparse takes whole numbers up to 2\^53 - 1/;
    expect(() => sparse.transpose(st(), { perm: [0, 9007199254740993n] })).toThrow(past);
    expect(() => sparse.transpose(st(), { perm: [0, 2 ** 60] })).toThrow(InvalidArgumentError);
    // An int64 value given as a JS number past 2^53 may have lost digits: a bigint or a digit string is exact.
    expect(() => tensor([2 ** 60], 'int64')).toThrow(InvalidArgumentError);
    expect(() => tensor([2 ** 60], 'int64')).toThrow(/too large to be exact as a JS number/);
    expect(tensor([2n ** 60n, '1152921504606846977'], 'int64').toArray()).toEqual([2n ** 60n, 2n ** 60n + 1n]);
  });
});

describe('dense shapes', () => {
  it('whose element count overflows int64 are refused, as TensorFlow refuses them', () => {
    const huge = () => new SparseTensor([[0, 0, 0]], [1], [2 ** 40, 2 ** 20, 2 ** 10]);
    expect(huge).toThrow(InvalidArgumentError);
    expect(huge).toThrow(
      /dense_shape \[1099511627776,1048576,1024\] has 1180591620717411303424 elements, more than int64/,
    );
    expect(new SparseTensor([[0, 0]], [1], [2 ** 40, 2 ** 22]).shape).toEqual([2 ** 40, 2 ** 22]);
  });

  it('that only a kernel makes are refused past int64 too: a concat of two shapes that each fit', async () => {
    const half = new SparseTensor([[0, 0]], [1], [2 ** 52, 2 ** 10], 'float32');
    for (const backend of ['js', 'wasm']) {
      const rt = await createRuntime({ backend });
      expect(() => rt.sparse.concat(1, [half, half])).toThrow(
        /^sparse_concat: output of dense shape \[4503599627370496,2048\] has 9223372036854775808 elements, more than int64/,
      );
      expect(
        rt.sparse.concat(1, [half, new SparseTensor([[0, 0]], [1], [2 ** 52, 2 ** 10 - 1], 'float32')]).shape,
      ).toEqual([2 ** 52, 2 ** 11 - 1]);
    }
  });

  it('take dims as bigints and strings of digits, as the case format writes int64 dims', () => {
    expect(new SparseTensor([[0, 0]], [1], [2n, '3']).shape).toEqual([2, 3]);
    expect(sparse.resetShape(st(), { newShape: [4n, '5'] as never }).shape).toEqual([4, 5]);
    expect(sparse.reshape(st(), ['3', 2] as never).shape).toEqual([3, 2]);
  });

  it('hold a dim up to 2^63 - 1 exactly, as TensorFlow; past int64, or counting past it, is an InvalidArgumentError', () => {
    const max = 2n ** 63n - 1n;
    expect(new SparseTensor([[0, 0]], [1], [1, String(max)]).exactShape).toEqual([1n, max]);
    expect(() => new SparseTensor([[0, 0]], [1], [2, String(max)])).toThrow(/more than int64 counts/);
    expect(() => new SparseTensor([[0, 0]], [1], [1, String(max + 1n)])).toThrow(InvalidArgumentError);
    expect(() => new SparseTensor([[0, 0]], [1], [1, String(max + 1n)])).toThrow(/does not fit in int64/);
    expect(() => sparse.toDense({ indices: [[0]], values: [1], dense_shape: [2n ** 53n] })).toThrow(
      ResourceExhaustedError,
    );
  });

  it('more than 254 dims is an InvalidArgumentError', () => {
    expect(() => new SparseTensor([], [], new Array(255).fill(1))).toThrow(
      /dense_shape has 255 dims; a tensor has at most 254/,
    );
  });
});

describe('a shape argument of the wrong rank', () => {
  it('is an InvalidArgumentError: a scalar, nested lists or a 2-D tensor where a vector is due', () => {
    const rank = /must be a vector/;
    for (const shape of [4, [[4, 1]], tensor([[3, 2]])]) {
      expect(() => sparse.reshape(st(), shape as never)).toThrow(InvalidArgumentError);
      expect(() => sparse.reshape(st(), shape as never)).toThrow(rank);
    }
    expect(() => sparse.resetShape(st(), { newShape: 7 as never })).toThrow(
      /sparse_reset_shape: new_shape must be a vector/,
    );
    expect(() => sparse.sparseToDense([0], [[3]] as never, [1])).toThrow(InvalidArgumentError);
  });

  it('a list of the wrong kind stays a TypeError', () => {
    expect(() => sparse.reshape(st(), 'no' as never)).toThrow(TypeError);
    expect(() => sparse.reshape(st(), tensor([3.5, 2]) as never)).toThrow(/must be an integer tensor, got float32/);
  });
});

describe('an empty list for an integer tensor argument', () => {
  it("takes the dtype variable's default where TensorFlow's type attr has one: [] ids of segment_sum are int32", () => {
    expect(getOpInfo('sparse_segment_sum')?.dtypeDefaults).toEqual({ I: 'int32', S: 'int32' });
    const out = sparse.segmentSum(tensor([[1, 2]], 'float32'), [], []);
    expect(out.shape).toEqual([0, 2]);
    expect(out.dtype).toBe('float32');
    // A Tensor's dtype is never replaced; only a plain value is converted again.
    expect(() => sparse.segmentSum(tensor([[1, 2]], 'float32'), tensor([], 'float32'), [])).toThrow(
      /^sparse_segment_sum: indices has dtype float32; sparse_segment_sum takes I in \{int32, int64\}$/,
    );
  });

  it('stays float32 and is refused where the type attr has no default, as SparseToDense refuses []', () => {
    expect(getOpInfo('sparse_to_dense')?.dtypeDefaults).toEqual({});
    expect(() => sparse.sparseToDense([], [3], [])).toThrow(TypeError);
    expect(() => sparse.sparseToDense([], [3], [])).toThrow(
      /^sparse_to_dense: sparse_indices has dtype float32; sparse_to_dense takes I in \{int32, int64\}$/,
    );
    // An empty tensor of an int dtype is what it takes.
    expect(sparse.sparseToDense(tensor([], 'int32'), [3], []).toArray()).toEqual([0, 0, 0]);
  });

  it('no other op converts a plain value again: only the segment reductions and their gradients declare defaults', () => {
    const withDefaults = listOps().filter((op) => Object.keys(getOpInfo(op)!.dtypeDefaults).length > 0);
    expect(withDefaults.sort()).toEqual([
      'sparse_segment_mean',
      'sparse_segment_mean_grad',
      'sparse_segment_sqrt_n',
      'sparse_segment_sqrt_n_grad',
      'sparse_segment_sum',
      'sparse_segment_sum_grad',
    ]);
  });

  it('values that hold no integer dtype are still refused as their own dtype', () => {
    expect(() => sparse.segmentSum(tensor([[1, 2]], 'float32'), [0.5], [0])).toThrow(
      /indices has dtype float32; sparse_segment_sum takes I in \{int32, int64\}/,
    );
  });
});

describe("a kernel's RangeError", () => {
  const throwingRuntime = async (error: RangeError) => {
    const name = `throws-${error.message}`;
    registerBackend(name, () => ({
      name,
      kernels: {
        sparse_reorder: () => {
          throw error;
        },
      },
    }));
    return createRuntime({ backend: name });
  };

  it('is reported as memory only when it is an allocation failure', async () => {
    for (const message of ['Array buffer allocation failed', 'Invalid typed array length: 4294967296']) {
      const rt = await throwingRuntime(new RangeError(message));
      expect(() => rt.sparse.reorder(st())).toThrow(InvalidArgumentError);
      expect(() => rt.sparse.reorder(st())).toThrow(`sparse_reorder: the result does not fit in memory (${message})`);
    }
  });

  it('otherwise comes through as it is', async () => {
    for (const message of ['Division by zero', 'Invalid typed array length: -1', 'Maximum call stack size exceeded']) {
      const error = new RangeError(message);
      const rt = await throwingRuntime(error);
      expect(() => rt.sparse.reorder(st())).toThrow(error);
    }
  });
});
