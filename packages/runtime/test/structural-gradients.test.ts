import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SparseTensor, Tensor, createRuntime, type DType, type Runtime } from '@sparse/runtime';

// The gradients of the structural ops TensorFlow differentiates (sparse_grad.py's SparseToDense, SparseReorder,
// SparseSlice, SparseFillEmptyRows, and the Python ops built on them or on gather/identity: tf.sparse.to_dense,
// transpose, retain, reshape, expand_dims, reset_shape), through rt.vjp on seeded random inputs, against two
// independent oracles: central finite differences of the forward op in float64, and TensorFlow's formula written
// out here (gather_nd, the inverse permutation of a stable sort, box membership, ...). float32 gathers are exact.

type Args = Record<string, unknown>;
type Entry = { index: number[]; value: number };

/** mulberry32: a small seeded generator, so that a failure is reproducible. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n) };
}
type Rnd = ReturnType<typeof random>;

const worst: Record<string, number> = {};

function close(got: ArrayLike<number>, want: ArrayLike<number>, tol: number, key: string): void {
  expect(got.length, key).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    const err = Math.abs(got[i] - want[i]) / Math.max(1, Math.abs(want[i]));
    worst[key] = Math.max(worst[key] ?? 0, err);
    if (!(err <= tol)) expect.fail(`${key}: [${i}] = ${got[i]}, want ${want[i]} (error ${err})`);
  }
}

const store = (dtype: DType, v: ArrayLike<number>) =>
  dtype === 'float32' ? Float32Array.from(v) : Float64Array.from(v);
/** Values exact in float32, so that float32 and float64 gathers agree exactly. */
const value = (rnd: Rnd) => (rnd.int(2001) - 1000) / 8;
const sparse = (entries: Entry[], shape: number[], dtype: DType, values = entries.map((e) => e.value)) =>
  new SparseTensor(
    entries.map((e) => e.index),
    store(dtype, values),
    shape,
    dtype,
  );
const compare = (a: number[], b: number[]) => {
  for (let d = 0; d < a.length; d++) if (a[d] !== b[d]) return a[d] - b[d];
  return 0;
};
const flat = (index: number[], shape: number[]) => index.reduce((o, x, d) => o * shape[d] + x, 0);

/** `nnz` entries at random positions of `shape`: distinct and in canonical order, or shuffled (with repeats). */
function randomEntries(rnd: Rnd, shape: number[], nnz: number, o: { shuffled?: boolean; repeats?: boolean } = {}) {
  const size = shape.reduce((a, b) => a * b, 1);
  const at = new Set<number>();
  const picks: number[] = [];
  while (picks.length < Math.min(nnz, size)) {
    const p = rnd.int(size);
    if (o.repeats && picks.length > 0 && rnd.next() < 0.3) picks.push(picks[rnd.int(picks.length)]);
    else if (!at.has(p)) {
      at.add(p);
      picks.push(p);
    }
  }
  if (!o.shuffled) picks.sort((a, b) => a - b);
  else
    for (let i = picks.length - 1; i > 0; i--) {
      const j = rnd.int(i + 1);
      [picks[i], picks[j]] = [picks[j], picks[i]];
    }
  return picks.map((p) => {
    const index = shape.map(() => 0);
    for (let d = shape.length - 1, q = p; d >= 0; q = Math.floor(q / shape[d]), d--) index[d] = q % shape[d];
    return { index, value: value(rnd) };
  });
}
const randomShape = (rnd: Rnd, rank: number) => Array.from({ length: rank }, () => 1 + rnd.int(4));

/**
 * One gradient to check: the forward call with the differentiable values `values` (whose gradient `arg` gives), and
 * TensorFlow's formula for that gradient given the upstream gradient `w` of the forward output.
 */
interface Case {
  op: string;
  arg: string;
  values: number[];
  call(values: number[], dtype: DType): Args;
  formula(w: number[]): number[];
}

