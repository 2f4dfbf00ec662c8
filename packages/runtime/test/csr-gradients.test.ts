import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsrMatrix, SparseTensor, Tensor, createRuntime, type DType, type Runtime } from '@sparse/runtime';

// The gradients of the CSR ops and of safe_embedding_lookup_sparse through rt.vjp, on seeded random inputs (flags
// and batches included), against two independent oracles: central finite differences of the forward op in float64,
// and TensorFlow's formulas (sparse_csr_matrix_grad.py) written out on dense matrices. float32 is held to the float64
// formula within float32 rounding. Both backends that run these ops here: js, and wasm (which runs them on js).

type Args = Record<string, unknown>;
type Csr = { rowPointers: number[]; colIndices: number[]; values: number[]; shape: number[] };

/** mulberry32: a small seeded generator, so that a failure is reproducible. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const worst: Record<string, number> = {};
const note = (key: string, err: number) => (worst[key] = Math.max(worst[key] ?? 0, err));

/** Asserts |got - want| <= tol · max(1, |want|) elementwise, and records the worst relative error under `key`. */
function close(got: ArrayLike<number>, want: ArrayLike<number>, tol: number, key: string): void {
  expect(got.length, key).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    const err = Math.abs(got[i] - want[i]) / Math.max(1, Math.abs(want[i]));
    note(key, err);
    if (!(err <= tol)) expect.fail(`${key}: [${i}] = ${got[i]}, want ${want[i]} (error ${err})`);
  }
}

const store = (dtype: DType, v: ArrayLike<number>) =>
  dtype === 'float32' ? Float32Array.from(v) : Float64Array.from(v);
const dense = (v: ArrayLike<number>, shape: number[], dtype: DType) => new Tensor(store(dtype, v), shape, dtype);
const csr = (m: Csr, dtype: DType) =>
  new CsrMatrix(m.rowPointers, m.colIndices, store(dtype, m.values), m.shape, dtype);

/** A random CSR matrix or batch: each position stored with probability `p`, values in [-2, 2]. */
function randomCsr(rnd: () => number, shape: number[], p: number): Csr {
  const [batch, rows, cols] = shape.length === 3 ? shape : [1, ...shape];
  const m: Csr = { rowPointers: [], colIndices: [], values: [], shape };
  for (let b = 0; b < batch; b++) {
    let count = 0;
    m.rowPointers.push(0);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++)
        if (rnd() < p) {
          m.colIndices.push(c);
          m.values.push(rnd() * 4 - 2);
          count++;
        }
      m.rowPointers.push(count);
    }
  }
  return m;
}

const randomValues = (rnd: () => number, n: number) => Array.from({ length: n }, () => rnd() * 2 - 1);

/** The stored positions of a CSR matrix, [batch, row, col] per entry, in entry order. */
function positions(m: Csr): [number, number, number][] {
  const [batch, rows] = m.shape.length === 3 ? m.shape : [1, ...m.shape];
  const out: [number, number, number][] = [];
  for (let b = 0, base = 0; b < batch; b++) {
    const rp = m.rowPointers.slice(b * (rows + 1), (b + 1) * (rows + 1));
    for (let r = 0; r < rows; r++) for (let k = rp[r]; k < rp[r + 1]; k++) out.push([b, r, m.colIndices[base + k]]);
    base += rp[rows];
  }
  return out;
}

/** A batch of dense matrices as [batch][row][col], from row-major values. */
function matrices(v: ArrayLike<number>, batch: number, rows: number, cols: number): number[][][] {
  return Array.from({ length: batch }, (_, b) =>
    Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => v[(b * rows + r) * cols + c])),
  );
}
function densify(m: Csr): number[][][] {
  const [batch, rows, cols] = m.shape.length === 3 ? m.shape : [1, ...m.shape];
  const out = matrices(new Float64Array(batch * rows * cols), batch, rows, cols);
  positions(m).forEach(([b, r, c], e) => (out[b][r][c] += m.values[e]));
  return out;
}
const t = (x: number[][]) => x[0].map((_, j) => x.map((row) => row[j]));
const mm = (x: number[][], y: number[][]) =>
  x.map((row) => y[0].map((_, j) => row.reduce((s, v, k) => s + v * y[k][j], 0)));

