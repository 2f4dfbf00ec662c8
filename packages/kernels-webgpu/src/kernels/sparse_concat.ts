import { allocValues, concatShape, delegation, type SparseData, type Values } from '@sparse/kernel-abi';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { sortEntries } from '../structural/sort-entries.js';
import { valueWidth } from '../structural/value-words.js';

/**
 * sparse_concat (every dtype but string) on the GPU. The host lays the inputs end to end, each input's index along
 * `axis` moved by the sizes before it (O(M · rank) for M entries in all, as the JS kernel), and the GPU puts them
 * in canonical row-major order with the stable sort of structural/sort-entries.ts, as the JS kernel's stable
 * canonicalOrder: entries that share an index keep their input order. Values move as their words, bit for bit
 * (value-words.ts: two a float64 or int64).
 * A single input comes back as it is (no GPU), as in the JS kernel. Mixed ranks or dtypes, an axis out of range,
 * indices out of range or -0 off the axis (the JS kernel keeps it, a u32 cannot) run on the JS kernels, as does what
 * sortEntries does not take (a result of more than 2^32 elements). One submission, one read.
 */
export const sparseConcat: KernelFactory<'sparse_concat'> = (ctx, js) => async (args) => {
  const inputs = args.sp_inputs;
  if (inputs.length === 0) return delegation(js(args), REASONS.unchecked);
  const { dtype } = inputs[0];
  if (!valueWidth(dtype)) return delegation(js(args), REASONS.notComputed(dtype));
  const rank = inputs[0].shape.length;
  if (inputs.length === 1) {
    // A typed array's slice copies its bytes: NaN payloads stay.
    const s = inputs[0];
    return {
      output: { kind: 'sparse', indices: s.indices.slice(), values: s.values.slice(), shape: [...s.shape], dtype },
    };
  }
  const ax = args.axis < 0 ? args.axis + rank : args.axis;
  if (!Number.isInteger(ax) || ax < 0 || ax >= rank) return delegation(js(args), REASONS.unchecked);
  let total = 0;
  for (const s of inputs) {
    if (s.dtype !== dtype || s.shape.length !== rank || s.indices.length !== s.values.length * rank)
      return delegation(js(args), REASONS.unchecked);
    total += s.values.length;
  }
  const shape = concatShape(inputs, ax, args.expand_nonconcat_dim);

  const indices = new Float64Array(total * rank);
  const values = allocValues(dtype, total) as Exclude<Values, string[]>;
  let at = 0;
  let offset = 0;
  for (const s of inputs) {
    const src = s.indices;
    for (let k = 0; k < src.length; k++) {
      const x = src[k];
      if (x === 0 && 1 / x < 0 && k % rank !== ax) return delegation(js(args), REASONS.unchecked);
      indices[at * rank + k] = k % rank === ax ? x + offset : x;
    }
    (values as Float64Array).set(s.values as Float64Array, at); // same dtype: a byte copy
    at += s.values.length;
    offset += s.shape[ax];
  }
  const joined: SparseData = { kind: 'sparse', indices, values, shape, dtype };
  const r = await sortEntries(
    ctx,
    joined,
    shape.map((_, d) => d),
    shape,
  );
  return typeof r === 'string' ? delegation(js(args), r) : r;
};
