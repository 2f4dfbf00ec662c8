import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  ResourceExhaustedError,
  SparseTensor,
  UnimplementedError,
  createRuntime,
  getBackend,
  listBackends,
  listOps,
  setBackend,
  sparse,
  tensor,
} from '@sparse/runtime';

const st = () =>
  new SparseTensor(
    [
      [0, 0],
      [1, 2],
    ],
    [1, 2],
    [3, 4],
    'float32',
  );

describe('rt.run: the generic entry keyed by spec names', () => {
  it('returns outputs keyed by the spec output names', async () => {
    const rt = await createRuntime({ backend: 'js' });
    expect(rt.backend).toBe('js');
    const out = rt.run('sparse_tensor_to_dense', { sp_input: st(), default_value: -1 });
    expect(Object.keys(out)).toEqual(['output']);
    expect((out.output as { toArray(): unknown }).toArray()).toEqual([
      [1, -1, -1, -1],
      [-1, -1, 2, -1],
      [-1, -1, -1, -1],
    ]);
  });

  it('knows every op of the specs', async () => {
    const rt = await createRuntime();
    for (const op of listOps()) expect(rt.hasOp(op)).toBe(true);
    expect(rt.hasOp('sparse_frobnicate')).toBe(false);
    expect(() => rt.run('sparse_frobnicate', {})).toThrow(UnimplementedError);
  });

  it('refuses unknown, missing and doubly given arguments with TypeErrors naming them', async () => {
    const rt = await createRuntime();
    expect(() => rt.run('sparse_tensor_to_dense', { sp_input: st(), default_val: 1 })).toThrow(
      /sparse_tensor_to_dense: unknown argument 'default_val'/,
    );
    expect(() => rt.run('sparse_tensor_to_dense', {})).toThrow(/the required argument 'sp_input' is missing/);
    expect(() => rt.run('sparse_tensor_to_dense', { sp_input: tensor([1]) })).toThrow(
      /sp_input must be a SparseTensor, got a Tensor/,
    );
    expect(() => rt.run('sparse_tensor_to_dense', { sp_input: st(), validate_indices: 'yes' })).toThrow(
      /validate_indices must be true or false/,
    );
  });

  it('unifies dtype variables and refuses a mismatch', () => {
    expect(() => sparse.toDense(st(), { defaultValue: tensor(1, 'int32') })).toThrow(
      /default_value has dtype int32 but sp_input has dtype float32; both must be the same T/,
    );
    expect(() => sparse.toDense(new SparseTensor([[0]], ['a'], [2]), { defaultValue: 1 })).toThrow(TypeError);
    // A plain value takes the dtype of the tensor operand.
    expect(sparse.toDense(new SparseTensor([[0]], [2n], [2]), { defaultValue: 7 }).toArray()).toEqual([2n, 7n]);
  });

  it('refuses a non-scalar where a scalar is due', () => {
    expect(() => sparse.toDense(st(), { defaultValue: [1, 2] })).toThrow(
      /default_value must be a scalar, got shape \[2\]/,
    );
  });

  it('checks every index against the dense shape before the kernel runs', () => {
    const bad = new SparseTensor(
      [
        [0, 0],
        [3, 1],
      ],
      [1, 2],
      [3, 4],
    );
    expect(() => sparse.toDense(bad)).toThrow(InvalidArgumentError);
    expect(() => sparse.toDense(bad)).toThrow(
      /sp_input\.indices\[1\] = \[3,1\] is out of bounds: need 0 <= index < \[3,4\]/,
    );
  });

  it('refuses a dense output too large to allocate before allocating it', () => {
    const huge = new SparseTensor([[0, 0]], [1], [1e9, 1e9]);
    expect(() => sparse.toDense(huge)).toThrow(/would hold 1\.000e\+18 elements/);
    expect(() => sparse.toDense(huge)).toThrow(ResourceExhaustedError);
  });

  it('accepts the plain-data SparseTensorValue form', () => {
    const out = sparse.toDense({ indices: [[1]], values: [5], dense_shape: [3] });
    expect(out.toArray()).toEqual([0, 5, 0]);
  });
});