/** The forward output's values (stored values of a sparse one) and its shape, as the upstream gradient has it. */
function forward(rt: Runtime, c: Case, values: number[], dtype: DType): { data: number[]; shape: number[] } {
  const out = rt.run(c.op, c.call(values, dtype)).output as SparseTensor | Tensor;
  if (out instanceof SparseTensor) return { data: Array.from(out.values as Float64Array), shape: [out.nnz] };
  return { data: Array.from(out.dataSync() as Float64Array), shape: [...out.shape] };
}

function checkCase(rt: Runtime, rnd: Rnd, c: Case): void {
  const { data, shape } = forward(rt, c, c.values, 'float64');
  const w = data.map(() => value(rnd));
  const loss = (v: number[]) => forward(rt, c, v, 'float64').data.reduce((s, x, k) => s + x * w[k], 0);
  // The ops are linear in the values, so a step of 1 loses nothing to curvature.
  const fd = c.values.map((_, i) => {
    const up = [...c.values];
    const down = [...c.values];
    up[i] += 1;
    down[i] -= 1;
    return (loss(up) - loss(down)) / 2;
  });
  const formula = c.formula(w);
  for (const dtype of ['float64', 'float32'] as const) {
    const g = rt.vjp(c.op, c.call(c.values, dtype), new Tensor(store(dtype, w), shape, dtype))[c.arg]!;
    expect(g.dtype).toBe(dtype);
    const got = Array.from(g.dataSync() as Float64Array);
    close(got, formula, 0, `${c.op} ${dtype} vs formula`);
    if (dtype === 'float64') close(got, fd, 1e-12, `${c.op} vs finite differences`);
  }
}

/** The inverse of a stable lexicographic sort of the index tuples: where each entry ends up. */
function sortedPlace(tuples: number[][]): number[] {
  const order = tuples.map((_, i) => i).sort((a, b) => compare(tuples[a], tuples[b]));
  const place: number[] = [];
  order.forEach((i, k) => (place[i] = k));
  return place;
}

/** gather_nd of `w` (of `shape`) at each index, 0 for an entry a later repeat of its index overwrote. */
function gatherLast(indices: number[][], w: number[], shape: number[]): number[] {
  return indices.map((idx, i) =>
    indices.slice(i + 1).some((later) => compare(later, idx) === 0) ? 0 : w[flat(idx, shape)],
  );
}

