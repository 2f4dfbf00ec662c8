import type { Runtime } from './runtime.js';
import { SparseTensor } from './sparse-tensor.js';
import { tensor } from './tensor.js';

/**
 * A few tiny calls of common ops through a new runtime: the first call of an op runs the runtime's own code for
 * the first time too (argument binding, the index and order checks, the byte budget, wrapping the outputs), which
 * V8 compiles as it goes; on the bench machine that took about 2 ms of a first 2048² SpMM whose later calls take
 * 0.8. Their results are dropped; tensors this small are never kept prepared nor pooled.
 */
export function warmUp(rt: Runtime): void {
  const a = new SparseTensor(
    [
      [0, 0],
      [0, 2],
      [1, 1],
      [2, 0],
    ],
    new Float32Array([1, 2, 3, 4]),
    [3, 3],
    'float32',
  );
  const b = tensor(new Float32Array(9).fill(1), 'float32', [3, 3]);
  for (let i = 0; i < 3; i++) {
    rt.sparse.tensorDenseMatmul(a, b);
    rt.sparse.reduceSum(a, { axis: 1 });
    rt.sparse.add(a, a);
    rt.sparse.transpose(a);
    rt.sparse.tensorToDense(a);
    rt.sparse.reorder(a);
    rt.sparse.concat(1, [a, a]);
  }
}
