import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, registerBackend, Runtime, SparseTensor, Tensor } from '@sparse/runtime';
import { createWebGpuBackend, type WebGpuBackend } from '@sparse/kernels-webgpu';
import { rng } from '@sparse/test-kit/seeded-random';

// Results that stay on the GPU: on the webgpu backend the family ops called at once (rt.run, the typed API) record
// their work and leave their results on the device, read by `await t.data()`. Every backend reads and disposes the
// same way.

let gpu: WebGpuBackend;
let webgpu: Runtime;
let js: Runtime;

beforeAll(async () => {
  process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';
  gpu = await createWebGpuBackend();
  registerBackend('webgpu-counted', () => gpu);
  webgpu = await createRuntime({ backend: 'webgpu-counted' });
  js = await createRuntime({ backend: 'js' });
}, 60_000);
afterAll(() => gpu?.destroy());

/**
 * `f` on a webgpu backend of its own, for a test that counts the bytes the GPU holds: no result of another test, let
 * go by the collector meanwhile, changes its counts.
 */
async function counted(f: (gpu: WebGpuBackend) => Promise<void> | void): Promise<void> {
  const own = await createWebGpuBackend();
  try {
    await f(own);
  } finally {
    own.destroy();
  }
}

const ROWS = 64;
const COLS = 32;

/** A float32 sparse matrix with about half its entries stored, values in [0.5, 2). */
function operands(seed: number) {
  const r = rng(seed);
  const indices: number[][] = [];
  const values: number[] = [];
  for (let i = 0; i < ROWS; i++)
    for (let j = 0; j < COLS; j++)
      if (r.next() < 0.5) {
        indices.push([i, j]);
        values.push(0.5 + r.next() * 1.5);
      }
  const x = new SparseTensor(indices, Float32Array.from(values), [ROWS, COLS]);
  const dense = () =>
    new Tensor(
      Float32Array.from({ length: ROWS * COLS }, () => 0.5 + r.next()),
      [ROWS, COLS],
      'float32',
    );
  return { x, d1: dense(), d2: dense() };
}

/** Ten element-wise and reduction ops, each on the last one's result. */
function chain(rt: Runtime, { x, d1, d2 }: ReturnType<typeof operands>): Tensor {
  const s = rt.sparse;
  let y = s.neg(x);
  y = s.abs(y);
  y = s.square(y);
  y = s.denseCwiseMul(y, d1);
  y = s.denseCwiseAdd(y, d2);
  y = s.neg(y);
  y = s.abs(y);
  y = s.floor(y);
  y = s.denseCwiseMul(y, d1);
  return s.reduceSum(y, { axis: [1] }) as Tensor;
}

const bits = (v: ArrayLike<number>) => Array.from(new Uint32Array(Float32Array.from(v).buffer));

