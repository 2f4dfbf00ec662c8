import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { withoutColours } from '@sparse/test-kit/terminal-text';

const ROOT = join(import.meta.dirname, '../../..');
const OP = 'sparse_spec_only_fixture';
/** Every workspace package (the root's workspaces are packages/*), by folder. */
const PACKAGES = readdirSync(join(ROOT, 'packages')).filter((d) =>
  existsSync(join(ROOT, 'packages', d, 'package.json')),
);

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
gradient:
  examples:
    - name: three_squares
      args:
        sp_input: {sparse: {indices: [[0, 1], [1, 0]], values: [-2.0, 0.5], dense_shape: [2, 2]}, dtype: float32}
        grad: {dense: [1.0, 2.0], dtype: float32}
      expect:
        sp_input_grad: {dense: [12.0, 1.5], dtype: float32}
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

// A hand-written op: its spec, its JS kernel, a wasm kernel file, and a declared delegation on the GPU. No table,
// index or list of any package is edited: codegen finds the kernel files and reads the dispatch.
const HAND = 'sparse_hand_written_fixture';
const HAND_FILES: Record<string, string> = {
  [`specs/${HAND}.yaml`]: `name: ${HAND}
summary: Negates every stored value (a fixture op that exists only in this test).
doc: |
  -x of every stored value, by a hand-written kernel.
dtypes:
  T: [float32]
args:
  - name: sp_input
    type: sparse
    dtype: T
    doc: The SparseTensor whose values are negated.
outputs:
  - name: output
    type: sparse
    dtype: T
    shape: {like: sp_input}
    entries: [{nnz: sp_input}]
    doc: The negated values, at the indices of sp_input.
kernel:
  family: structural
examples:
  - name: negates
    args:
      sp_input: {sparse: {indices: [[0, 1], [1, 0]], values: [-2.0, 0.5], dense_shape: [2, 2]}, dtype: float32}
    expect:
      output: {sparse: {indices: [[0, 1], [1, 0]], values: [2.0, -0.5], dense_shape: [2, 2]}, dtype: float32}
`,
  [`packages/kernels-js/src/kernels/${HAND}.ts`]: `import type { SparseHandWrittenFixtureKernel } from '@sparse/kernel-abi';

export const sparseHandWrittenFixture: SparseHandWrittenFixtureKernel = ({ sp_input }) => ({
  output: { ...sp_input, indices: sp_input.indices.slice(), values: (sp_input.values as Float32Array).map((v) => -v) },
});
`,
  [`packages/kernels-as/src/kernels/${HAND}.ts`]: `import type { KernelTable, OpKernel } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';

export function sparseHandWrittenFixture(
  _ctx: WasmContext,
  js: KernelTable['${HAND}'],
): OpKernel<'${HAND}'> {
  return (args) => js(args);
}
`,
};

const work = mkdtempSync(join(tmpdir(), 'spec-only-'));
// The copy holds built output and the nx cache: removing it takes a while on a loaded machine.
afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

/**
 * `npm run build` in the copy, as a contributor runs it (or the nx build of one package and what it depends on);
 * returns what nx printed, without colours.
 */
const build = (pkg?: string) =>
  withoutColours(
    execFileSync(pkg ? 'npx' : 'npm', pkg ? ['nx', 'run', `${pkg}:build`, '--outputStyle=static'] : ['run', 'build'], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    }),
  );

