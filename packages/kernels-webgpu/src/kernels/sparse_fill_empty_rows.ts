/// <reference types="@webgpu/types" />
import { delegation, type DenseData, type SparseData, type Values } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { recordRadixSort, sortBytes } from '../structural/radix.js';
import {
  moveValue,
  scalarWords,
  valuesOf,
  valueWidth,
  valueWords,
  type MovedDType,
} from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Each entry, in the stable order by row (j: its place there, perm[j] its input position, rows[j] its row), to
 * place j + before[row] (before: how many empty rows precede the row): its index row and its value's `width` words.
 * p = [nnz, rank].
 */
const entries = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
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
  ${moveValue(width, 'vals', 'dst', 'valIn', 'src')}
}
`;

/**
 * Each empty row's entry, [row, 0, …] with the default's `width` words, at its place: fills = (place, row) pairs.
 * p = [count, rank, default's words…].
 */
const emptyRows = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> fills: array<u32>;
@group(0) @binding(2) var<storage, read_write> idx: array<u32>;
@group(0) @binding(3) var<storage, read_write> vals: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[1];
  let dst = fills[2u * i];
  idx[dst * rank] = fills[2u * i + 1u];
  for (var d = 1u; d < rank; d++) { idx[dst * rank + d] = 0u; }
  for (var w = 0u; w < ${width}u; w++) { vals[dst * ${width}u + w] = p[2u + w]; }
}
`;

/**
 * sparse_fill_empty_rows (every dtype but string) on the GPU. The host counts the entries of each row (O(nnz + rows),
 * as TensorFlow's kernel), which gives empty_row_indicator, each empty row's place and, per row, how many empty rows
 * precede it; the GPU puts the entries in stable order by row (the radix sort of structural/radix.ts on the row keys:
 * no pass where they already are in order), then one pass moves each entry's index row and value to its place and
 * another writes each empty row's entry. Values move as their words, bit for bit (two a float64 or int64:
 * value-words.ts); the default is written as the JS kernel stores it (storageValue). Indices move as u32: one past 2^32
 * - 1 (a dim after the first may be that large) runs on the JS kernels. One submission, one read.
 */
export const sparseFillEmptyRows: KernelFactory<'sparse_fill_empty_rows'> = (ctx, js) => async (args) => {
  const sp = args.sp_input;
  const { dtype, shape } = sp;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const rank = shape.length;
  if (rank === 0) return delegation(js(args), REASONS.unchecked);
  const rows = shape[0];
  const nnz = sp.values.length;
  const src = sp.indices;
  if (!ctx.fits((rows + 1) * 4) || !ctx.fits((nnz + rows) * Math.max(rank, width) * 4) || !ctx.fits(sortBytes(nnz)))
    throw new BindingLimitError(ctx.maxBindingBytes);

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
  const result = (indices: Float64Array, values: Values) => ({
    output: { kind: 'sparse', indices, values, shape: [...shape], dtype } satisfies SparseData,
    empty_row_indicator: indicator,
  });
  if (total === 0) return result(new Float64Array(0), sp.values.slice(0, 0));
  const dflt = places.length ? scalarWords(dtype as MovedDType, args.default_value) : new Uint32Array(width);

  const owned: GPUBuffer[] = [];
  try {
    const idx = ctx.buffer(total * rank * 4);
    const vals = ctx.buffer(total * width * 4);
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
        ctx.upload(valueWords(sp.values)),
      ];
      owned.push(bound[0], bound[3], bound[4], bound[5]);
      ctx.dispatch({ code: entries(width), buffers: [...bound, idx, vals], threads: nnz });
    }
    if (places.length) {
      const p = ctx.upload(Uint32Array.of(places.length / 2, rank, ...dflt));
      const fills = ctx.upload(Uint32Array.from(places));
      owned.push(p, fills);
      ctx.dispatch({ code: emptyRows(width), buffers: [p, fills, idx, vals], threads: places.length / 2 });
    }
    const [ib, vb] = await ctx.read([idx, total * rank * 4], [vals, total * width * 4]);
    return result(Float64Array.from(new Uint32Array(ib)), valuesOf(vb, dtype as MovedDType));
  } finally {
    ctx.release(...owned);
  }
};
