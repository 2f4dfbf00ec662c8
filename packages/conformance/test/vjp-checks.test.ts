import { describe, expect, it } from 'vitest';
import { createRuntime, InvalidArgumentError, SparseTensor, tensor } from '@sparse/runtime';

// rt.vjp refuses what the forward op refuses (in TensorFlow the forward op has run first), and forward outputs a
// caller gives it that the op could not have given on these arguments.

describe('rt.vjp checks its arguments as the forward op does', () => {
  const data = () =>
    tensor(
      [
        [1, 2],
        [3, 4],
      ],
      'float32',
    );

  for (const op of ['sparse_segment_sum', 'sparse_segment_mean', 'sparse_segment_sqrt_n']) {
    it(`${op}: unsorted segment ids, as the op itself refuses them`, async () => {
      const rt = await createRuntime({ backend: 'js' });
      const args = { data: data(), indices: tensor([0, 1], 'int32'), segment_ids: tensor([1, 0], 'int32') };
      const upstream = tensor([0.5, 0.5, 0.5, 0.5], 'float32', [2, 2]);
      expect(() => rt.run(op, args)).toThrow(InvalidArgumentError);
      expect(() => rt.vjp(op, args, upstream)).toThrow(InvalidArgumentError);
      expect(() => rt.vjp(op, args, upstream)).toThrow(
        new RegExp(`${op}: segment_ids\\[1\\] = 0 is less than segment_ids\\[0\\] = 1`),
      );
      // Sorted, the same call goes through.
      const sorted = { ...args, segment_ids: tensor([0, 1], 'int32') };
      expect(rt.vjp(op, sorted, upstream).data!.shape).toEqual([2, 2]);
    });
  }

  it('a sparse argument with an index out of its shape, naming the op and the argument', async () => {
    const rt = await createRuntime({ backend: 'js' });
    const x = new SparseTensor([[0], [5]], [1, 2], [3], 'float64');
    expect(() => rt.vjp('sparse_square', { sp_input: x }, [1, 1])).toThrow(InvalidArgumentError);
    expect(() => rt.vjp('sparse_square', { sp_input: x }, [1, 1])).toThrow(/sparse_square: sp_input/);
  });
});

describe('rt.vjp checks the forward outputs it is given', () => {
  const x = () =>
    new SparseTensor(
      [
        [0, 0],
        [0, 1],
      ],
      [1, 2],
      [1, 2],
      'float64',
    );
  const output = (dtype: 'float32' | 'float64' = 'float64', shape = [1, 2]) =>
    new SparseTensor(
      [
        [0, 0],
        [0, 1],
      ],
      [0.25, 0.75],
      shape,
      dtype,
    );

  it('takes outputs of the kind, dtype and shape the op gives', async () => {
    const rt = await createRuntime({ backend: 'js' });
    const g = rt.vjp('sparse_softmax', { sp_input: x() }, [1, 0], { outputs: { output: output() } });
    expect(g.sp_input!.toArray()).toEqual([0.25 * 0.75, -0.75 * 0.25]);
  });

  it('refuses another kind, dtype or shape, an unknown output and a non-object, naming the op and the output', async () => {
    const rt = await createRuntime({ backend: 'js' });
    const call = (outputs: unknown) => () =>
      rt.vjp('sparse_softmax', { sp_input: x() }, [1, 0], { outputs } as { outputs: Record<string, unknown> });
    expect(call({ output: tensor([[0.25, 0.75]], 'float64') })).toThrow(TypeError);
    expect(call({ output: tensor([[0.25, 0.75]], 'float64') })).toThrow(
      /vjp: sparse_softmax: options.outputs.output must be a SparseTensor/,
    );
    expect(call({ output: output('float32') })).toThrow(TypeError);
    expect(call({ output: output('float32') })).toThrow(/options.outputs.output has dtype float32.*gives float64/);
    expect(call({ output: output('float64', [2, 2]) })).toThrow(InvalidArgumentError);
    expect(call({ output: output('float64', [2, 2]) })).toThrow(/options.outputs.output has shape \[2,2\].*\[1,2\]/);
    expect(call({ out: output() })).toThrow(/options.outputs has 'out', which is no output of sparse_softmax/);
    expect(call([output()])).toThrow(/options.outputs must be an object keyed by output name/);
  });
});