/** The flat values of the op's one output: a CsrMatrix's or SparseTensor's stored values, a Tensor's data. */
function outputValues(rt: Runtime, op: string, args: Args): number[] {
  const out = Object.values(rt.run(op, args))[0] as Tensor | SparseTensor | CsrMatrix;
  return Array.from((out instanceof Tensor ? out.dataSync() : out.values) as Float64Array);
}

/**
 * The gradient of L = Σ upstream · output with respect to each value of `name` by central differences in float64
 * (h = 1e-6 · max(1, |x|)); `change(args, k, x)` gives the arguments with value k of `name` set to x.
 */
function finiteDifferences(
  rt: Runtime,
  op: string,
  args: Args,
  upstream: number[],
  x: number[],
  change: (k: number, v: number) => Args,
): number[] {
  const loss = (a: Args) => {
    const out = outputValues(rt, op, a);
    expect(out.length).toBe(upstream.length);
    return out.reduce((s, v, i) => s + v * upstream[i], 0);
  };
  return x.map((v, k) => {
    const h = 1e-6 * Math.max(1, Math.abs(v));
    return (loss(change(k, v + h)) - loss(change(k, v - h))) / (2 * h);
  });
}
const withCsrValue = (m: Csr, k: number, v: number): Csr => ({
  ...m,
  values: m.values.map((x, i) => (i === k ? v : x)),
});

const BACKENDS = ['js', 'wasm'] as const;
const runtimes: Record<string, Runtime> = {};
beforeAll(async () => {
  for (const b of BACKENDS) runtimes[b] = await createRuntime({ backend: b });
});
afterAll(() => {
  // GRADIENT_REPORT=<file>: the worst error of each check, for the record.
  if (process.env.GRADIENT_REPORT) writeFileSync(process.env.GRADIENT_REPORT, JSON.stringify(worst, null, 1));
});

const grads = (rt: Runtime, op: string, args: Args, upstream: Tensor) =>
  Object.fromEntries(
    Object.entries(rt.vjp(op, args, upstream)).map(([k, v]) => [
      k,
      v ? Array.from(v.dataSync() as Float64Array) : null,
    ]),
  );

