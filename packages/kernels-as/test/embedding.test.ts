import { describe, expect, it } from 'vitest';
import { markImmutable, type DType, type SparseData } from '@sparse/kernel-abi';
import { dense, store } from '@sparse/test-kit/plain-data';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { createWasmBackend } from '../dist/index.js';
import { againstJs, runWasm } from './against-js.js';

// The embedding lookups' wasm pass (assembly/embedding.ts) against the JS kernels, bit for bit: every combiner,
// with and without weights and max_norm, both dtypes and both id dtypes, tables of rank 1 to 3, and the safe form's
// pruning and default rows on ids of rank 1 to 3 in any order.

const COMBINERS = ['sum', 'mean', 'sqrtn'] as const;

/** `n` entries at random positions of `shape` (rows sorted when `rowOrder`), ids from `lowId` up to `vocab`. */
function ids(r: Rng, shape: number[], n: number, vocab: number, idDType: DType, rowOrder: boolean, lowId = 0) {
  const size = shape.reduce((a, b) => a * b, 1);
  const at = Array.from({ length: n }, () => r.int(size));
  if (rowOrder) at.sort((a, b) => a - b);
  const indices = new Float64Array(n * shape.length);
  at.forEach((p, i) => {
    for (let k = shape.length - 1; k >= 0; k--) {
      indices[i * shape.length + k] = p % shape[k];
      p = Math.floor(p / shape[k]);
    }
  });
  const values = store(
    idDType,
    at.map(() => lowId + r.int(vocab - lowId)),
  );
  return { kind: 'sparse', indices, values, shape, dtype: idDType } as SparseData;
}

function weightsLike(r: Rng, sp: SparseData, dtype: DType, signed: boolean): SparseData {
  const w = Array.from(sp.values, () => (signed ? r.next() * 3 - 1 : r.next() * 2 + 0.25));
  return { ...sp, values: store(dtype, w), dtype };
}

function table(r: Rng, rowShape: number[], vocab: number, dtype: DType) {
  const n = vocab * rowShape.reduce((a, b) => a * b, 1);
  return dense(
    Float64Array.from({ length: n }, () => r.next() * 4 - 2),
    [vocab, ...rowShape],
    dtype,
  );
}

describe('embedding lookups on wasm', () => {
  it('equal the JS kernels bit for bit on every path', async () => {
    const backend = await createWasmBackend();
    const r = rng(17);
    let cases = 0;
    for (const dtype of ['float32', 'float64'] as DType[])
      for (const idDType of ['int32', 'int64'] as DType[])
        for (const rowShape of [[], [7], [3, 5], [64]])
          for (const combiner of COMBINERS)
            for (const weighted of [false, true])
              for (const maxNorm of [null, 1.5]) {
                const vocab = 20;
                const params = table(r, rowShape, vocab, dtype);
                const sp = ids(r, [30, 6], 90, vocab, idDType, true);
                const w = weighted ? weightsLike(r, sp, dtype, true) : null;
                const plain = { params, sp_ids: sp, sp_weights: w, combiner, max_norm: maxNorm };
                const a = againstJs(backend, 'embedding_lookup_sparse', plain);
                expect(a, `${dtype} ${idDType} [${rowShape}] ${combiner} ${weighted} ${maxNorm}`).toEqual({});
                const safeIds = ids(r, [4, 3, 5], 40, vocab, idDType, false, -3);
                const safe = {
                  embedding_weights: params,
                  sparse_ids: safeIds,
                  sparse_weights: weighted ? weightsLike(r, safeIds, dtype, true) : null,
                  combiner,
                  default_id: r.int(2) ? null : r.int(vocab),
                  max_norm: maxNorm,
                };
                expect(againstJs(backend, 'safe_embedding_lookup_sparse', safe)).toEqual({});
                const rank1 = ids(r, [9], 4, vocab, idDType, false, -1);
                const one = { ...safe, sparse_ids: rank1, sparse_weights: null };
                expect(againstJs(backend, 'safe_embedding_lookup_sparse', one)).toEqual({});
                cases += 3;
              }
    expect(cases).toBe(2 * 2 * 4 * 3 * 2 * 2 * 3);
  });

  it('keeps the table prepared: repeated lookups copy nothing in again', async () => {
    const backend = await createWasmBackend();
    const r = rng(5);
    const params = table(r, [16], 2000, 'float32');
    const sp = ids(r, [5000, 8], 20000, 2000, 'int32', true);
    const w = weightsLike(r, sp, 'float32', false);
    markImmutable(params.data as object);
    markImmutable(sp.indices, sp.values as object);
    markImmutable(w.values as object);
    const args = { params, sp_ids: sp, sp_weights: w, combiner: 'mean', max_norm: null };
    runWasm(backend, 'embedding_lookup_sparse', args);
    // The table, the ids' indices and values, and the weights.
    expect(backend.residentStats().uploads).toBe(4);
    for (let i = 0; i < 2; i++) expect(againstJs(backend, 'embedding_lookup_sparse', args)).toEqual({});
    expect(backend.residentStats().uploads).toBe(4);
    expect(backend.residentStats().residentBytes).toBe(2000 * 16 * 4 + 20000 * 2 * 4 + 20000 * 4 + 20000 * 4);
  });
});
