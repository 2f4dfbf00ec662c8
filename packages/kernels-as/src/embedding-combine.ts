import {
  allocValues,
  delegate,
  type Combiner,
  type DenseData,
  type EmbeddingPlan,
  type KernelResult,
  type SparseData,
} from '@sparse/kernel-abi';
import { bytesPerElement } from './heap.js';
import { fitsI32, type WasmContext } from './wasm-context.js';
import { REASONS, WASM_BYTES } from './delegation.js';

const I32_MAX = 2 ** 31 - 1;
const COMBINERS: Record<Combiner, number> = { sum: 0, mean: 1, sqrtn: 2 };
// The flags of embedding_combine_* (assembly/embedding.ts).
const PRUNE = 1;
const WIDE_IDS = 2;
const CLIP = 4;

export interface EmbeddingCall {
  params: DenseData;
  sp: SparseData;
  weights: SparseData | null;
  combiner: Combiner;
  maxNorm: number | null;
  /** safe_*: ids below 0 dropped, and, with weights and a combiner other than sum, weights not above 0. */
  prune: boolean;
  /** safe_*: the id whose embedding a row without ids gets (null: zeros). */
  defaultId: number | null;
}

/**
 * Both embedding lookups in wasm, by the shared plan of rows (kernel-abi's lookupPlan / safeLookupPlan): the table
 * kept prepared between calls where it can be (a Tensor's own data), the ids' indices (i32), ids and weights as the
 * other kernels take a SparseTensor's operands, then one pass (assembly/embedding.ts). Tables or shapes past i32,
 * or buffers past the wasm memory the kernels allow themselves, run on the JS kernel, declared.
 */
export function combineInWasm<A>(
  ctx: WasmContext,
  js: (args: A) => { output: DenseData },
  args: A,
  call: EmbeddingCall,
  plan: EmbeddingPlan,
): KernelResult<{ output: DenseData }> {
  const { params, sp, weights } = call;
  const { dtype } = params;
  const { rows, inner } = plan;
  if (rows === 0 || inner === 0)
    return { output: { kind: 'dense', data: allocValues(dtype, 0), shape: plan.shape, dtype } };
  if (!fitsI32(params.shape) || !fitsI32(sp.shape) || rows * inner > I32_MAX)
    return delegate(js, args, REASONS.wideDims);
  const n = sp.values.length;
  const rank = sp.shape.length;
  const bpe = bytesPerElement(dtype);
  const bytes = (params.data.length + rows * inner + rows + inner) * bpe + rows * 4 + n * (4 * rank + 8 + bpe);
  if (bytes > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
  const wide = sp.values instanceof BigInt64Array;
  const { heap } = ctx;
  ctx.begin();
  const idx = ctx.indicesOf(sp);
  const ids = ctx.valuesOf(sp);
  const wts = weights ? ctx.valuesOf(weights) : 0;
  const table = ctx.dataOf(params);
  const strides = heap.putI32(plan.strides);
  const out = heap.zeros(dtype, rows * inner);
  const counts = heap.zeros('i32', rows);
  const divisors = weights && call.combiner !== 'sum' ? heap.zeros(dtype, rows) : 0;
  const scratch = call.maxNorm === null ? 0 : heap.alloc(inner * bpe);
  const flags = (call.prune ? PRUNE : 0) | (wide ? WIDE_IDS : 0) | (call.maxNorm === null ? 0 : CLIP);
  ctx.call(`embedding_combine_${dtype as 'float32' | 'float64'}`, [
    table,
    inner,
    idx,
    rank,
    strides,
    plan.strides.length,
    ids,
    n,
    wts,
    COMBINERS[call.combiner],
    flags,
    call.maxNorm ?? 0,
    call.defaultId ?? -1,
    out,
    rows,
    counts,
    divisors,
    scratch,
  ]);
  return { output: { kind: 'dense', data: heap.readValues(dtype, out, rows * inner), shape: plan.shape, dtype } };
}