const CASES: Record<string, (rnd: Rnd) => Case> = {
  sparse_tensor_to_dense(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const repeats = rnd.next() < 0.5;
    const entries = randomEntries(rnd, shape, 1 + rnd.int(6), { shuffled: repeats, repeats });
    const indices = entries.map((e) => e.index);
    return {
      op: 'sparse_tensor_to_dense',
      arg: 'sp_input',
      values: entries.map((e) => e.value),
      call: (v, dtype) => ({ sp_input: sparse(entries, shape, dtype, v), validate_indices: !repeats }),
      formula: (w) => gatherLast(indices, w, shape),
    };
  },
  sparse_to_dense(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const entries = randomEntries(rnd, shape, 1 + rnd.int(6));
    const indices = entries.map((e) => e.index);
    const scalar = rnd.next() < 0.3;
    const values = scalar ? [value(rnd)] : entries.map((e) => e.value);
    return {
      op: 'sparse_to_dense',
      arg: 'sparse_values',
      values,
      call: (v, dtype) => ({
        sparse_indices: new Tensor(Int32Array.from(indices.flat()), [indices.length, shape.length], 'int32'),
        output_shape: shape,
        sparse_values: new Tensor(store(dtype, v), scalar ? [] : [v.length], dtype),
        default_value: 0.5,
      }),
      // A scalar value went to every index: its gradient sums grad over them.
      formula: (w) => {
        const g = indices.map((idx) => w[flat(idx, shape)]);
        return scalar ? [g.reduce((a, b) => a + b, 0)] : g;
      },
    };
  },
  // TensorFlow's gradient of default_value: the sum of grad over the positions no entry wrote (a repeat counts once).
  'sparse_tensor_to_dense default_value'(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const repeats = rnd.next() < 0.5;
    const entries = randomEntries(rnd, shape, rnd.int(6), { shuffled: repeats, repeats });
    const written = new Set(entries.map((e) => flat(e.index, shape)));
    return {
      op: 'sparse_tensor_to_dense',
      arg: 'default_value',
      values: [value(rnd)],
      call: (v, dtype) => ({
        sp_input: sparse(entries, shape, dtype),
        default_value: new Tensor(store(dtype, v), [], dtype),
        validate_indices: !repeats,
      }),
      formula: (w) => [w.reduce((s, x, k) => (written.has(k) ? s : s + x), 0)],
    };
  },
  'sparse_to_dense default_value'(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const entries = randomEntries(rnd, shape, 1 + rnd.int(6));
    const indices = entries.map((e) => e.index);
    const written = new Set(indices.map((idx) => flat(idx, shape)));
    return {
      op: 'sparse_to_dense',
      arg: 'default_value',
      values: [value(rnd)],
      call: (v, dtype) => ({
        sparse_indices: new Tensor(Int32Array.from(indices.flat()), [indices.length, shape.length], 'int32'),
        output_shape: shape,
        sparse_values: new Tensor(
          store(
            dtype,
            entries.map((e) => e.value),
          ),
          [entries.length],
          dtype,
        ),
        default_value: new Tensor(store(dtype, v), [], dtype),
      }),
      formula: (w) => [w.reduce((s, x, k) => (written.has(k) ? s : s + x), 0)],
    };
  },
  sparse_reorder(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const entries = randomEntries(rnd, shape, 1 + rnd.int(8), { shuffled: true, repeats: true });
    const place = sortedPlace(entries.map((e) => e.index));
    return {
      op: 'sparse_reorder',
      arg: 'sp_input',
      values: entries.map((e) => e.value),
      call: (v, dtype) => ({ sp_input: sparse(entries, shape, dtype, v) }),
      formula: (w) => place.map((k) => w[k]),
    };
  },
  sparse_transpose(rnd) {
    const rank = 1 + rnd.int(3);
    const shape = randomShape(rnd, rank);
    const entries = randomEntries(rnd, shape, 1 + rnd.int(8), { shuffled: rnd.next() < 0.5 });
    const perm = rnd.next() < 0.3 ? null : sortedPlace(shape.map(() => [rnd.next()]));
    const p = perm ?? shape.map((_, d) => rank - 1 - d);
    const place = sortedPlace(entries.map((e) => p.map((d) => e.index[d])));
    return {
      op: 'sparse_transpose',
      arg: 'sp_input',
      values: entries.map((e) => e.value),
      call: (v, dtype) => ({ sp_input: sparse(entries, shape, dtype, v), perm }),
      formula: (w) => place.map((k) => w[k]),
    };
  },
  sparse_slice(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const entries = randomEntries(rnd, shape, 1 + rnd.int(8), { shuffled: rnd.next() < 0.5 });
    const start = shape.map((d) => rnd.int(d + 1));
    const size = shape.map((d) => rnd.int(d + 2));
    const inside = entries.map((e) => e.index.every((x, d) => x >= start[d] && x < start[d] + size[d]));
    return {
      op: 'sparse_slice',
      arg: 'sp_input',
      values: entries.map((e) => e.value),
      call: (v, dtype) => ({ sp_input: sparse(entries, shape, dtype, v), start, size }),
      formula: (w) => {
        let k = 0;
        return inside.map((yes) => (yes ? w[k++] : 0));
      },
    };
  },
  sparse_fill_empty_rows(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    shape[0] += 2;
    const entries = randomEntries(rnd, shape, rnd.int(6), { shuffled: true });
    // TensorFlow's reverse_index_map: the output holds each row's entries in input order, or one filled entry.
    const where: number[] = [];
    for (let r = 0, k = 0; r < shape[0]; r++) {
      const inRow = entries.flatMap((e, i) => (e.index[0] === r ? [i] : []));
      for (const i of inRow) where[i] = k++;
      if (inRow.length === 0) k++;
    }
    return {
      op: 'sparse_fill_empty_rows',
      arg: 'sp_input',
      values: entries.map((e) => e.value),
      call: (v, dtype) => ({ sp_input: sparse(entries, shape, dtype, v), default_value: -1 }),
      formula: (w) => where.map((k) => w[k]),
    };
  },
  // TensorFlow's d_default_value: the sum of the gradients of the entries filled in, one per empty row.
  'sparse_fill_empty_rows default_value'(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    shape[0] += 2;
    const entries = randomEntries(rnd, shape, rnd.int(6), { shuffled: true });
    const filled: number[] = [];
    for (let r = 0, k = 0; r < shape[0]; r++) {
      const inRow = entries.filter((e) => e.index[0] === r).length;
      if (inRow === 0) filled.push(k);
      k += Math.max(inRow, 1);
    }
    return {
      op: 'sparse_fill_empty_rows',
      arg: 'default_value',
      values: [value(rnd)],
      call: (v, dtype) => ({
        sp_input: sparse(entries, shape, dtype),
        default_value: new Tensor(store(dtype, v), [], dtype),
      }),
      formula: (w) => [filled.reduce((s, k) => s + w[k], 0)],
    };
  },
  sparse_retain(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const entries = randomEntries(rnd, shape, 1 + rnd.int(8));
    const keep = entries.map(() => rnd.next() < 0.6);
    return {
      op: 'sparse_retain',
      arg: 'sp_input',
      values: entries.map((e) => e.value),
      call: (v, dtype) => ({ sp_input: sparse(entries, shape, dtype, v), to_retain: keep }),
      formula: (w) => {
        let k = 0;
        return keep.map((yes) => (yes ? w[k++] : 0));
      },
    };
  },
  sparse_merge(rnd) {
    // Ids of rank 2 (a batch of rows of ids), one SparseTensor or a list of two; entries may share an index.
    const shape = [1 + rnd.int(3), 1 + rnd.int(4)];
    const positions = randomEntries(rnd, shape, 1 + rnd.int(8));
    const vocab = rnd.next() < 0.5 ? 3 : [2, 3];
    const sizes = Array.isArray(vocab) ? vocab : [vocab];
    const idLists = sizes.map((v) => positions.map(() => rnd.int(v)));
    const alreadySorted = rnd.next() < 0.2;
    const place = alreadySorted
      ? positions.map((_, i) => i)
      : sortedPlace(positions.map((e, i) => [e.index[0], ...idLists.map((ids) => ids[i])]));
    const idTensors = idLists.map(
      (ids) =>
        new SparseTensor(
          positions.map((e) => e.index),
          Int32Array.from(ids),
          shape,
          'int32',
        ),
    );
    return {
      op: 'sparse_merge',
      arg: 'sp_values',
      values: positions.map((e) => e.value),
      call: (v, dtype) => ({
        sp_ids: Array.isArray(vocab) ? idTensors : idTensors[0],
        sp_values: sparse(positions, shape, dtype, v),
        vocab_size: vocab,
        already_sorted: alreadySorted,
      }),
      formula: (w) => place.map((k) => w[k]),
    };
  },
  sparse_reshape(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const entries = randomEntries(rnd, shape, 1 + rnd.int(6));
    const size = shape.reduce((a, b) => a * b, 1);
    return {
      op: 'sparse_reshape',
      arg: 'sp_input',
      values: entries.map((e) => e.value),
      call: (v, dtype) => ({ sp_input: sparse(entries, shape, dtype, v), shape: [1, size, -1] }),
      formula: (w) => w,
    };
  },
  sparse_expand_dims(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const entries = randomEntries(rnd, shape, 1 + rnd.int(6));
    const axis = rnd.int(2 * shape.length + 2) - shape.length - 1;
    return {
      op: 'sparse_expand_dims',
      arg: 'sp_input',
      values: entries.map((e) => e.value),
      call: (v, dtype) => ({ sp_input: sparse(entries, shape, dtype, v), axis }),
      formula: (w) => w,
    };
  },
  sparse_reset_shape(rnd) {
    const shape = randomShape(rnd, 1 + rnd.int(3));
    const entries = randomEntries(rnd, shape, 1 + rnd.int(6));
    const bigger = rnd.next() < 0.5 ? shape.map((d) => d + rnd.int(3)) : null;
    return {
      op: 'sparse_reset_shape',
      arg: 'sp_input',
      values: entries.map((e) => e.value),
      call: (v, dtype) => ({ sp_input: sparse(entries, shape, dtype, v), new_shape: bigger }),
      formula: (w) => w,
    };
  },
};

