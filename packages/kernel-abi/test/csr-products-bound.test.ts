import { expect, it } from 'vitest';
import { rememberedProductsBound, type CsrData } from '../src/index.js';

// The bound on an SpGEMM's entries, for every pair of flags, against the same count made on dense patterns: for each
// row i of op(a), the products sum over k of [op(a)[i, k] stored] · (entries of op(b)'s row k), capped at op(b)'s
// columns. The transposed cases now keep one array each, not two: the count must not change.

/** A batch of random CSR matrices (a seeded LCG), and its dense patterns. */
function randomCsr(seed: number, batch: number, rows: number, cols: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const patterns: boolean[][][] = [];
  const rowPointers: number[] = [];
  const colIndices: number[] = [];
  const batchPointers = [0];
  for (let n = 0; n < batch; n++) {
    const p = Array.from({ length: rows }, () => Array.from({ length: cols }, () => next() < 0.3));
    patterns.push(p);
    let count = 0;
    for (const row of p) {
      rowPointers.push(count);
      row.forEach((on, c) => on && (colIndices.push(c), count++));
    }
    rowPointers.push(count);
    batchPointers.push(batchPointers[n] + count);
  }
  const csr: CsrData = {
    kind: 'csr',
    batchPointers: Int32Array.from(batchPointers),
    rowPointers: Int32Array.from(rowPointers),
    colIndices: Int32Array.from(colIndices),
    values: new Float32Array(colIndices.length).fill(1),
    shape: batch === 1 ? [rows, cols] : [batch, rows, cols],
    dtype: 'float32',
  };
  return { csr, patterns };
}

const transpose = (p: boolean[][]) => p[0].map((_, c) => p.map((row) => row[c]));

function denseBound(a: boolean[][][], b: boolean[][][], ta: boolean, tb: boolean): number {
  let total = 0;
  a.forEach((pa, n) => {
    const opA = ta ? transpose(pa) : pa;
    const opB = tb ? transpose(b[n]) : b[n];
    for (const row of opA) {
      let products = 0;
      row.forEach((on, k) => on && (products += opB[k].filter(Boolean).length));
      total += Math.min(products, opB[0].length);
    }
  });
  return total;
}

it.each([
  [false, false],
  [true, false],
  [false, true],
  [true, true],
])('bounds op(a) · op(b) as the dense count does (transpose_a %s, transpose_b %s)', (ta, tb) => {
  for (let seed = 1; seed <= 20; seed++) {
    const batch = 1 + (seed % 3);
    const [m, k, n] = [1 + (seed % 5), 2 + (seed % 4), 1 + (seed % 6)];
    const a = randomCsr(seed, batch, ta ? k : m, ta ? m : k);
    const b = randomCsr(seed * 7 + 3, batch, tb ? n : k, tb ? k : n);
    expect(rememberedProductsBound(a.csr, b.csr, ta, tb)).toBe(denseBound(a.patterns, b.patterns, ta, tb));
  }
});