describe('backends', () => {
  it('js is registered and the default', () => {
    expect(listBackends()).toContain('js');
    expect(getBackend()).toBe('js');
  });

  it('an unknown backend is a clear error that lists the known ones', async () => {
    await expect(createRuntime({ backend: 'tpu' })).rejects.toThrow(
      /unknown backend 'tpu': the registered backends are js/,
    );
    await expect(setBackend('tpu')).rejects.toThrow(/unknown backend/);
    expect(getBackend()).toBe('js');
  });
});

describe('scalars take the dtype of their operand', () => {
  it('a float32 thresh is rounded to float32 before it is compared, as TensorFlow converts it', () => {
    const a = new SparseTensor([[0]], [0.05], [1], 'float32');
    // The float32 sum is fround(0.1); 0.1000000016 is above it as a double but rounds to it as a float32.
    const out = sparse.add(a, a, { thresh: 0.1000000016 }) as SparseTensor;
    expect(out.nnz).toBe(1);
    expect(Array.from(out.values as Float32Array)).toEqual([Math.fround(0.1)]);
  });
});

describe('arguments that may be null, and strings from a list', () => {
  const table = () =>
    tensor(
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
      'float32',
    );
  const ids = () =>
    new SparseTensor(
      [
        [0, 0],
        [0, 1],
        [1, 0],
      ],
      [0, 2, 1],
      [2, 2],
      'int64',
    );

  it('a SparseTensor-or-null without a default must be given, as null or a SparseTensor', () => {
    expect(() => sparse.embeddingLookupSparse(table(), ids(), undefined as never)).toThrow(
      /embedding_lookup_sparse: the required argument 'sp_weights' is missing/,
    );
    expect(sparse.embeddingLookupSparse(table(), ids(), null).toArray()).toEqual([
      [3, 4],
      [3, 4],
    ]);
    const w = new SparseTensor(
      [
        [0, 0],
        [0, 1],
      ],
      [1, 3],
      [2, 2],
      'float32',
    );
    expect(() => sparse.embeddingLookupSparse(table(), ids(), w)).toThrow(InvalidArgumentError);
    expect(() => sparse.embeddingLookupSparse(table(), ids(), 1 as never)).toThrow(
      /sp_weights must be a SparseTensor, got/,
    );
  });

  it('an argument whose default is null takes null, a tensor one too', () => {
    const out = sparse.safeEmbeddingLookupSparse(table(), ids(), {
      sparseWeights: null,
      defaultId: null,
      maxNorm: null,
      combiner: 'sum',
    });
    expect(out.toArray()).toEqual([
      [6, 8],
      [3, 4],
    ]);
    expect(sparse.safeEmbeddingLookupSparse(table(), ids(), { maxNorm: 1 }).toArray()[1]).toEqual([
      Math.fround(0.6),
      Math.fround(0.8),
    ]);
  });

  it('a string argument takes one of its strings: any other is an InvalidArgumentError, a non-string a TypeError', () => {
    expect(() => sparse.embeddingLookupSparse(table(), ids(), null, { combiner: 'max' as never })).toThrow(
      /combiner must be one of 'sum', 'mean', 'sqrtn', got 'max'/,
    );
    expect(() => sparse.embeddingLookupSparse(table(), ids(), null, { combiner: 0 as never })).toThrow(TypeError);
    expect(() => sparse.embeddingLookupSparse(table(), ids(), null, { combiner: [] as never })).toThrow(TypeError);
  });

  it('null stands for the default where TensorFlow reads None as it (combiner=None is mean), and nowhere else', () => {
    const mean = sparse.embeddingLookupSparse(table(), ids(), null).toArray();
    expect(sparse.embeddingLookupSparse(table(), ids(), null, { combiner: null }).toArray()).toEqual(mean);
    expect(sparse.embeddingLookupSparse(table(), ids(), null, { combiner: 'sum' }).toArray()).not.toEqual(mean);
    expect(() => sparse.safeEmbeddingLookupSparse(table(), ids(), { combiner: null as never })).toThrow(TypeError);
  });
});
