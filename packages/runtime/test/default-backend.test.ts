import { beforeEach, describe, expect, it, vi } from 'vitest';

// The default runtime (sparse.*) moves to wasm where it loads, as TensorFlow.js picks its best backend at ready();
// until then, and where wasm does not load, it runs on js. A backend chosen with setBackend is kept.

const fresh = async () => {
  vi.resetModules();
  return import('@sparse/runtime');
};

describe('the default backend', () => {
  beforeEach(() => vi.resetModules());

  it('is js at import and wasm once ready', async () => {
    const { getBackend, ready, sparse, SparseTensor } = await fresh();
    expect(getBackend()).toBe('js');
    expect(await ready()).toBe('wasm');
    expect(getBackend()).toBe('wasm');
    const st = new SparseTensor([[1], [0]], [1, 2], [2], 'float32');
    expect(Array.from(sparse.reorder(st).values)).toEqual([2, 1]);
  });

  it('stays where setBackend put it', async () => {
    const { getBackend, ready, setBackend } = await fresh();
    await setBackend('js');
    expect(await ready()).toBe('js');
    expect(getBackend()).toBe('js');
  });
});
