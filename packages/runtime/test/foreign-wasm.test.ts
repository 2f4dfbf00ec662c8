import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '@sparse/runtime';

// A wasmPath may name any valid wasm module: one that is not this library's kernels is refused at once, by name.

const dir = mkdtempSync(join(tmpdir(), 'sparse-foreign-wasm-'));
const write = (name: string, bytes: number[]) => {
  const path = join(dir, name);
  writeFileSync(path, Uint8Array.from(bytes));
  return path;
};
const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
// (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))
const ADD = [
  ...HEADER,
  ...[0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f],
  ...[0x03, 0x02, 0x01, 0x00],
  ...[0x07, 0x07, 0x01, 0x03, 0x61, 0x64, 0x64, 0x00, 0x00],
  ...[0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x20, 0x01, 0x6a, 0x0b],
];
// (module (import "wasi_snapshot_preview1" "proc_exit" (func (param i32))))
const IMPORTS = [
  ...HEADER,
  ...[0x01, 0x05, 0x01, 0x60, 0x01, 0x7f, 0x00],
  ...[0x02, 0x24, 0x01, 0x16, ...Buffer.from('wasi_snapshot_preview1'), 0x09, ...Buffer.from('proc_exit'), 0x00, 0x00],
];

describe('a wasmPath naming a module that is not kernels.wasm', () => {
  it.each([
    ['an empty module', 'empty.wasm', HEADER],
    ['a module with other exports', 'add.wasm', ADD],
    ['a module with imports of its own', 'wasi.wasm', IMPORTS],
  ])('is refused with an Error naming the path: %s', async (_, name, bytes) => {
    const path = write(name, bytes);
    const made = createRuntime({ backend: 'wasm', wasmPath: path });
    await expect(made).rejects.toThrow(path);
    await expect(made).rejects.toThrow(/is not sparse's kernels\.wasm/);
    await expect(made).rejects.not.toThrow(/Cannot read properties/);
  });

  it('with threads, refuses a foreign kernels-threads.wasm beside it the same way', async () => {
    const beside = join(dir, 'threads');
    mkdirSync(beside);
    const real = createRequire(import.meta.url).resolve('@sparse/kernels-as/kernels.wasm');
    copyFileSync(real, join(beside, 'kernels.wasm'));
    writeFileSync(join(beside, 'kernels-threads.wasm'), Uint8Array.from(ADD));
    const made = createRuntime({ backend: 'wasm', wasmPath: join(beside, 'kernels.wasm'), threads: 2 });
    await expect(made).rejects.toThrow(
      /kernels-threads\.wasm is not sparse's kernels-threads\.wasm: it lacks the exports clearError/,
    );
  });

  it('says which exports are missing', async () => {
    const path = write('add2.wasm', ADD);
    await expect(createRuntime({ backend: 'wasm', wasmPath: path })).rejects.toThrow(
      /lacks the exports memory, clearError, lastErrorCode/,
    );
  });
});
