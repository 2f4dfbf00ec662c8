import { describe, expect, it } from 'vitest';
import { createRuntime, SparseTensor, tensor, vjp, InvalidArgumentError, UnimplementedError } from '@sparse/runtime';

// Runtime.vjp as users call it: what it gives for each argument, and its errors.

describe('rt.vjp', () => {
  it('gives a Tensor per differentiable argument (a sparse one: of its values) and null for the others', async () => {
    const rt = await createRuntime({ backend: 'js' });
    const a = new SparseTensor(
      [
        [0, 0],
        [1, 2],
      ],
      [1, 2],
      [2, 3],
      'float32',
    );
    const b = tensor(
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
      'float32',
    );
    const g = rt.vjp(
      'sparse_tensor_dense_matmul',
      { sp_a: a, b },
      tensor(
        [
          [1, 0],
          [0, 1],
        ],
        'float32',
      ),
    );
    expect(Object.keys(g)).toEqual(['sp_a', 'b', 'adjoint_a', 'adjoint_b']);
    expect(g.sp_a!.toArray()).toEqual([1, 6]);
    expect(g.b!.toArray()).toEqual([
      [1, 0],
      [0, 0],
      [0, 2],
    ]);
    expect([g.adjoint_a, g.adjoint_b]).toEqual([null, null]);
    const add = rt.vjp('sparse_add', { a, b: a, thresh: 0.5 }, [1, 2]);
    expect(add.thresh).toBeNull();
    expect([add.a!.toArray(), add.b!.toArray()]).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });

  for (const backend of ['js', 'wasm']) {
    it(`gives weights the op cast to the table's dtype their gradient in their own dtype, on ${backend}`, async () => {
      const rt = await createRuntime({ backend });
      const params = tensor(
        [
          [1, 2],
          [3, 4],
          [5, 6],
        ],
        'float32',
      );
      const ids = new SparseTensor(
        [
          [0, 0],
          [0, 1],
          [1, 0],
        ],
        [0, 2, 1],
        [2, 2],
        'int32',
      );
      const weights = (dtype: 'float32' | 'float64') =>
        new SparseTensor(
          [
            [0, 0],
            [0, 1],
            [1, 0],
          ],
          [0.5, 2, 3],
          [2, 2],
          dtype,
        );
      const upstream = tensor(
        [
          [1, -1],
          [2, 0.5],
        ],
        'float32',
      );
      const grads = (dtype: 'float32' | 'float64') =>
        rt.vjp(
          'embedding_lookup_sparse',
          { params, sp_ids: ids, sp_weights: weights(dtype), combiner: 'sqrtn' },
          upstream,
        );
      const same = grads('float32');
      const cast = grads('float64');
      expect(cast.params!.dtype).toBe('float32');
      expect(cast.params!.toArray()).toEqual(same.params!.toArray());
      expect(cast.sp_weights!.dtype).toBe('float64');
      expect(cast.sp_weights!.toArray()).toEqual(same.sp_weights!.toArray());
      // The lookup itself: the float64 weights read as float32, the output in the table's dtype.
      const out = rt.sparse.embeddingLookupSparse(params, ids, weights('float64'), { combiner: 'sqrtn' });
      expect(out.dtype).toBe('float32');
      expect(out.toArray()).toEqual(
        rt.sparse.embeddingLookupSparse(params, ids, weights('float32'), { combiner: 'sqrtn' }).toArray(),
      );
    });
  }

  it('takes the forward outputs it is given instead of running the op again', async () => {
    const rt = await createRuntime({ backend: 'js' });
    const x = new SparseTensor(
      [
        [0, 0],
        [0, 1],
      ],
      [0, 0],
      [1, 2],
      'float64',
    );
    // A made-up output: the gradient must be computed from it, not from a softmax of x.
    const output = new SparseTensor(
      [
        [0, 0],
        [0, 1],
      ],
      [0.25, 0.75],
      [1, 2],
      'float64',
    );
    const given = rt.vjp('sparse_softmax', { sp_input: x }, [1, 0], { outputs: { output } });
    expect(given.sp_input!.toArray()).toEqual([0.25 * 0.75, -0.75 * 0.25]);
    const ran = rt.vjp('sparse_softmax', { sp_input: x }, [1, 0]);
    expect(ran.sp_input!.toArray()).toEqual([0.25, -0.25]);
  });

  it('runs on the default runtime', () => {
    const x = new SparseTensor([[1]], [3], [2], 'float64');
    expect(vjp('sparse_square', { sp_input: x }, [2]).sp_input!.toArray()).toEqual([12]);
  });

  it('refuses what has no gradient, integers, unknown options and an upstream of the wrong shape', async () => {
    const rt = await createRuntime({ backend: 'js' });
    const x = new SparseTensor([[0]], [1], [2], 'float32');
    const concat = () => rt.vjp('sparse_concat', { sp_inputs: [x, x], axis: 0 }, [1, 1]);
    expect(concat).toThrow(UnimplementedError);
    expect(concat).toThrow(/sparse_concat has no gradient: TensorFlow declares it not differentiable/);
    expect(() => rt.vjp('no_such_op', {}, [1])).toThrow(/unknown op 'no_such_op'/);
    const ints = new SparseTensor([[0]], [1], [2], 'int32');
    expect(() => rt.vjp('sparse_square', { sp_input: ints }, [1])).toThrow(
      /float32 and float64 values; sp_input is int32/,
    );
    expect(() => rt.vjp('sparse_square', { sp_input: x }, [1], { output: {} } as never)).toThrow(
      /unknown option 'output'/,
    );
    expect(() => rt.vjp('sparse_square', { sp_input: x }, [1, 2])).toThrow(InvalidArgumentError);
    const data = tensor(
      [
        [1, 2],
        [3, 4],
      ],
      'float32',
    );
    expect(() =>
      rt.vjp('sparse_segment_sum', { data, indices: [0, 1], segment_ids: [0, 0] }, tensor([[1, 2, 3]], 'float32')),
    ).toThrow(/upstream must be the gradient of its output, of shape \[1,2\]; the gradient of data came out \[2,3\]/);
  });
});
