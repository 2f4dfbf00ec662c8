import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SparseTensor, createRuntime, getBackend, setBackend, tensor } from '@sparse/runtime';

// The package's own kernels, copied under another name into a folder of their own: a wasmPath that works only if
// the option is used (the default location has a file too).
const KERNELS = fileURLToPath(import.meta.resolve('@sparse/kernels-as/kernels.wasm'));
const dir = mkdtempSync(join(tmpdir(), 'sparse-wasm-path-'));
const moved = join(dir, 'moved-kernels.wasm');
copyFileSync(KERNELS, moved);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const product = (rt: Awaited<ReturnType<typeof createRuntime>>) =>
  rt.sparse
    .tensorDenseMatmul(
      new SparseTensor(
        [
          [0, 0],
          [1, 2],
        ],
        [1, 2],
        [2, 3],
        'float32',
      ),
      tensor([[1], [2], [3]], 'float32'),
    )
    .toArray();

describe('createRuntime and setBackend options', () => {
  it('wasmPath loads the kernels from a file path, a relative path or a file: URL', async () => {
    for (const wasmPath of [moved, relative(process.cwd(), moved), pathToFileURL(moved), pathToFileURL(moved).href]) {
      const rt = await createRuntime({ backend: 'wasm', wasmPath });
      expect(product(rt), String(wasmPath)).toEqual([[1], [6]]);
    }
  });

  it('a wasmPath with nothing there fails, naming where it looked', async () => {
    await expect(createRuntime({ backend: 'wasm', wasmPath: join(dir, 'absent.wasm') })).rejects.toThrow(
      /absent\.wasm/,
    );
    await expect(setBackend('wasm', { wasmPath: join(dir, 'absent.wasm') })).rejects.toThrow(/absent\.wasm/);
  });

  it('setBackend takes the same options', async () => {
    await setBackend('wasm', { wasmPath: moved });
    expect(getBackend()).toBe('wasm');
    await setBackend('js');
    expect(getBackend()).toBe('js');
  });

  it('refuses unknown (misspelled) options and values of the wrong kind, naming them', async () => {
    await expect(createRuntime({ backnd: 'wasm' } as never)).rejects.toThrow(TypeError);
    await expect(createRuntime({ backnd: 'wasm' } as never)).rejects.toThrow(
      /createRuntime: unknown option 'backnd'; the options are backend, wasmPath/,
    );
    await expect(setBackend('wasm', { wasmpath: moved } as never)).rejects.toThrow(
      /setBackend: unknown option 'wasmpath'/,
    );
    await expect(setBackend('wasm', { backend: 'js' } as never)).rejects.toThrow(
      /setBackend: the backend is the first argument/,
    );
    await expect(createRuntime({ backend: 'wasm', wasmPath: 42 } as never)).rejects.toThrow(
      /wasmPath must be a string or a URL, got 42/,
    );
    await expect(createRuntime({ backend: 7 } as never)).rejects.toThrow(/backend must be a string/);
    await expect(createRuntime('wasm' as never)).rejects.toThrow(/options must be an object/);
    expect(getBackend()).toBe('js');
  });
});