const RUNS = 25;

for (const backend of ['js', 'wasm']) {
  describe(`structural gradients on ${backend}`, () => {
    let rt: Runtime;
    beforeAll(async () => {
      rt = await createRuntime({ backend });
    });

    for (const [op, make] of Object.entries(CASES)) {
      it(`${op}: rt.vjp agrees with finite differences and TensorFlow's formula`, () => {
        const rnd = random(op.length * 7919 + backend.length);
        for (let run = 0; run < RUNS; run++) checkCase(rt, rnd, make(rnd));
      });
    }

    it('a repeated index: only the last entry reaches the dense result, and only it gets the gradient', () => {
      const sp = new SparseTensor([[1], [0], [1]], [1, 2, 3], [3], 'float64');
      const g = rt.vjp('sparse_tensor_to_dense', { sp_input: sp, validate_indices: false }, [10, 20, 30]);
      expect(g.sp_input!.toArray()).toEqual([0, 10, 20]);
      expect(g.validate_indices).toBeNull();
      // default_value: the one position nothing wrote.
      expect(g.default_value!.shape).toEqual([]);
      expect(g.default_value!.toArray()).toEqual(30);
    });

    it('default_value given as a plain number: its gradient is a rank-0 Tensor of the values dtype', () => {
      const sp = new SparseTensor(
        [
          [0, 1],
          [1, 0],
        ],
        [5, 7],
        [2, 2],
        'float32',
      );
      const g = rt.vjp(
        'sparse_tensor_to_dense',
        { sp_input: sp, default_value: 2 },
        new Tensor(Float32Array.of(1, 2, 3, 4), [2, 2], 'float32'),
      );
      expect(g.default_value!.dtype).toBe('float32');
      expect(g.default_value!.shape).toEqual([]);
      expect(g.default_value!.toArray()).toEqual(5);
      const f = rt.vjp('sparse_fill_empty_rows', { sp_input: sp, default_value: -1 }, [1, 2]);
      expect(f.default_value!.toArray()).toEqual(0);
      const i = new SparseTensor([[0]], [1], [2], 'int32');
      expect(() => rt.vjp('sparse_tensor_to_dense', { sp_input: i, default_value: 3 }, [1, 2])).toThrow(/int32/);
    });

    it('checks the arguments as the forward op does', () => {
      const sp = new SparseTensor([[0], [3]], [1, 2], [4], 'float32');
      expect(() => rt.vjp('sparse_slice', { sp_input: sp, start: [0], size: [2] }, [1, 2])).toThrow(
        /sparse_slice_grad.*grad has 2 values for 1 output entries/,
      );
      expect(() => rt.vjp('sparse_reshape', { sp_input: sp, shape: [3] }, [1, 2])).toThrow(/requested shape \[3\]/);
      expect(() => rt.vjp('sparse_transpose', { sp_input: sp, perm: [1] }, [1, 2])).toThrow(/perm\[0\] = 1/);
    });
  });
}

afterAll(() => {
  console.log(
    'structural gradients, worst relative error:\n' +
      Object.entries(worst)
        .map(([k, v]) => `  ${k}: ${v.toExponential(2)}`)
        .join('\n'),
  );
});
