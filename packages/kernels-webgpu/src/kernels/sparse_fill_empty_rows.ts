/// <reference types="@webgpu/types" />
import { delegation, type DenseData, type SparseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { recordRadixSort, sortBytes } from '../structural/radix.js';
import { wordsOf } from '../structural/sort-entries.js';

/**
 * Each entry, in the stable order by row (j: its place there, perm[j] its input position, rows[j] its row), to
 * place j + before[row] (before: how many empty rows precede the row): its index row and its value word.
 * p = [nnz, rank].
 */
const ENTRIES = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> rows: array<u32>;
@group(0) @binding(2) var<storage, read> perm: array<u32>;
@group(0) @binding(3) var<storage, read> before: array<u32>;
@group(0) @binding(4) var<storage, read> idxIn: array<u32>;
@group(0) @binding(5) var<storage, read> valIn: array<u32>;
@group(0) @binding(6) var<storage, read_write> idx: array<u32>;
@group(0) @binding(7) var<storage, read_write> vals: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[1];
  let src = perm[i];
  let dst = i + before[rows[i]];
  for (var d = 0u; d < rank; d++) { idx[dst * rank + d] = idxIn[src * rank + d]; }
  vals[dst] = valIn[src];
}
`;

/** Each empty row's entry, [row, 0, …] with the default's word, at its place: fills = (place, row) pairs. p = [count, rank, default]. */
const EMPTY_ROWS = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> fills: array<u32>;
@group(0) @binding(2) var<storage, read_write> idx: array<u32>;
@group(0) @binding(3) var<storage, read_write> vals: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[1];
  let dst = fills[2u * i];
  idx[dst * rank] = fills[2u * i + 1u];
  for (var d = 1u; d < rank; d++) { idx[dst * rank + d] = 0u; }
  vals[dst] = p[2];
}
`;

/**
 * sparse_fill_empty_rows (float32 and int32) on the GPU. The host counts the entries of each row (O(nnz + rows), as
 * TensorFlow's kernel), which gives empty_row_indicator, each empty row's place and, per row, how many empty rows
 * precede it; the GPU puts the entries in stable order by row (the radix sort of structural/radix.ts on the row
 * keys: no pass where they already are in order), then one pass moves each entry's index row and value to its place
 * and another writes each empty row's entry. Values move as 32-bit words, bit for bit. Indices move as u32: one past
 * 2^32 - 1 (a dim after the first may be that large) runs on the JS kernels. One submission, one read.
 */
export const sparseFillEmptyRows: KernelFactory<'sparse_fill_empty_rows'> = (ctx, js) => async (args) => {
  const sp = args.sp_input;
  const { dtype, shape } = sp;
  if (dtype !== 'float32' && dtype !== 'int32') return delegation(js(args), REASONS.notComputed(dtype));
  const Store = dtype === 'float32' ? Float32Array : Int32Array;
  const rank = shape.length;
  if (rank === 0) return delegation(js(args), REASONS.unchecked);
  const rows = shape[0];
  const nnz = sp.values.length;
  const src = sp.indices;
  if (!ctx.fits((rows + 1) * 4) || !ctx.fits((nnz + rows) * rank * 4) || !ctx.fits(sortBytes(nnz)))
    return delegation(js(args), REASONS.bindingLimit(ctx.maxBindingBytes));

  const idxIn = new Uint32Array(nnz * rank);
  const keys = new Uint32Array(nnz);
  const count = new Uint32Array(rows);
  let sorted = true;
  for (let e = 0; e < nnz; e++) {
    for (let d = 0; d < rank; d++) {
      const x = src[e * rank + d];
      if (!(x >= 0 && x < shape[d]) || x !== Math.floor(x)) return delegation(js(args), REASONS.unchecked);
      if (x >= 2 ** 32) return delegation(js(args), REASONS.wideIndex);
      idxIn[e * rank + d] = x;
    }
    const row = idxIn[e * rank];
    keys[e] = row;
    count[row]++;
    if (e > 0 && row < keys[e - 1]) sorted = false;
  }
  const empty = new Uint8Array(rows);
  const before = new Uint32Array(rows);
  const places: number[] = [];
  for (let r = 0, place = 0, emptyRows = 0; r < rows; r++) {
    before[r] = emptyRows;
    if (count[r] === 0) {
      empty[r] = 1;
      places.push(place, r);
      emptyRows++;
      place++;
    } else place += count[r];
  }
  const total = nnz + places.length / 2;
  const indicator: DenseData = { kind: 'dense', data: empty, shape: [rows], dtype: 'bool' };
  const result = (indices: Float64Array, values: Float32Array | Int32Array) => ({
    output: { kind: 'sparse', indices, values, shape: [...shape], dtype } satisfies SparseData,
    empty_row_indicator: indicator,
  });
  if (total === 0) return result(new Float64Array(0), new Store(0));
  const dflt = new Store(1);
  dflt[0] = args.default_value as number;

  const owned: GPUBuffer[] = [];
  try {
    const idx = ctx.buffer(total * rank * 4);
    const vals = ctx.buffer(total * 4);
    owned.push(idx, vals);
    if (nnz > 0) {
      const keyBuf = ctx.upload(keys);
      owned.push(keyBuf);
      const s = recordRadixSort(ctx, keyBuf, nnz, rows - 1, sorted, owned);
      const bound = [
        ctx.upload(Uint32Array.of(nnz, rank)),
        s.keys,
        s.perm,
        ctx.upload(before),
        ctx.upload(idxIn),
        ctx.upload(wordsOf(sp.values as Float32Array | Int32Array)),
      ];
      owned.push(bound[0], bound[3], bound[4], bound[5]);
      ctx.dispatch({ code: ENTRIES, buffers: [...bound, idx, vals], threads: nnz });
    }
    if (places.length) {
      const p = ctx.upload(Uint32Array.of(places.length / 2, rank, wordsOf(dflt)[0]));
      const fills = ctx.upload(Uint32Array.from(places));
      owned.push(p, fills);
      ctx.dispatch({ code: EMPTY_ROWS, buffers: [p, fills, idx, vals], threads: places.length / 2 });
    }
    const [ib, vb] = await ctx.read([idx, total * rank * 4], [vals, total * 4]);
    return result(Float64Array.from(new Uint32Array(ib)), new Store(vb));
  } finally {
    ctx.release(...owned);
  }
};
