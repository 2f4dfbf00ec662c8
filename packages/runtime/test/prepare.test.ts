import { describe, expect, it } from 'vitest';
import { kernels } from '@sparse/kernels-js';
import {
  CsrMatrix,
  InvalidArgumentError,
  SparseTensor,
  createRuntime,
  prepare,
  registerBackend,
  ready,
  tensor,
  type Backend,
} from '../src/index.js';
import { knownInBounds, knownOrdered } from '../src/index-facts.js';
import { sparseDataOf } from '../src/sparse-tensor.js';

// rt.prepare(...tensors) does before the first call what that call would do: checks a SparseTensor's indices, notes
// its order, and lets the backend keep what it keeps between calls.

/** A runtime on the JS kernels whose backend counts bounds checks and records what it is asked to prepare. */
async function recordingRuntime(name: string) {
  const seen = { bounds: 0, prepared: [] as string[] };
  const backend: Backend = {
    name,
    kernels,
    indicesValid: () => {
      seen.bounds++;
      return false; // the runtime's own loop checks, and names any bad entry
    },
    prepare: (d) => void seen.prepared.push(d.kind),
  };
  registerBackend(name, () => backend);
  const rt = await createRuntime({ backend: name });
  seen.bounds = 0;
  seen.prepared = []; // what createRuntime's warm-up did is not the test's
  return { rt, seen };
}

const matrix = (entries: [number, number][], shape = [3, 4]) =>
  new SparseTensor(
    entries,
    entries.map((_, i) => i + 1),
    shape,
    'float32',
  );

describe('Runtime.prepare', () => {
  it('checks the indices once, so no later call checks them again', async () => {
    const { rt, seen } = await recordingRuntime('prepare-bounds');
    const st = matrix([
      [0, 1],
      [2, 3],
    ]);
    rt.prepare(st);
    expect(seen.bounds).toBe(1);
    expect(knownInBounds(sparseDataOf(st) as never, true)).toBe(true);
    rt.sparse.reduceSum(st, { axis: 1 });
    rt.sparse.toDense(st);
    expect(seen.bounds).toBe(1);
    // Preparing again checks nothing new either.
    rt.prepare(st);
    expect(seen.bounds).toBe(1);
  });

  it('notes canonical order, and only when the indices are in it', async () => {
    const { rt } = await recordingRuntime('prepare-order');
    const ordered = matrix([
      [0, 1],
      [0, 2],
      [2, 0],
    ]);
    const unordered = matrix([
      [2, 0],
      [0, 1],
    ]);
    const repeated = matrix([
      [1, 1],
      [1, 1],
    ]);
    rt.prepare(ordered, unordered, repeated);
    expect(knownOrdered(sparseDataOf(ordered) as never)).toBe(true);
    expect(knownOrdered(sparseDataOf(unordered) as never)).toBe(false);
    expect(knownOrdered(sparseDataOf(repeated) as never)).toBe(false);
    // An op that needs canonical order still refuses the others, naming itself.
    expect(() => rt.sparse.toDense(unordered)).toThrow(/sparse_tensor_to_dense: sp_input\.indices\[1\].*out of order/);
    expect(() => rt.sparse.toDense(repeated)).toThrow(/repeated/);
    expect(rt.sparse.toDense(ordered).toArray()).toEqual([
      [0, 1, 2, 0],
      [0, 0, 0, 0],
      [3, 0, 0, 0],
    ]);
  });

  it('hands each tensor to the backend: sparse, dense and CSR', async () => {
    const { rt, seen } = await recordingRuntime('prepare-kinds');
    const st = matrix([[1, 1]]);
    const t = tensor([1, 2, 3], 'float32', [3]);
    const csr = CsrMatrix.fromSparseTensor(st);
    rt.prepare(st, t, csr);
    expect(seen.prepared).toEqual(['sparse', 'dense', 'csr']);
  });

  it('refuses indices out of bounds, naming the tensor and the entry', async () => {
    const { rt, seen } = await recordingRuntime('prepare-bad');
    const good = matrix([[0, 0]]);
    const bad = matrix([
      [0, 0],
      [1, 4],
    ]);
    expect(() => rt.prepare(good, bad)).toThrow(InvalidArgumentError);
    expect(() => rt.prepare(good, bad)).toThrow(
      'prepare: tensors[1].indices[1] = [1,4] is out of bounds: need 0 <= index < [3,4]',
    );
    // The good one before it was prepared; the bad one was not, and every op still refuses it.
    expect(seen.prepared).toEqual(['sparse', 'sparse']);
    expect(() => rt.sparse.reduceSum(bad)).toThrow(/sparse_reduce_sum: sp_input\.indices\[1\] = \[1,4\]/);
  });

  it('refuses what is not a tensor, and a disposed tensor', async () => {
    const { rt } = await recordingRuntime('prepare-types');
    expect(() => rt.prepare({ indices: [[0, 0]], values: [1], dense_shape: [1, 1] } as never)).toThrow(TypeError);
    expect(() => rt.prepare(matrix([[0, 0]]), 3 as never)).toThrow(
      'prepare: tensors[1] must be a SparseTensor, Tensor or CsrMatrix; got 3',
    );
    const gone = matrix([[0, 0]]);
    gone.dispose();
    expect(() => rt.prepare(gone)).toThrow(/disposed/);
  });

  it('on the default runtime, through the module-level prepare', async () => {
    await ready();
    const st = matrix([
      [0, 3],
      [1, 0],
    ]);
    prepare(st);
    expect(knownInBounds(sparseDataOf(st) as never, true)).toBe(true);
    expect(knownOrdered(sparseDataOf(st) as never)).toBe(true);
  });
});