describe('the webgpu backend leaves results on the GPU', () => {
  it('a chain of ten ops reads nothing back until data(), then submits once and reads once', async () => {
    const ops = operands(1);
    const submitted = gpu.submissions();
    const read = gpu.readbacks();
    const y = chain(webgpu, ops);
    expect(y.isOnDevice).toBe(true);
    expect(y.shape).toEqual([ROWS]);
    expect(gpu.readbacks() - read).toBe(0);
    expect(gpu.submissions() - submitted).toBe(0);
    const data = await y.data();
    expect(gpu.submissions() - submitted).toBe(1);
    expect(gpu.readbacks() - read).toBe(1);
    expect(y.isOnDevice).toBe(false);
    expect(bits(data as Float32Array)).toEqual(bits(chain(js, ops).dataSync() as Float32Array));
  });

  it('SpMM takes a result on the GPU and leaves its product there, for the next op', async () => {
    const { x, d1 } = operands(8);
    const b = new Tensor(
      Float32Array.from({ length: COLS * 5 }, (_, i) => 0.25 + (i % 7) / 8),
      [COLS, 5],
      'float32',
    );
    const chained = (rt: Runtime) => {
      const p = rt.sparse.tensorDenseMatmul(rt.sparse.square(x), b);
      const q = rt.sparse.tensorDenseMatmul(rt.sparse.neg(x), d1, { adjointA: true }); // [COLS, COLS]
      return { p, r: rt.sparse.denseCwiseMul(x, rt.sparse.tensorDenseMatmul(x, q)) };
    };
    const read = gpu.readbacks();
    const got = chained(webgpu);
    expect([got.p.isOnDevice, got.r.isOnDevice]).toEqual([true, true]);
    expect(gpu.readbacks() - read).toBe(0);
    const want = chained(js);
    expect(bits((await got.p.data()) as Float32Array)).toEqual(bits(want.p.dataSync() as Float32Array));
    expect(bits((await got.r.data()) as Float32Array)).toEqual(bits(want.r.values as Float32Array));
  });

  it("SpMM's gradient (rt.vjp) takes a product on the GPU as upstream and leaves both gradients there", async () => {
    const { x } = operands(10);
    const b = new Tensor(
      Float32Array.from({ length: COLS * 4 }, (_, i) => 0.5 + (i % 5) / 4),
      [COLS, 4],
      'float32',
    );
    const step = (rt: Runtime) => {
      const upstream = rt.sparse.tensorDenseMatmul(x, b);
      return rt.vjp('sparse_tensor_dense_matmul', { sp_a: rt.sparse.square(x), b }, upstream);
    };
    const read = gpu.readbacks();
    const got = step(webgpu);
    const [ga, gb] = [got.sp_a as Tensor, got.b as Tensor];
    expect([ga.isOnDevice, gb.isOnDevice]).toEqual([true, true]);
    expect(gpu.readbacks() - read).toBe(0);
    const want = step(js);
    expect(bits((await ga.data()) as Float32Array)).toEqual(bits((want.sp_a as Tensor).dataSync() as Float32Array));
    expect(bits((await gb.data()) as Float32Array)).toEqual(bits((want.b as Tensor).dataSync() as Float32Array));
  });

  it("a result shares its input's indices: disposing it leaves the input's as they were", async () => {
    const n = 20_000;
    const x = new SparseTensor(
      Array.from({ length: n }, (_, i) => [i, (7 * i) % 5]),
      Float32Array.from({ length: n }, (_, i) => 1 + (i % 3)),
      [n, 5],
    );
    const before = x.indexData.slice();
    const y = webgpu.sparse.neg(x);
    y.dispose();
    // Results made since may take the pooled buffers of what was disposed: not x's indices.
    const z = webgpu.sparse.tensorToDense(js.sparse.neg(x));
    expect(Array.from(x.indexData)).toEqual(Array.from(before));
    expect(Array.from((await webgpu.sparse.abs(x).data()) as Float32Array)).toEqual(Array.from(x.values));
    z.dispose();
  });

  it('what the GPU keeps for a tensor stays while another tensor shares its indices', async () => {
    const n = 20_000;
    const x = new SparseTensor(
      Array.from({ length: n }, (_, i) => [i % 100, Math.floor(i / 100)]),
      Float32Array.from({ length: n }, (_, i) => 1 + (i % 3)),
      [100, 200],
    );
    webgpu.prepare(x);
    const sum = () => webgpu.sparse.reduceSum(x, { axis: [1] }) as Tensor;
    const first = sum();
    const y = webgpu.sparse.neg(x); // shares x's indices
    y.dispose();
    const uploaded = gpu.uploadedBytes();
    const again = sum();
    // x's groups and layout were kept: only the call's parameters went up.
    expect(gpu.uploadedBytes() - uploaded).toBeLessThan(64);
    expect(Array.from((await again.data()) as Float32Array)).toEqual(Array.from((await first.data()) as Float32Array));
    x.dispose();
  });

  it('rt.prepare uploads a tensor once: later calls bind its values where they are', () =>
    counted(async (gpu) => {
      const webgpu = new Runtime(gpu);
      const { x, d1 } = operands(9);
      webgpu.prepare(x, d1);
      const kept = webgpu.memory().residentBytes;
      const uploaded = gpu.uploadedBytes();
      const negated = webgpu.sparse.neg(x);
      const y = webgpu.sparse.denseCwiseMul(negated, d1);
      // What the two calls uploaded is their parameters and the broadcast offsets: neither x's values nor d1.
      expect(gpu.uploadedBytes() - uploaded).toBeLessThan(4 * x.nnz + 64);
      expect(bits((await y.data()) as Float32Array)).toEqual(
        bits(js.sparse.denseCwiseMul(js.sparse.neg(x), d1).values as Float32Array),
      );
      negated.dispose();
      expect(webgpu.memory().residentBytes).toBe(kept);
      x.dispose();
      d1.dispose();
      expect(webgpu.memory().residentBytes).toBe(kept - 4 * (operands(9).x.nnz + ROWS * COLS));
    }));

  it('a later call of the same ops compiles no pipeline', async () => {
    await chain(webgpu, operands(2)).data();
    const compiled = gpu.pipelinesCompiled();
    await chain(webgpu, operands(3)).data();
    expect(gpu.pipelinesCompiled()).toBe(compiled);
  });

  it('a sparse result on the GPU reads back by data() and array(); its sync accessors say to await', async () => {
    const { x } = operands(4);
    const y = webgpu.sparse.square(x);
    expect(y.isOnDevice).toBe(true);
    expect(y.nnz).toBe(x.nnz);
    expect(() => y.values).toThrow(/values live on the webgpu device .*await st\.data\(\)/);
    expect(String(y)).toMatch(/values on the webgpu device, nnz=\d+/);
    const want = js.sparse.square(x);
    expect(bits((await y.data()) as Float32Array)).toEqual(bits(want.values as Float32Array));
    expect(await y.array()).toEqual(want.toJSON());
    expect(bits(y.values as Float32Array)).toEqual(bits(want.values as Float32Array));
  });

  it('a value the GPU cannot promise (an inf) makes the chain again on the JS kernels when read', async () => {
    const x = new SparseTensor(
      [
        [0, 0],
        [1, 1],
      ],
      Float32Array.of(3e38, 2),
      [2, 2],
    );
    const big = webgpu.sparse.square(x); // 9e76: inf in float32
    const y = webgpu.sparse.neg(big);
    expect(y.isOnDevice).toBe(true);
    expect(Array.from((await y.data()) as Float32Array)).toEqual(
      Array.from(js.sparse.neg(js.sparse.square(x)).values as Float32Array),
    );
  });

  it('an op with no kernel that takes GPU values says to read them, or runs through sparseAsync', async () => {
    const { x } = operands(5);
    const y = webgpu.sparse.neg(x);
    expect(() => webgpu.sparse.add(y, y)).toThrow(/a holds values that live on the webgpu device.*rt\.runAsync/);
    const r = (await webgpu.sparseAsync.add(y, y)) as SparseTensor;
    const n = js.sparse.neg(x);
    expect(bits(r.values as Float32Array)).toEqual(bits((js.sparse.add(n, n) as SparseTensor).values as Float32Array));
  });

  it('a GPU result given to another backend says to read it first', async () => {
    const y = webgpu.sparse.neg(operands(6).x);
    expect(() => js.sparse.abs(y)).toThrow(
      /live on the webgpu device, not on this runtime's js backend: read them first/,
    );
    await y.data();
    expect(js.sparse.abs(y).nnz).toBe(y.nnz);
  });

  it('dispose() gives a result on the GPU back at once; memory() counts it until then', () =>
    counted((gpu) => {
      const webgpu = new Runtime(gpu);
      const before = webgpu.memory().residentBytes;
      const y = webgpu.sparse.neg(operands(7).x);
      expect(webgpu.memory().residentBytes - before).toBe(4 * y.nnz);
      y.dispose();
      expect(webgpu.memory().residentBytes).toBe(before);
      expect(y.isDisposed).toBe(true);
      expect(() => y.values).toThrow(/disposed/);
    }));
});

