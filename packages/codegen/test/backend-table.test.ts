import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpecs } from '../src/index.js';
import { specProblems } from './spec-problems.js';
import { emitBackendTable } from '../src/emit-backend-table.js';
import { BACKEND_TARGETS } from '../src/backend-targets.js';

const ROOT = join(import.meta.dirname, '../../..');
const SPECS = loadSpecs(join(ROOT, 'specs'), ROOT);
const [WASM, GPU] = ['wasm', 'gpu'].map((n) => BACKEND_TARGETS.find((b) => b.name === n)!);
const isFile = (dir: string, op: string) =>
  readdirSync(join(ROOT, 'packages', dir, 'src/kernels')).includes(`${op}.ts`);

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A copy of a backend's kernels folder, edited. */
function kernelsDir(dir: string, edit: (d: string) => void = () => {}): string {
  const d = mkdtempSync(join(tmpdir(), 'kernels-'));
  dirs.push(d);
  cpSync(join(ROOT, 'packages', dir, 'src/kernels'), d, { recursive: true });
  edit(d);
  return d;
}

describe("a backend's kernel table comes from the specs and the kernel files", () => {
  it('holds each kernel file of a hand-written op, and runs the ops with none on the JS kernels where the backend says so', () => {
    const table = emitBackendTable(SPECS, GPU, kernelsDir('kernels-gpu'));
    for (const f of readdirSync(join(ROOT, 'packages/kernels-gpu/src/kernels'))) {
      const op = f.replace(/\.ts$/, '');
      expect(table).toContain(`from '../kernels/${op}.js'`);
    }
    // gpu declares `unported: 'js'`: every op neither generated nor with a file of its own runs on the JS kernel.
    const onJs = SPECS.filter((s) => !GPU.generates(s) && !isFile('kernels-gpu', s.name)).map((s) => s.name);
    expect(onJs).toContain('sparse_reorder');
    expect(table).toContain(`JS_DISPATCHED: readonly string[] = [${onJs.map((n) => `'${n}'`).join(', ')}]`);
    // Removing a kernel file moves its op there, with no spec edit.
    const fewer = emitBackendTable(
      SPECS,
      GPU,
      kernelsDir('kernels-gpu', (d) => rmSync(join(d, 'sparse_softmax.ts'))),
    );
    expect(fewer).not.toContain(`from '../kernels/sparse_softmax.js'`);
    expect(fewer).toMatch(/JS_DISPATCHED[^\n]*'sparse_softmax'/);
  });

  it('refuses a hand-written op with neither a kernel file nor a declared delegation', () => {
    const dir = kernelsDir('kernels-as', (d) => rmSync(join(d, 'sparse_reorder.ts')));
    expect(specProblems(() => emitBackendTable(SPECS, WASM, dir))).toMatch(
      /sparse_reorder\.yaml: kernel: the wasm backend has no kernel for sparse_reorder: write packages\/kernels-as\/src\/kernels\/sparse_reorder\.ts exporting sparseReorder, or declare `dispatch: \{wasm: js\}`/,
    );
  });

  it('refuses a kernel file beside a declared delegation, a generated op, or no op at all', () => {
    const dir = kernelsDir('kernels-as', (d) => writeFileSync(join(d, 'sparse_eye.ts'), ''));
    expect(specProblems(() => emitBackendTable(SPECS, WASM, dir))).toMatch(
      /sparse_eye declares `dispatch: \{wasm: js\}` but has packages\/kernels-as\/src\/kernels\/sparse_eye\.ts/,
    );
    const gpuDir = kernelsDir('kernels-gpu', (d) => {
      writeFileSync(join(d, 'sparse_add.ts'), '');
      writeFileSync(join(d, 'helpers.ts'), '');
    });
    const message = specProblems(() => emitBackendTable(SPECS, GPU, gpuDir));
    expect(message).toMatch(/the gpu kernel of sparse_add is generated from its expressions: delete/);
    expect(message).toMatch(/kernels\/helpers\.ts: \(spec\): no spec is named helpers/);
  });

  it('a spec may declare a delegation only to backends that exist', () => {
    const dir = mkdtempSync(join(tmpdir(), 'specs-'));
    dirs.push(dir);
    const yaml = readFileSync(join(ROOT, 'specs/sparse_reorder.yaml'), 'utf8');
    writeFileSync(
      join(dir, 'sparse_reorder.yaml'),
      yaml.replace('  wide_dims:', '  dispatch:\n    vulkan: js\n  wide_dims:'),
    );
    expect(specProblems(() => loadSpecs(dir, dir))).toMatch(/kernel\.dispatch.*vulkan/);
  });
});
