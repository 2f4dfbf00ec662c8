import { delegation, type SparseData } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { allNormal, REASONS } from '../delegation.js';
import { runPass } from '../families/run.js';
import { innermostRows, SOFTMAX, softmaxMayBeSubnormal } from '../softmax/rows.js';

/**
 * sparse_softmax (float32; float64 runs on the JS kernel) on the GPU: the host finds the innermost rows (runs of
 * entries, linear), one invocation per row computes its max, exp(x − max), sum and the product with the sum's
 * reciprocal, in the JS kernel's order. Inputs holding inf, nan or a subnormal, rows where a step could be subnormal
 * (softmax/rows.ts), and buffers past the binding limit run on the JS kernel; a result holding inf, nan or a
 * subnormal is rerun there. One pass, one read. The indices and shape are the input's, copied.
 */
export const sparseSoftmax: KernelFactory<'sparse_softmax'> = (ctx, js) => async (args) => {
  const sp = args.sp_input;
  const dtype = sp.dtype;
  if (dtype !== 'float32') return delegation(js(args), REASONS.notComputed(dtype));
  const x = sp.values as Float32Array;
  if (!allNormal(x)) return delegation(js(args), REASONS.nonFinite);
  const rows = innermostRows(sp);
  if (softmaxMayBeSubnormal(x, rows)) return delegation(js(args), REASONS.subnormal);
  const result = (values: Float32Array) => ({
    output: { kind: 'sparse', indices: sp.indices.slice(), values, shape: [...sp.shape], dtype } satisfies SparseData,
  });
  if (x.length === 0) return result(new Float32Array(0));
  const read = await runPass(
    ctx,
    SOFTMAX,
    rows.count,
    [Uint32Array.of(rows.count), rows.start, x, { bytes: x.byteLength }],
    [3],
  );
  const values = new Float32Array(read[0]);
  if (!allNormal(values)) return delegation(js(args), REASONS.nonFiniteResult);
  return result(values);
};
