// The README's demo: a few ops of sparse on the default backend (wasm, once ready).
import { SparseTensor, sparse, getBackend, ready, tensor } from '@sparse/runtime';

await ready();

const st = new SparseTensor(
  [
    [0, 3],
    [0, 1],
    [3, 1],
    [2, 0],
  ],
  ['b', 'a', 'd', 'c'],
  [4, 5],
);
console.log(`backend: ${getBackend()}`);
console.log('input:      ', st.toString());
const ordered = sparse.reorder(st);
console.log('reorder:    ', ordered.toString());
console.log('to dense:   ', JSON.stringify(ordered.toDense('.').toArray()));

const x = new SparseTensor(
  [
    [0, 0],
    [1, 2],
  ],
  [1, 2],
  [3, 4],
  'float32',
);
const y = sparse.fromDense([
  [0, 0, 0, 4],
  [0, 0, 3, 0],
  [0, 0, 0, 0],
]);
console.log('x + y:      ', sparse.add(x, y.withValues(Float32Array.from(y.values))).toString());
console.log('x * [10..]: ', x.mul(tensor([10, 20, 30, 40], 'float32')).toString());
console.log(
  'x + dense:  ',
  JSON.stringify(
    sparse
      .add(
        x,
        tensor(
          [
            [1, 1, 1, 1],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
          ],
          'float32',
        ),
      )
      .toArray(),
  ),
);
