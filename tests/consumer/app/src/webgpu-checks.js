import { SparseTensor, tensor } from '@sparse/runtime';

/**
 * What an app does on the webgpu backend: the few ops of checks.js through rt.sparseAsync, whether the product ran
 * on the GPU (no delegation), and a chain called at once, its result left on the GPU until read. Returns what it
 * saw, for the test to compare.
 */
export async function webgpuChecks(rt) {
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
  const b = tensor(
    [
      [1, 2],
      [3, 4],
      [5, 6],
    ],
    'float32',
  );
  const report = { backend: rt.backend };
  report.matmul = (await rt.sparseAsync.tensorDenseMatmul(st, b)).toArray();
  report.toDense = (await rt.sparseAsync.toDense(st)).toArray();
  report.reduceSum = (await rt.sparseAsync.reduceSum(st, { axis: 1 })).toArray();
  const unordered = new SparseTensor(
    [
      [1, 0],
      [0, 1],
    ],
    [5, 6],
    [2, 2],
    'float32',
  );
  report.reorder = (await rt.sparseAsync.reorder(unordered)).indices;
  const { delegated } = await rt.runWithReportAsync('sparse_tensor_dense_matmul', { sp_a: st, b });
  report.matmulOn = delegated ?? 'the GPU';
  const rowSums = rt.sparse.reduceSum(rt.sparse.square(st), { axis: 1 });
  report.onDevice = rowSums.isOnDevice;
  report.atOnce = await rowSums.array();
  return report;
}
