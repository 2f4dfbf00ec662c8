import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpecs } from '../src/index.js';
import { emitDocs } from '../src/emit-docs.js';
import { specProblems } from './spec-problems.js';

const SPECS = join(import.meta.dirname, '../../../specs');
const specs = loadSpecs(SPECS, SPECS);
// A gradient op differentiates another op; its own gradient (a second derivative) is not asked of it.
const gradientOps = new Set(specs.flatMap((s) => (s.gradientOf ? [s.gradientOf.op] : [])));
const forward = specs.filter((s) => !gradientOps.has(s.name));

describe("every op says whether it is differentiable, in TensorFlow's terms", () => {
  it('has a gradient, or the reason TensorFlow gives for having none', () => {
    const neither = forward.filter((s) => !s.gradientOf && !s.not_differentiable).map((s) => s.name);
    expect(neither, 'ops TensorFlow differentiates that have no gradient here yet').toEqual([]);
  });

  it('never claims TensorFlow does not differentiate an op whose gradient TensorFlow registers', () => {
    const both = forward.filter((s) => s.not_differentiable && s.tensorflow?.gradient).map((s) => s.name);
    expect(both).toEqual([]);
  });
});

describe('the op reference', () => {
  const docs = emitDocs(specs, join(import.meta.dirname, '../templates/docs/ops.md.hbs'), join(SPECS, '..'));
  const page = (op: string) => docs.slice(docs.indexOf(`\n## ${op}\n`)).split('\n## ')[1];

  it("lists every op with TensorFlow's op and gradient and ours, and says the same on the op's page", () => {
    const table = page('Gradients').split('\n');
    for (const s of specs) {
      const row = table.find((l) => l.startsWith(`| [\`${s.name}\`](#${s.name}) | `));
      expect(row, s.name).toBeDefined();
      const [, tfOp, tfGradient, ours] = row!.slice(0, -2).split(' | ');
      expect(tfOp).toEqual(s.tensorflow ? expect.stringContaining(`\`${s.tensorflow.op.split(' ')[0]}\``) : '—');
      expect(tfGradient).toBe(s.tensorflow?.gradient ?? (s.tensorflow ? 'none' : '—'));
      const gradientLine = page(s.name)
        .split('\n')
        .find((l) => l.startsWith('**Gradient**: '));
      if (s.gradientOf) {
        expect(ours).toContain(`(#${s.gradientOf.op})`);
        expect(gradientLine).toContain(`(#${s.gradientOf.op})`);
      } else if (s.not_differentiable && !gradientOps.has(s.name)) {
        expect(ours).toContain(s.not_differentiable.trim());
        expect(gradientLine).toBe(
          `**Gradient**: none: TensorFlow declares it not differentiable: ${s.not_differentiable.trim()}`,
        );
      }
    }
  });
});

describe('codegen refuses a contradictory declaration', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** A specs folder with `file` edited, and the specs it needs as they are. */
  const editedSpecs = (file: string, edit: (yaml: string) => string, needs: string[] = []) => {
    const dir = mkdtempSync(join(tmpdir(), 'specs-'));
    dirs.push(dir);
    for (const f of needs) cpSync(join(SPECS, f), join(dir, f));
    const text = readFileSync(join(SPECS, file), 'utf8');
    const edited = edit(text);
    expect(edited).not.toBe(text);
    writeFileSync(join(dir, file), edited);
    return dir;
  };

  it('a reason beside a gradient', () => {
    const dir = editedSpecs(
      'sparse_softmax.yaml',
      (y) => y.replace(/^dtypes:/m, 'not_differentiable: a reason\ndtypes:'),
      ['sparse_softmax_grad.yaml'],
    );
    expect(specProblems(() => loadSpecs(dir, dir))).toMatch(
      /^sparse_softmax\.yaml:\d+: not_differentiable: the op has a `gradient:`, so it is differentiable/m,
    );
  });

  it('a reason for an op whose gradient TensorFlow registers', () => {
    const dir = editedSpecs('sparse_concat.yaml', (y) =>
      y.replace(/^ {2}op: SparseConcat$/m, '  op: SparseConcat\n  gradient: sparse_grad.py'),
    );
    expect(specProblems(() => loadSpecs(dir, dir))).toMatch(
      /^sparse_concat\.yaml:\d+: not_differentiable: TensorFlow registers the op's gradient \(tensorflow\.gradient: sparse_grad\.py\)/m,
    );
  });

  it('a TensorFlow counterpart without its op', () => {
    const dir = editedSpecs('sparse_concat.yaml', (y) => y.replace(/^ {2}op: SparseConcat$/m, '  gradient: x.py'));
    expect(specProblems(() => loadSpecs(dir, dir))).toMatch(
      /^sparse_concat\.yaml:\d+: tensorflow: the field 'op' is missing/m,
    );
  });
});