describe.each(BACKENDS)('sparse_matrix_mat_mul gradient on %s', (backend) => {
  // Each flag combination TensorFlow allows: at most one of transpose/adjoint per operand.
  const ops = ['', 'transpose', 'adjoint'] as const;
  const cases = ops.flatMap((oa) => ops.flatMap((ob) => [false, true].map((to) => [oa, ob, to] as const)));
  it.each(cases)('op(a) = %s a, op(b) = %s b, transpose_output %s', (oa, ob, to) => {
    const rt = runtimes[backend];
    const rnd = random(oa.length * 31 + ob.length * 7 + (to ? 1 : 0));
    for (const batch of [0, 2]) {
      const [m, k, n] = [3, 4, 2];
      const ta = oa !== '';
      const tb = ob !== '';
      const lead = batch ? [batch] : [];
      const B = batch || 1;
      const aShape = [...lead, ...(ta ? [k, m] : [m, k])];
      const bShape = [...lead, ...(tb ? [n, k] : [k, n])];
      const aM = randomCsr(rnd, aShape, 0.5);
      const bV = randomValues(rnd, B * k * n);
      const gShape = [...lead, ...(to ? [n, m] : [m, n])];
      const gV = randomValues(rnd, B * m * n);
      const flags = {
        transpose_a: oa === 'transpose',
        adjoint_a: oa === 'adjoint',
        transpose_b: ob === 'transpose',
        adjoint_b: ob === 'adjoint',
        transpose_output: to,
        conjugate_output: to,
      };
      const args = (a: Csr, b: number[], dtype: DType) => ({ a: csr(a, dtype), b: dense(b, bShape, dtype), ...flags });

      // TensorFlow's formula: G the gradient of op(a)·op(b); a's is G·op(b)ᵀ at a's positions, b's op(a)ᵀ·G.
      const A = densify(aM);
      const Bm = matrices(bV, B, bShape.at(-2)!, bShape.at(-1)!);
      const Gm = matrices(gV, B, gShape.at(-2)!, gShape.at(-1)!);
      const wantA = positions(aM).map(([b, r, c]) => {
        const G = to ? t(Gm[b]) : Gm[b];
        const dOpA = mm(G, t(tb ? t(Bm[b]) : Bm[b]));
        return ta ? dOpA[c][r] : dOpA[r][c];
      });
      const wantB = Bm.flatMap((_, b) => {
        const G = to ? t(Gm[b]) : Gm[b];
        const dOpB = mm(t(ta ? t(A[b]) : A[b]), G);
        return (tb ? t(dOpB) : dOpB).flat();
      });

      const got = grads(rt, 'sparse_matrix_mat_mul', args(aM, bV, 'float64'), dense(gV, gShape, 'float64'));
      close(got.a!, wantA, 1e-12, 'sparse_matrix_mat_mul a formula f64');
      close(got.b!, wantB, 1e-12, 'sparse_matrix_mat_mul b formula f64');
      const fdA = finiteDifferences(rt, 'sparse_matrix_mat_mul', args(aM, bV, 'float64'), gV, aM.values, (i, v) =>
        args(withCsrValue(aM, i, v), bV, 'float64'),
      );
      const fdB = finiteDifferences(rt, 'sparse_matrix_mat_mul', args(aM, bV, 'float64'), gV, bV, (i, v) =>
        args(
          aM,
          bV.map((x, j) => (j === i ? v : x)),
          'float64',
        ),
      );
      close(got.a!, fdA, 1e-7, 'sparse_matrix_mat_mul a finite differences f64');
      close(got.b!, fdB, 1e-7, 'sparse_matrix_mat_mul b finite differences f64');

      const got32 = grads(rt, 'sparse_matrix_mat_mul', args(aM, bV, 'float32'), dense(gV, gShape, 'float32'));
      close(got32.a!, wantA, 1e-5, 'sparse_matrix_mat_mul a formula f32');
      close(got32.b!, wantB, 1e-5, 'sparse_matrix_mat_mul b formula f32');
    }
  });
});