describe('the ops that only move values take them where they are on the GPU', () => {
  /** x's entries in a shuffled order, float32 or int32 values. */
  function shuffled(seed: number, dtype: 'float32' | 'int32') {
    const { x } = operands(seed);
    const r = rng(seed + 100);
    const order = Array.from({ length: x.nnz }, (_, i) => i).sort(() => r.next() - 0.5);
    const idx = x.indices;
    const vals = x.values as Float32Array;
    const values = order.map((e) => (dtype === 'int32' ? Math.round(vals[e] * 8) - 7 : vals[e]));
    return new SparseTensor(
      order.map((e) => idx[e]),
      dtype === 'int32' ? Int32Array.from(values) : Float32Array.from(values),
      [ROWS, COLS],
    );
  }
  const CASES: [string, (x: SparseTensor, other: SparseTensor) => Record<string, unknown>][] = [
    ['sparse_reorder', (x) => ({ sp_input: x })],
    ['sparse_transpose', (x) => ({ sp_input: x, perm: [1, 0] })],
    ['sparse_reshape', (x) => ({ sp_input: x, shape: [COLS, -1] })],
    ['sparse_slice', (x) => ({ sp_input: x, start: [3, 2], size: [20, 9] })],
    ['sparse_retain', (x) => ({ sp_input: x, to_retain: Array.from({ length: x.nnz }, (_, i) => i % 3 !== 1) })],
    ['sparse_expand_dims', (x) => ({ sp_input: x, axis: 1 })],
    ['sparse_reset_shape', (x) => ({ sp_input: x, new_shape: [ROWS + 2, COLS + 5] })],
    ['sparse_fill_empty_rows', (x) => ({ sp_input: x, default_value: -2 })],
    ['sparse_tensor_to_dense', (x) => ({ sp_input: x, default_value: 3, validate_indices: false })],
    ['sparse_split', (x) => ({ sp_input: x, num_split: 3, axis: 1 })],
    ['sparse_concat', (x, other) => ({ sp_inputs: [x, other, x], axis: 0 })],
  ];
  it('a tensor moved again is not sorted again: its structure stays on the GPU, only parameters go up', async () => {
    const x = webgpu.sparse.neg(shuffled(3, 'float32'));
    const first = webgpu.sparse.reorder(x);
    const uploaded = gpu.uploadedBytes();
    const again = webgpu.sparse.reorder(x);
    expect(gpu.uploadedBytes() - uploaded).toBeLessThan(64);
    expect(again.indices).toEqual(first.indices);
    expect(Array.from(await again.data())).toEqual(Array.from(await first.data()));
    expect(Array.from(await first.data())).toEqual(
      Array.from(js.sparse.reorder(js.sparse.neg(shuffled(3, 'float32'))).values),
    );
  });

  const valuesOf = (o: unknown) => (o instanceof SparseTensor ? o : (o as Tensor));
  for (const dtype of ['float32', 'int32'] as const)
    for (const [op, make] of CASES)
      it(`${op} (${dtype}): recorded on the GPU, read back as js makes it`, async () => {
        const host = shuffled(op.length, dtype);
        // For fill_empty_rows, rows with no entry: every fourth row dropped.
        const x =
          op === 'sparse_fill_empty_rows'
            ? webgpu.sparse.retain(
                host,
                host.indices.map((i) => i[0] % 4 !== 0),
              )
            : host;
        const onGpu = webgpu.sparse.neg(x);
        expect(onGpu.isOnDevice).toBe(true);
        const other = shuffled(7, dtype);
        const read = gpu.readbacks();
        const got = webgpu.runWithReport(op, make(onGpu, other));
        expect(got.delegated, op).toBeUndefined();
        expect(gpu.readbacks() - read).toBe(0);
        const want = js.run(op, make(js.sparse.neg(x), other));
        for (const [name, w] of Object.entries(want)) {
          const g = got.outputs[name];
          const pairs: [unknown, unknown][] = Array.isArray(w) ? w.map((t, k) => [(g as unknown[])[k], t]) : [[g, w]];
          for (const [gt, wt] of pairs) {
            const [a, b] = [valuesOf(gt), valuesOf(wt)];
            expect(Array.from(await a.data()), `${op} ${name}`).toEqual(Array.from(await b.data()));
            if (a instanceof SparseTensor) expect(a.indices, `${op} ${name}`).toEqual((b as SparseTensor).indices);
            expect(a.shape ?? (a as SparseTensor).denseShape).toEqual(b.shape ?? (b as SparseTensor).denseShape);
          }
        }
      });
});

