import { delegation, type DenseData } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { allNormal, REASONS } from '../delegation.js';
import { runPass } from '../families/run.js';
import { innermostRows, SOFTMAX_GRAD, softmaxGradMayBeSubnormal } from '../softmax/rows.js';

/**
 * The gradient of sparse_softmax (float32; float64 runs on the JS kernel) on the GPU: per innermost row of the
 * softmax's output y, (grad − Σ grad · y) · y, one invocation per row in the JS kernel's order. Inputs holding inf,
 * nan or a subnormal, steps whose bound reaches the subnormal range, and buffers past the binding limit run on the
 * JS kernel; a result holding inf, nan or a subnormal is rerun there. One pass, one read.
 */
export const sparseSoftmaxGrad: KernelFactory<'sparse_softmax_grad'> = (ctx, js) => async (args) => {
  const { sp_output: sp, grad } = args;
  const dtype = sp.dtype;
  if (dtype !== 'float32' || grad.dtype !== 'float32') return delegation(js(args), REASONS.notComputed(dtype));
  const y = sp.values as Float32Array;
  const g = grad.data as Float32Array;
  const n = y.length;
  if (g.length !== n) return delegation(js(args), REASONS.unchecked);
  if (!allNormal(y) || !allNormal(g)) return delegation(js(args), REASONS.nonFinite);
  const rows = innermostRows(sp);
  if (softmaxGradMayBeSubnormal(y, g, rows.longest)) return delegation(js(args), REASONS.subnormal);
  const result = (data: Float32Array) => ({
    sp_input_grad: { kind: 'dense', data, shape: [n], dtype } satisfies DenseData,
  });
  if (n === 0) return result(new Float32Array(0));
  const read = await runPass(
    ctx,
    SOFTMAX_GRAD,
    rows.count,
    [Uint32Array.of(rows.count), rows.start, y, g, { bytes: n * 4 }],
    [4],
  );
  const data = new Float32Array(read[0]);
  if (!allNormal(data)) return delegation(js(args), REASONS.nonFiniteResult);
  return result(data);
};