describe.each(BACKENDS)('sparse_matrix_sparse_mat_mul gradient on %s', (backend) => {
  const cases = [
    [false, false, false, false],
    [true, false, false, false],
    [false, false, false, true],
    [false, true, true, false],
    [true, false, false, true],
  ] as const;
  it.each(cases)('transpose_a %s, adjoint_a %s, transpose_b %s, adjoint_b %s', (tA, adjA, tB, adjB) => {
    const rt = runtimes[backend];
    const rnd = random(101 + (tA ? 1 : 0) + (adjA ? 2 : 0) + (tB ? 4 : 0) + (adjB ? 8 : 0));
    for (const batch of [0, 2]) {
      const [m, k, n] = [4, 3, 5];
      const ta = tA || adjA;
      const tb = tB || adjB;
      const lead = batch ? [batch] : [];
      const aM = randomCsr(rnd, [...lead, ...(ta ? [k, m] : [m, k])], 0.5);
      const bM = randomCsr(rnd, [...lead, ...(tb ? [n, k] : [k, n])], 0.4);
      const flags = { transpose_a: tA, adjoint_a: adjA, transpose_b: tB, adjoint_b: adjB };
      const args = (a: Csr, b: Csr, dtype: DType) => ({ a: csr(a, dtype), b: csr(b, dtype), ...flags });
      const product = rt.run('sparse_matrix_sparse_mat_mul', args(aM, bM, 'float64')).output as CsrMatrix;
      const cM: Csr = {
        rowPointers: Array.from(product.rowPointers),
        colIndices: Array.from(product.colIndices),
        values: [],
        shape: [...product.denseShape],
      };
      const gV = randomValues(rnd, product.nnz);
      cM.values = gV;

      // TensorFlow's formula: G·op(b)ᵀ pruned to a's positions, op(a)ᵀ·G pruned to b's.
      const [A, Bd, G] = [densify(aM), densify(bM), densify(cM)];
      const opA = A.map((x) => (ta ? t(x) : x));
      const opB = Bd.map((x) => (tb ? t(x) : x));
      const dA = G.map((g, b) => mm(g, t(opB[b])));
      const dB = G.map((g, b) => mm(t(opA[b]), g));
      const wantA = positions(aM).map(([b, r, c]) => (ta ? dA[b][c][r] : dA[b][r][c]));
      const wantB = positions(bM).map(([b, r, c]) => (tb ? dB[b][c][r] : dB[b][r][c]));

      const up = (dtype: DType) => dense(gV, [gV.length], dtype);
      const got = grads(rt, 'sparse_matrix_sparse_mat_mul', args(aM, bM, 'float64'), up('float64'));
      close(got.a!, wantA, 1e-12, 'sparse_matrix_sparse_mat_mul a formula f64');
      close(got.b!, wantB, 1e-12, 'sparse_matrix_sparse_mat_mul b formula f64');
      const op = 'sparse_matrix_sparse_mat_mul';
      const fdA = finiteDifferences(rt, op, args(aM, bM, 'float64'), gV, aM.values, (i, v) =>
        args(withCsrValue(aM, i, v), bM, 'float64'),
      );
      const fdB = finiteDifferences(rt, op, args(aM, bM, 'float64'), gV, bM.values, (i, v) =>
        args(aM, withCsrValue(bM, i, v), 'float64'),
      );
      close(got.a!, fdA, 1e-7, 'sparse_matrix_sparse_mat_mul a finite differences f64');
      close(got.b!, fdB, 1e-7, 'sparse_matrix_sparse_mat_mul b finite differences f64');
      const got32 = grads(rt, op, args(aM, bM, 'float32'), up('float32'));
      close(got32.a!, wantA, 1e-5, 'sparse_matrix_sparse_mat_mul a formula f32');
      close(got32.b!, wantB, 1e-5, 'sparse_matrix_sparse_mat_mul b formula f32');
    }
  });

  it('refuses an upstream that is not one value per entry of the product', () => {
    const rnd = random(7);
    const aM = randomCsr(rnd, [3, 3], 0.7);
    const bM = randomCsr(rnd, [3, 3], 0.7);
    const args = { a: csr(aM, 'float64'), b: csr(bM, 'float64') };
    const nnz = (runtimes[backend].run('sparse_matrix_sparse_mat_mul', args).output as CsrMatrix).nnz;
    for (const n of [nnz - 1, nnz + 1])
      expect(() =>
        runtimes[backend].vjp('sparse_matrix_sparse_mat_mul', args, dense(new Array(n).fill(1), [n], 'float64')),
      ).toThrow(/grad must have one value per stored entry of the output/);
  });
});

