import { describe, expect, it } from 'vitest';
import { kernels } from '@sparse/kernels-js';
import { InvalidArgumentError, SparseTensor, createRuntime, registerBackend } from '@sparse/runtime';

// A tensor's indices are checked once: what a check established (in bounds, canonical order) holds while the tensor
// lives, since it cannot change, and what an op's kernel made true of its output (its spec's `order`) is known too.

/** A runtime on the JS kernels whose backend counts the bounds checks it is asked to make. */
async function countingRuntime(name: string, overrides: Partial<typeof kernels> = {}) {
  const count = { bounds: 0 };
  registerBackend(name, () => ({
    name,
    kernels: { ...kernels, ...overrides },
    indicesValid: () => {
      count.bounds++;
      return false; // the runtime's own loop then checks, and names any bad entry
    },
  }));
  const rt = await createRuntime({ backend: name });
  count.bounds = 0; // the calls createRuntime warms the runtime up with are not the test's
  return { rt, count };
}

const unordered = () =>
  new SparseTensor(
    [
      [1, 0],
      [0, 2],
      [0, 1],
    ],
    [1, 2, 3],
    [2, 3],
    'float32',
  );

describe('index checks', () => {
  it('are made once per tensor, not once per call', async () => {
    const { rt, count } = await countingRuntime('counting-once');
    const st = unordered();
    rt.sparse.reduceSum(st);
    rt.sparse.reduceSum(st, { axis: 1 });
    rt.sparse.toDense(rt.sparse.reorder(st));
    expect(count.bounds).toBe(1);
    rt.sparse.reduceSum(unordered());
    expect(count.bounds).toBe(2);
    // A tensor sharing the indices and shape (withValues) shares what was established about them.
    rt.sparse.reduceSum(st.withValues([4, 5, 6]));
    expect(count.bounds).toBe(2);
  });

  it("are not made of an op's output: its kernel wrote indices within its shape", async () => {
    const { rt, count } = await countingRuntime('counting-outputs');
    const out = rt.sparse.transpose(unordered());
    rt.sparse.reduceSum(rt.sparse.abs(out));
    expect(count.bounds).toBe(1);
  });

  it('still refuse bad input every time it is given', async () => {
    const { rt } = await countingRuntime('counting-bad');
    const bad = new SparseTensor([[0, 5]], [1], [2, 3], 'float32');
    for (let i = 0; i < 2; i++) expect(() => rt.sparse.reduceSum(bad)).toThrow(InvalidArgumentError);
    const st = unordered();
    for (let i = 0; i < 2; i++) expect(() => rt.sparse.toDense(st)).toThrow(/out of order/);
  });

  it("trust an output's declared order: from_dense's is canonical, so an op needing order does not check it", async () => {
    // A from_dense kernel that writes its entries backwards: the runtime believes the spec (the output is
    // canonical), which is what spares the check; the generated properties hold every real kernel to it.
    const backwards = () => ({
      output: {
        kind: 'sparse' as const,
        indices: Float64Array.of(1, 0),
        values: Float32Array.of(2, 1),
        shape: [2],
        dtype: 'float32' as const,
      },
    });
    const { rt } = await countingRuntime('counting-order', { from_dense: backwards });
    const out = rt.sparse.fromDense(Float32Array.of(1, 2));
    expect(Array.from(out.indexData)).toEqual([1, 0]);
    expect(() => rt.sparse.toDense(out)).not.toThrow();
    expect(() => rt.sparse.toDense(new SparseTensor([[1], [0]], [2, 1], [2], 'float32'))).toThrow(/out of order/);
  });
});
