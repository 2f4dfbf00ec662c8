import { delegate, rowEnd } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { GpuContext } from '../gpu-context.js';
import { allFinite, EXACT_INT, gpuRefusal, REASONS } from '../delegation.js';
import { subnormalSoftmaxRefusal } from '../subnormal-bound.js';

/**
 * Stage 1, one thread per innermost row r and part, at 2r + part (a 1-D output, near square as a texture, however
 * many rows): part 0 the row's max, part 1 the inverse of its sum of exp(x - max), summed in entry order as the JS
 * kernel does. Row r's entries are rowStart[r] .. rowStart[r+1]; the loops are bounded by the longest row. The two
 * loops need their own variables (GLSL scope).
 */
const ROW_STATS = `function (vals, rowStart) {
  const r = Math.floor(this.thread.x / 2);
  const s = rowStart[r];
  const e = rowStart[r + 1];
  let m = vals[s];
  for (let p = s + 1; p < e; p++) {
    m = Math.max(m, vals[p]);
  }
  if (this.thread.x === 2 * r) return m;
  let sum = 0.0;
  for (let q = s; q < e; q++) {
    sum += Math.exp(vals[q] - m);
  }
  return 1.0 / sum;
}`;

/** Stage 2, one thread per entry: exp(x - max) · inv of its row, the stats read at 2r + part. */
const NORMALIZE = `function (vals, rowOf, stats) {
  const r = rowOf[this.thread.x];
  return Math.exp(vals[this.thread.x] - stats[r * 2]) * stats[r * 2 + 1];
}`;

/** The innermost rows of a sparse tensor: row r's entries are rowStart[r] .. rowStart[r+1]; rowOf each entry's row. */
interface InnermostRows {
  rowStart: Float32Array;
  rowOf: Float32Array;
  count: number;
  longest: number;
}

/** The indices are in canonical order (checked by the runtime), so an innermost row is a run of consecutive entries. */
function innermostRows(sp: SparseData): InnermostRows {
  const n = sp.values.length;
  const rank = sp.shape.length;
  const rowStart = new Float32Array(n + 1);
  const rowOf = new Float32Array(n);
  let count = 0;
  let longest = 0;
  for (let start = 0, end: number; start < n; start = end, count++) {
    end = rowEnd(sp.indices, start, n, rank);
    rowStart[count] = start;
    rowOf.fill(count, start, end);
    longest = Math.max(longest, end - start);
  }
  rowStart[count] = n;
  return { rowStart, rowOf, count, longest };
}

/**
 * sparse_softmax (float32) on the GPU, in two pipelined stages: the row stats (stage 1) stay on the GPU as a
 * texture that stage 2 reads; only the softmax values are read back. The host finds the innermost rows in one
 * linear pass.
 */
export function sparseSoftmax(ctx: GpuContext, js: KernelTable['sparse_softmax']): OpKernel<'sparse_softmax'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const x = sp.values as Float32Array;
    let rows: InnermostRows | undefined;
    const refusal = gpuRefusal(sp.dtype, [x], {
      float32: () => {
        rows = innermostRows(sp);
        return subnormalSoftmaxRefusal(x, rows.rowStart, rows.count);
      },
    });
    if (refusal) return delegate(js, args, refusal);
    // float32 is the one dtype taken here, so its bound has found the rows.
    const { rowStart, rowOf, count, longest } = rows!;
    const n = x.length;
    // Two stats per row, read at 2r + 1.
    if (2 * count > EXACT_INT) return delegate(js, args, REASONS.tooBig);
    let values: Float32Array = new Float32Array(0);
    if (n > 0) {
      const loopMax = 2 ** Math.ceil(Math.log2(longest));
      const stats = ctx.stage('sparse_softmax:stats', ROW_STATS, 2 * count, [x, rowStart.subarray(0, count + 1)], {
        loopMaxIterations: loopMax,
      });
      try {
        values = ctx.run('sparse_softmax', NORMALIZE, n, [x, rowOf, stats]);
      } finally {
        ctx.release(stats);
      }
    }
    if (!allFinite(values)) return delegate(js, args, REASONS.nonFiniteResult);
    return {
      output: {
        kind: 'sparse',
        indices: sp.indices.slice(),
        values,
        shape: sp.shape.slice(),
        dtype: sp.dtype,
      } satisfies SparseData,
    };
  };
}