describe.each(BACKENDS)('the CSR conversions and transpose on %s', (backend) => {
  it.each([[[4, 5]], [[3, 2, 4]]])('of shape %j', (shape) => {
    const rt = runtimes[backend];
    const rnd = random(shape.length);
    const aM = randomCsr(rnd, shape, 0.4);
    const pos = positions(aM);
    const size = shape.reduce((x, y) => x * y, 1);
    const [rows, cols] = shape.slice(-2);
    const at = ([b, r, c]: [number, number, number]) => (b * rows + r) * cols + c;
    for (const dtype of ['float64', 'float32'] as const) {
      const m = csr(aM, dtype);
      const fd = (op: string, args: Args, upstream: number[], x: number[], change: (k: number, v: number) => Args) =>
        dtype === 'float64' ? finiteDifferences(rt, op, args, upstream, x, change) : undefined;
      const check = (key: string, got: number[], want: number[], fdWant?: number[]) => {
        close(got, want, 0, `${key} formula ${dtype}`);
        if (fdWant) close(got, fdWant, 1e-7, `${key} finite differences f64`);
      };
      const change = (k: number, v: number) => csr(withCsrValue(aM, k, v), dtype);

      // to_dense: grad gathered at the stored positions.
      const gDense = randomValues(rnd, size).map(Math.fround);
      const toDense = grads(rt, 'csr_sparse_matrix_to_dense', { sparse_input: m }, dense(gDense, shape, dtype));
      const fdDense = fd('csr_sparse_matrix_to_dense', { sparse_input: m }, gDense, aM.values, (k, v) => ({
        sparse_input: change(k, v),
      }));
      check(
        'csr_sparse_matrix_to_dense',
        toDense.sparse_input!,
        pos.map((p) => gDense[at(p)]),
        fdDense,
      );

      // to_sparse_tensor and from a SparseTensor: the values' gradient passes through.
      const gValues = randomValues(rnd, pos.length).map(Math.fround);
      const up = dense(gValues, [gValues.length], dtype);
      const toSt = grads(rt, 'csr_sparse_matrix_to_sparse_tensor', { sparse_matrix: m }, up);
      const fdSt = fd('csr_sparse_matrix_to_sparse_tensor', { sparse_matrix: m }, gValues, aM.values, (k, v) => ({
        sparse_matrix: change(k, v),
      }));
      check('csr_sparse_matrix_to_sparse_tensor', toSt.sparse_matrix!, gValues, fdSt);
      const st = m.toSparse();
      const stOf = (k: number, v: number) =>
        new SparseTensor(st.indices, store(dtype, withCsrValue(aM, k, v).values), shape, dtype);
      const fromSt = grads(rt, 'sparse_tensor_to_csr_sparse_matrix', { sp_input: st }, up);
      const fdFromSt = fd('sparse_tensor_to_csr_sparse_matrix', { sp_input: st }, gValues, aM.values, (k, v) => ({
        sp_input: stOf(k, v),
      }));
      check('sparse_tensor_to_csr_sparse_matrix', fromSt.sp_input!, gValues, fdFromSt);

      // transpose: each value gets the gradient of the entry it became (TF: the transpose of the gradient).
      const tr = rt.run('sparse_matrix_transpose', { input: m }).output as CsrMatrix;
      const trM: Csr = {
        rowPointers: Array.from(tr.rowPointers),
        colIndices: Array.from(tr.colIndices),
        values: gValues,
        shape: [...tr.denseShape],
      };
      const Gt = densify(trM);
      const trGrad = grads(rt, 'sparse_matrix_transpose', { input: m }, up);
      const fdTr = fd('sparse_matrix_transpose', { input: m }, gValues, aM.values, (k, v) => ({ input: change(k, v) }));
      check(
        'sparse_matrix_transpose',
        trGrad.input!,
        pos.map(([b, r, c]) => Gt[b][c][r]),
        fdTr,
      );

      // dense_to_csr: grad scattered to the listed positions, 0 elsewhere.
      const dV = randomValues(rnd, size);
      const indices = new Tensor(
        BigInt64Array.from(pos.flatMap(([b, r, c]) => (shape.length === 3 ? [b, r, c] : [r, c]).map(BigInt))),
        [pos.length, shape.length],
        'int64',
      );
      const dArgs = (v: number[]) => ({ dense_input: dense(v, shape, dtype), indices });
      const want = new Array<number>(size).fill(0);
      pos.forEach((p, e) => (want[at(p)] = gValues[e]));
      const fromDense = grads(rt, 'dense_to_csr_sparse_matrix', dArgs(dV), up);
      const fdFromDense = fd('dense_to_csr_sparse_matrix', dArgs(dV), gValues, dV, (k, v) =>
        dArgs(dV.map((x, j) => (j === k ? v : x))),
      );
      check('dense_to_csr_sparse_matrix', fromDense.dense_input!, want, fdFromDense);
      const wrong = new Array(pos.length + 1).fill(1);
      expect(() => rt.vjp('dense_to_csr_sparse_matrix', dArgs(dV), dense(wrong, [wrong.length], dtype))).toThrow(
        /grad must have one value per stored entry of the output/,
      );
    }
  });
});

