import type { SparseData } from '@sparse/kernel-abi';

/**
 * Ids (int32 or int64 values of a SparseTensor, as sparse_to_indicator and sparse_merge take them) as the GPU
 * reads them: their own words, one an id (int32) or two (int64, low word first), uploaded as they are. `readId`
 * gives id i as a U64 value (u64.ts) and whether it lies in [0, vocab): an int32 with its sign bit set, or an
 * int64 with its high word's, is negative.
 */

/** The ids' words and how many make one id, or undefined for a dtype that holds no ids. */
export function idWords(sp: SparseData): { words: Uint32Array; per: 1 | 2 } | undefined {
  const v = sp.values;
  if (sp.dtype === 'int32' && v instanceof Int32Array)
    return { words: new Uint32Array(v.buffer, v.byteOffset, v.length), per: 1 };
  if (sp.dtype === 'int64' && v instanceof BigInt64Array)
    return { words: new Uint32Array(v.buffer, v.byteOffset, v.length * 2), per: 2 };
  return undefined;
}

/** WGSL (after U64): `readId(k, per, vocab)`, with `ids` the bound words; k counts ids. */
export const READ_ID = /* wgsl */ `struct Id { v: vec2u, ok: bool }

fn readId(k: u32, per: u32, vocab: vec2u) -> Id {
  var v = vec2u(ids[k * per], 0u);
  if (per == 2u) { v.y = ids[k * per + 1u]; }
  let negative = select(v.x, v.y, per == 2u) >= 0x80000000u;
  return Id(v, !negative && lt64(v, vocab));
}
`;