// A contributor's loop in a workspace that has been built before: add a spec, `npm run build`, and the op runs on
// every backend; change a template, build, and the kernels change. The copy starts from this workspace's built
// state (dist, generated sources and nx cache), so every build below is the warm, cached kind.
it('a new family op runs from its spec alone in a built workspace: npm run build, examples on every backend', () => {
  copyRepository();
  const warm = build();
  expect(warm).toMatch(/Successfully ran target build/);
  writeFileSync(join(work, 'specs', `${OP}.yaml`), FIXTURE);
  for (const [file, text] of Object.entries(HAND_FILES)) writeFileSync(join(work, file), text);
  const afterSpec = build();
  // codegen ran again, and so did every build that takes generated sources: none was restored stale from the cache.
  for (const p of [
    'codegen:generate',
    'kernel-abi:build',
    'kernels-js:build',
    'kernels-as:build',
    'kernels-gpu:build',
    'runtime:build',
    'conformance:build',
  ]) {
    expect(afterSpec, p).toMatch(new RegExp(`^> nx run @sparse/${p}$`, 'm'));
  }
  expect(existsSync(join(work, 'packages/kernels-js/src/generated/kernels', `${OP}.ts`))).toBe(true);
  expect(existsSync(join(work, 'packages/kernels-js/src/kernels', `${OP}.ts`))).toBe(false);
  // Its gradient op too, derived from the expression, with the example the spec gives it.
  expect(existsSync(join(work, 'packages/kernels-js/src/generated/kernels', `${OP}_grad.ts`))).toBe(true);
  expect(readFileSync(join(work, 'packages/kernels-as/assembly/generated/families.ts'), 'utf8')).toContain(
    `export function ${OP}__int64(`,
  );
  expect(readFileSync(join(work, 'packages/kernels-gpu/src/generated/families.ts'), 'utf8')).toContain(`  ${OP}: {`);
  expect(readFileSync(join(work, 'packages/kernels-webgpu/src/generated/families.ts'), 'utf8')).toContain(`  ${OP}: {`);

  const bundle = JSON.parse(readFileSync(join(work, 'packages/conformance/generated/cases.json'), 'utf8'));
  const cases = bundle.cases.filter((c: { op: string }) => c.op === OP);
  expect(cases).toHaveLength(4);
  writeFileSync(join(work, 'fixture-cases.json'), JSON.stringify(cases));
  const out = execFileSync(
    process.execPath,
    [join(work, 'packages/conformance/dist/cli.js'), '--cases', join(work, 'fixture-cases.json'), '--backend', 'all'],
    { cwd: work, encoding: 'utf8' },
  );
  const lines = out.trim().split('\n');
  // Every backend runs it in its own kernels: passed, not delegated — but the GPU backends declare cases delegated
  // (their delegation.ts): int64 on both, and on gpu the int32 cube of 2048 (2^33: past the 2^24 its int32 bound
  // allows; WGSL's int32 wraps as TensorFlow's).
  expect(lines).toEqual(
    expect.arrayContaining(['js: 4 passed, 0 failed, 0 unsupported', 'wasm: 4 passed, 0 failed, 0 unsupported']),
  );
  for (const line of lines.filter((l) => !/^(web)?gpu:/.test(l)))
    expect(line).toMatch(/^\w+: 4 passed, 0 failed, 0 unsupported$/);
  expect(lines).toContain('gpu: 2 passed, 0 failed, 0 unsupported, 2 delegated');
  expect(lines).toContain('webgpu: 3 passed, 0 failed, 0 unsupported, 1 delegated');
  // The generated API has the op too, under the derived name.
  expect(readFileSync(join(work, 'packages/runtime/dist/generated/ops-api.d.ts'), 'utf8')).toContain(
    'specOnlyFixture(spInput',
  );

  // The hand-written op: its own kernel on js and wasm; on the GPU backends, which have no kernel file of it, the
  // JS kernel, as each backend declares for an op it has none for (no dispatch line in the spec).
  const handCases = bundle.cases.filter((c: { op: string }) => c.op === HAND);
  writeFileSync(join(work, 'hand-cases.json'), JSON.stringify(handCases));
  const handOut = execFileSync(
    process.execPath,
    [join(work, 'packages/conformance/dist/cli.js'), '--cases', join(work, 'hand-cases.json'), '--backend', 'all'],
    { cwd: work, encoding: 'utf8' },
  );
  expect(handOut.trim().split('\n')).toEqual([
    'js: 1 passed, 0 failed, 0 unsupported',
    'wasm: 1 passed, 0 failed, 0 unsupported',
    'gpu: 0 passed, 0 failed, 0 unsupported, 1 delegated',
    'webgpu: 0 passed, 0 failed, 0 unsupported, 1 delegated',
  ]);
  expect(readFileSync(join(work, 'packages/kernels-as/src/generated/kernel-table.ts'), 'utf8')).toContain(
    `  ${HAND}: sparseHandWrittenFixture,`,
  );
  for (const gpu of ['kernels-gpu', 'kernels-webgpu'])
    expect(readFileSync(join(work, 'packages', gpu, 'src/generated/kernel-table.ts'), 'utf8')).toContain(`'${HAND}'`);

  // A template change reaches the built kernels (the JS kernels' build, and codegen before it, is what it takes).
  const template = join(work, 'packages/codegen/templates/js/map.ts.hbs');
  writeFileSync(template, `${readFileSync(template, 'utf8')}\nexport const TEMPLATE_CHANGED = true;\n`);
  expect(build('@sparse/kernels-js')).toMatch(/^> nx run @sparse\/codegen:generate$/m);
  expect(readFileSync(join(work, 'packages/kernels-js/dist/generated/kernels', `${OP}.js`), 'utf8')).toContain(
    'TEMPLATE_CHANGED',
  );
}, 300_000);

/** A copy of the repository as built here: sources, specs, built output, generated sources and the nx cache. */
function copyRepository(): void {
  for (const f of ['package.json', 'tsconfig.base.json', 'nx.json']) cpSync(join(ROOT, f), join(work, f));
  for (const d of ['specs', 'tools', 'docs', '.nx/cache'])
    if (existsSync(join(ROOT, d))) cpSync(join(ROOT, d), join(work, d), { recursive: true });
  for (const p of PACKAGES) {
    cpSync(join(ROOT, 'packages', p), join(work, 'packages', p), {
      recursive: true,
      filter: (src) => !/[/\\](node_modules|test)$/.test(src),
    });
    if (existsSync(join(ROOT, 'packages', p, 'node_modules')))
      symlinkSync(join(ROOT, 'packages', p, 'node_modules'), join(work, 'packages', p, 'node_modules'));
  }
  linkNodeModules();
}

/** node_modules of the copy: the repository's packages, with @sparse/* pointing at the copy's own. */
function linkNodeModules(): void {
  const nm = join(work, 'node_modules');
  mkdirSync(join(nm, '@sparse'), { recursive: true });
  for (const e of readdirSync(join(ROOT, 'node_modules'))) {
    if (e !== '@sparse') symlinkSync(join(ROOT, 'node_modules', e), join(nm, e));
  }
  for (const p of PACKAGES) symlinkSync(join(work, 'packages', p), join(nm, '@sparse', p));
}