describe.each(BACKENDS)('safe_embedding_lookup_sparse gradient on %s', (backend) => {
  const cases = [
    ['sum', null, null],
    ['mean', 2, null],
    ['sqrtn', null, 1.5],
    ['mean', null, 2.0],
    ['sum', 0, 1.0],
  ] as const;
  it.each(cases)('%s, default_id %s, max_norm %s', (combiner, defaultId, maxNorm) => {
    const rt = runtimes[backend];
    const rnd = random(combiner.length * 13 + (defaultId ?? 9) + (maxNorm ?? 0) * 100);
    const [vocab, width] = [5, 3];
    const table = randomValues(rnd, vocab * width).map((x) => 2 * x);
    // ids of [2, 3, 4] in any order: some dropped (< 0), some rows left empty; weights away from the 0 boundary.
    const idx: number[][] = [];
    for (let b = 0; b < 2; b++)
      for (let r = 0; r < 3; r++) if (r !== 1) for (let c = 0; c < 4; c++) if (rnd() < 0.5) idx.push([b, r, c]);
    idx.reverse();
    const ids = idx.map(() => Math.floor(rnd() * (vocab + 1)) - 1);
    const weights = idx.map(() => (rnd() < 0.2 ? -0.5 : 0.5 + rnd()));
    const op = 'safe_embedding_lookup_sparse';
    for (const weighted of [false, true]) {
      const args = (tab: number[], w: number[], dtype: DType) => ({
        embedding_weights: dense(tab, [vocab, width], dtype),
        sparse_ids: new SparseTensor(idx, Int32Array.from(ids), [2, 3, 4], 'int32'),
        sparse_weights: weighted ? new SparseTensor(idx, store(dtype, w), [2, 3, 4], dtype) : null,
        combiner,
        default_id: defaultId,
        max_norm: maxNorm,
      });
      const gV = randomValues(rnd, 2 * 3 * width);
      const got = grads(rt, op, args(table, weights, 'float64'), dense(gV, [2, 3, width], 'float64'));
      const fdTable = finiteDifferences(rt, op, args(table, weights, 'float64'), gV, table, (k, v) =>
        args(
          table.map((x, j) => (j === k ? v : x)),
          weights,
          'float64',
        ),
      );
      close(got.embedding_weights!, fdTable, 1e-6, `${op} table finite differences f64`);
      const got32 = grads(rt, op, args(table, weights, 'float32'), dense(gV, [2, 3, width], 'float32'));
      close(got32.embedding_weights!, got.embedding_weights!, 1e-5, `${op} table f32 against f64`);
      if (!weighted) {
        expect(got.sparse_weights).toBeNull();
        continue;
      }
      const fdW = finiteDifferences(rt, op, args(table, weights, 'float64'), gV, weights, (k, v) =>
        args(
          table,
          weights.map((x, j) => (j === k ? v : x)),
          'float64',
        ),
      );
      close(got.sparse_weights!, fdW, 1e-6, `${op} weights finite differences f64`);
      close(got32.sparse_weights!, got.sparse_weights!, 1e-5, `${op} weights f32 against f64`);
      // A dropped weight (an id below 0, or a weight not above 0 outside sum) gets exactly 0.
      ids.forEach((id, i) => {
        if (id < 0 || (combiner !== 'sum' && weights[i] <= 0)) expect(got.sparse_weights![i]).toBe(0);
      });
    }
  });
});
