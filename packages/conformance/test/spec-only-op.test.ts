import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const OP = 'sparse_spec_only_fixture';
const PACKAGES = ['runtime', 'kernels-js', 'kernels-as', 'kernels-gpu', 'conformance'];

// The promise of the project: a new op of a kernel family needs its YAML file and nothing else.
const FIXTURE = `name: ${OP}
summary: Cubes every stored value (a fixture op that exists only in this test).
doc: |
  x * x * x of every stored value; implicit zeros stay absent.
dtypes:
  T: [float32, int32, int64]
args:
  - name: sp_input
    type: sparse
    dtype: T
    doc: The SparseTensor whose values are cubed.
outputs:
  - name: output
    type: sparse
    dtype: T
    shape: {like: sp_input}
    doc: The cubes, at the indices of sp_input.
kernel:
  family: map
  expr: x * x * x
examples:
  - name: float32
    args:
      sp_input: {sparse: {indices: [[0, 1], [1, 0]], values: [-2.0, 0.5], dense_shape: [2, 2]}, dtype: float32}
    expect:
      output: {sparse: {indices: [[0, 1], [1, 0]], values: [-8.0, 0.125], dense_shape: [2, 2]}, dtype: float32}
  - name: int32_wraps
    args:
      sp_input: {sparse: {indices: [[3]], values: [2048], dense_shape: [4]}, dtype: int32}
    expect:
      output: {sparse: {indices: [[3]], values: [0], dense_shape: [4]}, dtype: int32}
  - name: int64_wraps_exactly
    args:
      sp_input: {sparse: {indices: [[0]], values: [2097152], dense_shape: [1]}, dtype: int64}
    expect:
      output: {sparse: {indices: [[0]], values: ["-9223372036854775808"], dense_shape: [1]}, dtype: int64}
  - name: float64_refused
    args:
      sp_input: {sparse: {indices: [[0]], values: [1.0], dense_shape: [1]}, dtype: float64}
    expect_error: {kind: TypeError, match: "T in \\\\{float32, int32, int64\\\\}"}
`;

const work = mkdtempSync(join(tmpdir(), 'spec-only-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('a new family op runs from its spec alone: codegen, build, examples on every backend', () => {
  // A copy of the repository's sources, with the fixture spec added and nothing else.
  for (const f of ['package.json', 'tsconfig.base.json', 'nx.json']) cpSync(join(ROOT, f), join(work, f));
  cpSync(join(ROOT, 'specs'), join(work, 'specs'), { recursive: true });
  for (const p of PACKAGES) {
    cpSync(join(ROOT, 'packages', p), join(work, 'packages', p), {
      recursive: true,
      filter: (src) => !/[/\\](dist|generated|node_modules|test)$/.test(src),
    });
  }
  linkNodeModules();
  writeFileSync(join(work, 'specs', `${OP}.yaml`), FIXTURE);

  const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: work, encoding: 'utf8' });
  node([join(ROOT, 'packages/codegen/dist/cli.js'), '--root', work]);
  expect(existsSync(join(work, 'packages/kernels-js/src/generated/kernels', `${OP}.ts`))).toBe(true);
  expect(existsSync(join(work, 'packages/kernels-js/src/kernels', `${OP}.ts`))).toBe(false);
  expect(readFileSync(join(work, 'packages/kernels-as/assembly/generated/families.ts'), 'utf8')).toContain(`export function ${OP}__int64(`);
  expect(readFileSync(join(work, 'packages/kernels-gpu/src/generated/families.ts'), 'utf8')).toContain(`  ${OP}: {`);
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const asc = join(ROOT, 'node_modules/assemblyscript/bin/asc.js');
  const kas = join(work, 'packages/kernels-as');
  node([asc, join(kas, 'assembly/index.ts'), '--outFile', join(kas, 'dist/kernels.wasm'), '-O3', '--enable', 'simd', '--runtime', 'stub', '--noAssert']);
  for (const p of ['kernels-js', 'kernels-as', 'kernels-gpu', 'runtime', 'conformance']) node([tsc, '-p', join(work, 'packages', p, 'tsconfig.json')]);

  const bundle = JSON.parse(readFileSync(join(work, 'packages/conformance/generated/cases.json'), 'utf8'));
  const cases = bundle.cases.filter((c: { op: string }) => c.op === OP);
  expect(cases).toHaveLength(4);
  writeFileSync(join(work, 'fixture-cases.json'), JSON.stringify(cases));
  const out = node([join(work, 'packages/conformance/dist/cli.js'), '--cases', join(work, 'fixture-cases.json'), '--backend', 'all']);
  const lines = out.trim().split('\n');
  // Every backend runs it in its own kernels: passed, not delegated — but the gpu declares two cases delegated
  // (kernels-gpu/src/delegation.ts): int64, and the int32 cube of 2048 (2^33: past the 2^24 its int32 bound allows).
  expect(lines).toEqual(expect.arrayContaining(['js: 4 passed, 0 failed, 0 unsupported', 'wasm: 4 passed, 0 failed, 0 unsupported']));
  for (const line of lines.filter((l) => !l.startsWith('gpu:'))) expect(line).toMatch(/^\w+: 4 passed, 0 failed, 0 unsupported$/);
  expect(lines).toContain('gpu: 2 passed, 0 failed, 0 unsupported, 2 delegated');
  // The generated API has the op too, under the derived name.
  expect(readFileSync(join(work, 'packages/runtime/dist/generated/ops-api.d.ts'), 'utf8')).toContain('specOnlyFixture(spInput');
}, 120_000);

/** node_modules of the copy: the repository's packages, with @sparse/* pointing at the copy's own. */
function linkNodeModules(): void {
  const nm = join(work, 'node_modules');
  mkdirSync(join(nm, '@sparse'), { recursive: true });
  for (const e of readdirSync(join(ROOT, 'node_modules'))) {
    if (e !== '@sparse') symlinkSync(join(ROOT, 'node_modules', e), join(nm, e));
  }
  for (const p of PACKAGES) symlinkSync(join(work, 'packages', p), join(nm, '@sparse', p));
}