describe('GPU buffers handed in and out (rt.fromGPUBuffer, t.dataToGPU)', () => {
  /** A storage buffer of the runtime's device holding `values`. */
  function bufferOf(values: Float32Array): GPUBuffer {
    const b = gpu.device.createBuffer({
      size: Math.max(16, values.byteLength),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      mappedAtCreation: true,
    });
    new Float32Array(b.getMappedRange()).set(values);
    b.unmap();
    return b;
  }

  async function readBuffer(buffer: GPUBuffer, n: number): Promise<Float32Array> {
    const staging = gpu.device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = gpu.device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, 4 * n);
    gpu.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const out = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    staging.destroy();
    return out;
  }

  it('an op takes a buffer where it is and hands its result out as a buffer, with nothing read back', async () => {
    const { x } = operands(11);
    const w = Float32Array.from({ length: COLS * 3 }, (_, i) => 0.25 + (i % 9) / 8);
    let released = 0;
    const b = webgpu.fromGPUBuffer(bufferOf(w), [COLS, 3], 'float32', { onRelease: () => released++ });
    expect(b.isOnDevice).toBe(true);
    const read = gpu.readbacks();
    const y = webgpu.sparse.tensorDenseMatmul(x, b);
    const { buffer } = y.dataToGPU();
    expect(gpu.readbacks() - read).toBe(0);
    const want = js.sparse.tensorDenseMatmul(x, new Tensor(w, [COLS, 3], 'float32')).dataSync() as Float32Array;
    expect(bits(await readBuffer(buffer as GPUBuffer, ROWS * 3))).toEqual(bits(want));
    expect(bits((await y.data()) as Float32Array)).toEqual(bits(want));
    expect(released).toBe(0);
    b.dispose();
    expect(released).toBe(1);
  });

  it("a buffer's values are taken as they are, not screened: a subnormal stays on the GPU", async () => {
    const x = new SparseTensor([[0], [2]], Float32Array.of(1, 2), [3]);
    const d = webgpu.fromGPUBuffer(bufferOf(Float32Array.of(1e-39, 3, 4)), [3]);
    const y = webgpu.sparse.denseCwiseMul(x, d);
    expect(() => y.dataToGPU()).not.toThrow();
    const got = (await y.data()) as Float32Array;
    expect(got[1]).toBe(8);
    expect(Math.abs(got[0])).toBeLessThan(1e-38);
    expect(Array.from((await d.data()) as Float32Array)).toEqual(Array.from(Float32Array.of(1e-39, 3, 4)));
  });

  it('refuses what it cannot take, naming the argument', () => {
    expect(() => webgpu.fromGPUBuffer({}, [2])).toThrow(/fromGPUBuffer: buffer must be a GPUBuffer/);
    expect(() => webgpu.fromGPUBuffer(bufferOf(new Float32Array(4)), [5])).toThrow(/holds 16 bytes, fewer than 5/);
    expect(() => webgpu.fromGPUBuffer(bufferOf(new Float32Array(4)), [4], 'float64' as never)).toThrow(
      /dtype must be float32 or int32/,
    );
    expect(() => js.fromGPUBuffer(bufferOf(new Float32Array(4)), [4])).toThrow(/the js backend holds no GPU buffers/);
    expect(() => new Tensor(Float32Array.of(1), [1], 'float32').dataToGPU()).toThrow(/in host memory/);
  });
});

