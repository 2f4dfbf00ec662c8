// A TypeScript consumer of @sparse/tfjs, strict. TF.js's own declarations need the DOM's and do not check without
// skipLibCheck (WebGL, WebGPU and Long types), so this one skips checking declaration files: what it checks is
// its use of ours.
import { SparseTensor, tensor, type Tensor } from '@sparse/runtime';
import { fromTf, runOp, sparseDenseMatmul, sparseToTf, toTf, type TfOutput, type TfSparseTensor } from '@sparse/tfjs';
import * as tf from '@tensorflow/tfjs';

const st = new SparseTensor([[0, 0]], [1], [1, 4], 'float32');
const layer: tf.Tensor2D = sparseDenseMatmul(st, tf.zeros([4, 2]), { adjointA: false });
const asTf: TfSparseTensor = sparseToTf(st);
const back: Tensor = fromTf(toTf(tensor([0.5], 'float64'), { dtype: 'float32' }));
const outputs: Record<string, TfOutput> = runOp('sparse_reduce_sum', { sp_input: asTf, axis: 1 });
// @ts-expect-error TF.js has no float64 to narrow to
toTf(back, { dtype: 'float64' });
// @ts-expect-error the adjoint flags are booleans
sparseDenseMatmul(st, layer, { adjointA: 1 });

export { layer, outputs };
