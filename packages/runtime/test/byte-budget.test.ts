import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  createRuntime,
  getOpInfo,
  listOps,
  ResourceExhaustedError,
  setBackend,
  SparseTensor,
  sparse,
  tensor,
} from '../src/index.js';

/** The error a call throws. */
function errorOf(call: () => unknown): Error {
  try {
    call();
  } catch (e) {
    return e as Error;
  }
  throw new Error('the call was not refused');
}

describe('the byte budget', () => {
  it('defaults to a quarter of the machine in Node', async () => {
    expect((await createRuntime()).maxBytes).toBe(Math.floor(totalmem() / 4));
  });

  // The review's cases: each took gigabytes (or the machine) on js; each is now refused before any allocation.
  for (const backend of ['js', 'wasm']) {
    it(`refuses, on ${backend}, calls whose outputs and working memory pass it, naming op, output and bytes`, async () => {
      const rt = await createRuntime({ backend, maxBytes: 2 ** 30 });
      const wide = new SparseTensor(
        [
          [0, 0],
          [1, 5],
        ],
        [1, 2],
        [2, 1e9],
        'float32',
      );
      const reduce = errorOf(() => rt.sparse.reduceSum(wide, { axis: 0, keepdims: true }));
      expect(reduce).toBeInstanceOf(ResourceExhaustedError);
      // 1e9 float32 outputs and a float64 count per output: 12e9 bytes.
      expect(reduce.message).toBe(
        "sparse_reduce_sum: output (dense shape [1,1000000000]) would take 11.2 GiB, more than this runtime's budget of 1.0 GiB (createRuntime({ maxBytes }) sets it)",
      );
      const tall = new SparseTensor([[0, 0]], [1], [1e9, 2], 'float32');
      // The entries' 18.6 GiB and a bool flag for each of the 10^9 rows.
      expect(errorOf(() => rt.sparse.fillEmptyRows(tall, 0)).message).toMatch(
        /^sparse_fill_empty_rows: output \(at most 1000000001 entries of rank 2\) would take 18\.6 GiB of the 19\.6 GiB this call needs, more than/,
      );
      const long = new SparseTensor([[0]], [1], [2 ** 31 - 1], 'float64');
      expect(errorOf(() => rt.sparse.toDense(long))).toBeInstanceOf(ResourceExhaustedError);
    });
  }

  it('refuses string outputs the JavaScript heap has no room for (running out of it ends the process)', async () => {
    const rt = await createRuntime();
    const st = new SparseTensor([[0], [1]], ['a', 'b'], [3e8], 'string');
    const e = errorOf(() => rt.sparse.toDense(st));
    expect(e).toBeInstanceOf(ResourceExhaustedError);
    expect(e.message).toMatch(
      /^sparse_tensor_to_dense: output \(dense shape \[300000000\]\) would hold 300000000 string values, 4\.5 GiB of a JavaScript heap that has .* left/,
    );
  });

  it('lets through what fits, to the byte', async () => {
    const rt = await createRuntime({ maxBytes: 400 });
    expect(rt.sparse.toDense(new SparseTensor([[0]], [1], [100], 'float32')).shape).toEqual([100]);
    expect(errorOf(() => rt.sparse.toDense(new SparseTensor([[0]], [1], [101], 'float32')))).toBeInstanceOf(
      ResourceExhaustedError,
    );
  });

  it('counts sparse outputs by the bound of their spec', async () => {
    // concat of two tensors of 3 entries each, rank 2, float32: 6 × (2 × 8 + 4) = 120 bytes.
    const a = new SparseTensor(
      [
        [0, 0],
        [0, 1],
        [1, 1],
      ],
      [1, 2, 3],
      [2, 2],
      'float32',
    );
    expect((await createRuntime({ maxBytes: 120 })).sparse.concat(0, [a, a]).values.length).toBe(6);
    const tight = await createRuntime({ maxBytes: 119 });
    expect(errorOf(() => tight.sparse.concat(0, [a, a]))).toBeInstanceOf(ResourceExhaustedError);
  });

  it('counts outputs sized by plain arguments: num_segments rows, the diagonal of an eye', async () => {
    const rt = await createRuntime({ maxBytes: 4000 });
    const segments = (numSegments: number) =>
      rt.sparse.segmentMean(tensor([[1, 2]], 'float64'), [0], [0], { numSegments });
    // 250 rows of 2 float64: 4000 bytes.
    expect(segments(250).shape).toEqual([250, 2]);
    expect(errorOf(() => segments(251)).message).toMatch(
      /^sparse_segment_mean: output \(dense shape \[251,2\]\) would take 3\.9 KiB, more than/,
    );
    // min(num_rows, num_columns) entries of rank 2, float32: 20 bytes each, the other dim as large as it likes.
    expect(rt.sparse.eye(200, { numColumns: 2 ** 53 - 1 }).values.length).toBe(200);
    expect(errorOf(() => rt.sparse.eye(201, { dtype: 'float32' }))).toBeInstanceOf(ResourceExhaustedError);
    expect(rt.sparse.eye(2 ** 40, { numColumns: 3, dtype: 'int64' }).shape).toEqual([2 ** 40, 3]);
  });

  it('counts an embedding lookup by the row of its last id, and a fill of empty rows by its indicator', async () => {
    const rt = await createRuntime({ maxBytes: 4000 });
    const table = tensor(new Float32Array(10 * 100), 'float32', [10, 100]);
    const lookup = (lastRow: number) =>
      rt.sparse.embeddingLookupSparse(table, new SparseTensor([[lastRow, 0]], [3], [2 ** 40, 1], 'int32'), null);
    // 10 rows of 100 float32: 4000 bytes; the dense shape's 2^40 rows are not the output's.
    expect(lookup(9).shape).toEqual([10, 100]);
    expect(errorOf(() => lookup(10)).message).toMatch(
      /^embedding_lookup_sparse: output \(dense shape \[11,100\]\) would take 4\.3 KiB, more than/,
    );
    expect(errorOf(() => lookup(2 ** 39)).message).toMatch(
      /^embedding_lookup_sparse: output of dense shape \[549755813889,100\] would hold 5\.498e\+13 elements, more than/,
    );
    // 100 rows, one entry: at most 101 entries of rank 2 float32 (20 bytes each), and a bool flag per row.
    const rows = new SparseTensor([[0, 0]], [1], [100, 2], 'float32');
    const fill = async (maxBytes: number) => (await createRuntime({ maxBytes })).sparse.fillEmptyRows(rows, 0);
    expect((await fill(2120)).emptyRowIndicator.shape).toEqual([100]);
    await expect(fill(2119)).rejects.toThrow(/^sparse_fill_empty_rows: output .* of the 2\.1 KiB this call needs/);
  });

  it("counts the entries of a feature cross exactly: over the rows, the product of the inputs' entries", async () => {
    // Row 0: 2 sparse entries × 2 dense; row 1: 1 × 2; row 2: none sparse. 6 int64 crosses × (2 × 8 + 8) = 144 bytes.
    const a = new SparseTensor(
      [
        [0, 0],
        [0, 1],
        [1, 0],
      ],
      ['p', 'q', 'r'],
      [3, 2],
      'string',
    );
    const b = [
      ['x', 'y'],
      ['z', 'w'],
      ['u', 'v'],
    ];
    expect((await createRuntime({ maxBytes: 144 })).sparse.crossHashed([a, b]).values.length).toBe(6);
    const tight = await createRuntime({ maxBytes: 143 });
    expect(errorOf(() => tight.sparse.crossHashed([a, b])).message).toMatch(
      /^sparse_cross_hashed: output \(at most 6 entries of rank 2\) would take 144 bytes, more than/,
    );
  });

  it('refuses a feature cross whose product explodes before building any of it', async () => {
    const rt = await createRuntime();
    const wide = Array.from({ length: 8 }, () => [Array.from({ length: 100 }, (_, i) => i)]);
    const hashed = errorOf(() => rt.sparse.crossHashed(wide, { numBuckets: 10 }));
    expect(hashed.message).toMatch(
      /^sparse_cross_hashed: output \(at most 10000000000000000 entries of rank 2\) would take/,
    );
    // The strings of a cross: here 10^16 of them, refused for the JavaScript heap first.
    expect(errorOf(() => rt.sparse.cross(wide))).toBeInstanceOf(ResourceExhaustedError);
    // Few crosses of long features: 20 × 20 × 20 crosses of 3 × 10^6 characters, from 60 references to one string.
    const long = 'x'.repeat(1e6);
    const column = () => [Array.from({ length: 20 }, () => long)];
    const strings = errorOf(() => rt.sparse.cross([column(), column(), column()]));
    expect(strings).toBeInstanceOf(ResourceExhaustedError);
    expect(strings.message).toMatch(/^sparse_cross: output would hold 8000 new strings of 24000048000 characters/);
    // One cross longer than a JavaScript string can be.
    const huge = 'y'.repeat(2 ** 26);
    const one = errorOf(() =>
      rt.sparse.cross(
        Array.from({ length: 9 }, () => [[huge]]),
        { separator: '' },
      ),
    );
    expect(one.message).toBe(
      'sparse_cross: output would hold a string of 603979776 characters, longer than a JavaScript string can be (536870888)',
    );
  });

  it('is an option of createRuntime and setBackend, checked', async () => {
    await expect(createRuntime({ maxBytes: -1 })).rejects.toThrow(/maxBytes must be a number of bytes > 0, got -1/);
    await expect(createRuntime({ maxBytes: '1GB' as never })).rejects.toThrow(TypeError);
    await setBackend('js', { maxBytes: 1000 });
    expect(errorOf(() => sparse.toDense(new SparseTensor([[0]], [1], [1000], 'float32')))).toBeInstanceOf(
      ResourceExhaustedError,
    );
    await setBackend('js');
  });

  it('every dense output of every op has a shape the runtime computes before the kernel runs', () => {
    for (const op of listOps())
      for (const o of getOpInfo(op)!.outputs)
        if (o.type === 'dense') expect('computed' in o.shape, `${op}: ${o.name}`).toBe(false);
  });

  it('every sparse output of every op has a bound on its entries, so none escapes the budget', () => {
    for (const op of listOps())
      for (const o of getOpInfo(op)!.outputs)
        if (o.type !== 'dense') expect(o.entries?.length, `${op}: ${o.name}`).toBeGreaterThan(0);
  });
});
