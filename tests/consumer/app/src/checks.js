import { SparseTensor, createRuntime, getBackend, setBackend, sparse, tensor } from '@sparse/runtime';
import { sparseDenseMatmul } from '@sparse/tfjs';
import * as tf from '@tensorflow/tfjs';

/**
 * What an app does with the library: the same few ops on the js and wasm backends, an error, and asking for the
 * GPU backend, which this app has not installed. Returns what it saw; the test compares it with what it should be.
 */
export async function runChecks(wasmOptions = {}) {
  const report = {};
  for (const backend of ['js', 'wasm']) {
    try {
      const rt = await createRuntime({ backend, ...(backend === 'wasm' ? wasmOptions : {}) });
      const st = new SparseTensor(
        [
          [0, 0],
          [1, 2],
          [2, 1],
        ],
        [1, 2, 3],
        [3, 3],
        'float32',
      );
      report[backend] = {
        backend: rt.backend,
        matmul: rt.sparse
          .tensorDenseMatmul(
            st,
            tensor(
              [
                [1, 2],
                [3, 4],
                [5, 6],
              ],
              'float32',
            ),
          )
          .toArray(),
        toDense: rt.sparse.toDense(st).toArray(),
        reduceSum: rt.sparse.reduceSum(st, { axis: 1 }).toArray(),
        reorder: rt.sparse.reorder(
          new SparseTensor(
            [
              [1, 0],
              [0, 1],
            ],
            [5, 6],
            [2, 2],
          ),
        ).indices,
      };
    } catch (e) {
      report[backend] = { error: String(e?.stack ?? e) };
    }
  }
  try {
    await setBackend('wasm', wasmOptions);
    report.defaultBackend = getBackend();
    sparse.toDense(
      new SparseTensor(
        [
          [1, 0],
          [0, 0],
        ],
        [1, 2],
        [2, 2],
      ),
    );
  } catch (e) {
    report.error = `${e.name}: ${e.message}`;
  }
  try {
    const rt = await createRuntime({ backend: 'wasm', threads: 2, ...wasmOptions });
    const st = new SparseTensor([[0, 1]], [2], [2, 2], 'float32');
    report.threads = { threads: rt.threads, toDense: rt.sparse.toDense(st).toArray() };
  } catch (e) {
    report.threads = { error: String(e?.stack ?? e) };
  }
  try {
    // TF.js through a sparse product: tf.grad of Σ A·x is Aᵀ·1.
    await tf.setBackend('cpu');
    const a = new SparseTensor(
      [
        [0, 0],
        [1, 2],
        [2, 1],
      ],
      [1, 2, 3],
      [3, 3],
      'float32',
    );
    const x = tf.tensor2d([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    report.tfjs = tf
      .grad((t) => tf.sum(sparseDenseMatmul(a, t)))(x)
      .arraySync();
  } catch (e) {
    report.tfjs = { error: String(e?.stack ?? e) };
  }
  try {
    await createRuntime({ backend: 'gpu' });
    report.gpu = 'loaded';
  } catch (e) {
    report.gpu = e.message;
  }
  return report;
}