describe('a loop that never yields and drops its results', () => {
  it('keeps what the GPU holds within maxBytes: past it results are made in host memory; the last reads right', () =>
    counted(async (gpu) => {
      const maxBytes = 2 ** 20;
      const bounded = new Runtime(gpu, { maxBytes });
      const n = 10_000;
      const x = new SparseTensor(
        Array.from({ length: n }, (_, i) => [i]),
        Float32Array.from({ length: n }, (_, i) => 1 + (i % 7)),
        [n],
      );
      const before = bounded.memory().residentBytes;
      let held = 0;
      let onHost = 0;
      let y: SparseTensor | undefined;
      for (let i = 0; i < 500; i++) {
        const r = bounded.runWithReport('sparse_neg', { sp_input: x });
        y = r.outputs.output as SparseTensor;
        if (r.delegated) onHost++;
        held = Math.max(held, bounded.memory().residentBytes - before);
      }
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThanOrEqual(maxBytes);
      expect(onHost).toBeGreaterThan(400);
      expect(Array.from((await y!.data()) as Float32Array)).toEqual(
        Array.from(js.sparse.neg(x).values as Float32Array),
      );
    }));
});

describe.each(['js', 'wasm', 'gpu', 'webgpu-counted'])('reads and disposal are the same on %s', (backend) => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await createRuntime({ backend });
  });

  it('data() and array() of a Tensor and a SparseTensor, dataSync() once read', async () => {
    const x = new SparseTensor(
      [
        [0, 1],
        [2, 0],
      ],
      Float32Array.of(1.5, -2),
      [3, 2],
    );
    const d = rt.sparse.tensorToDense(x);
    expect(Array.from((await d.data()) as Float32Array)).toEqual([0, 1.5, 0, 0, -2, 0]);
    expect(await d.array()).toEqual([
      [0, 1.5],
      [0, 0],
      [-2, 0],
    ]);
    expect(Array.from(d.dataSync() as Float32Array)).toEqual([0, 1.5, 0, 0, -2, 0]);
    const y = rt.sparse.neg(x);
    expect(Array.from((await y.data()) as Float32Array)).toEqual([-1.5, 2]);
    expect(await y.array()).toEqual({
      indices: [
        [0, 1],
        [2, 0],
      ],
      values: [-1.5, 2],
      dense_shape: [3, 2],
      dtype: 'float32',
    });
  });

  it('a disposed tensor refuses data()', async () => {
    const y = rt.sparse.neg(new SparseTensor([[0]], Float32Array.of(1), [1]));
    y.dispose();
    await expect(y.data()).rejects.toThrow(/disposed/);
  });
});
