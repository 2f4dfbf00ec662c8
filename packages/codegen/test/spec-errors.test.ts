import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpecs } from '../src/index.js';
import { specProblems } from './spec-problems.js';
import { writeSpec } from './spec-folder.js';

const SPECS = join(import.meta.dirname, '../../../specs');
const GOOD = readFileSync(join(SPECS, 'sparse_tensor_to_dense.yaml'), 'utf8');

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A specs folder holding `sparse_tensor_to_dense.yaml` edited by `edit`, beside the gradient op it names. */
function specsWith(edit: (yaml: string) => string, file = 'sparse_tensor_to_dense.yaml'): string {
  const dir = mkdtempSync(join(tmpdir(), 'specs-'));
  dirs.push(dir);
  writeSpec(dir, file, edit(GOOD));
  return dir;
}

const problemsOf = (dir: string) => specProblems(() => loadSpecs(dir, dir));

describe('a broken spec fails codegen with a message naming file and field', () => {
  it('accepts the real specs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'specs-'));
    dirs.push(dir);
    cpSync(SPECS, dir, { recursive: true });
    expect(loadSpecs(dir, dir).length).toBeGreaterThan(0);
  });

  it('unknown field', () => {
    const msg = problemsOf(specsWith((y) => y.replace('summary:', 'sumary: typo\nsummary:')));
    expect(msg).toMatch(/^sparse_tensor_to_dense\.yaml:2: sumary: unknown field/m);
  });

  it('unknown dtype in a dtype variable', () => {
    const msg = problemsOf(specsWith((y) => y.replace('T: [float32,', 'T: [float16,')));
    expect(msg).toMatch(/sparse_tensor_to_dense\.yaml:\d+: dtypes\.T\[0\]: must be one of .*got "float16"/);
  });

  it('an argument whose dtype variable does not exist', () => {
    const msg = problemsOf(
      specsWith((y) => y.replace('    type: sparse\n    dtype: T', '    type: sparse\n    dtype: U')),
    );
    expect(msg).toMatch(/args\[0\]\.dtype: unknown dtype 'U'/);
  });

  it('an example with an argument the op does not declare', () => {
    const msg = problemsOf(specsWith((y) => y.replace('      default_value: x', '      default_valu: x')));
    expect(msg).toMatch(/examples\[0\]\.args\.default_valu: unknown argument 'default_valu'/);
  });

  it('an example missing a required argument', () => {
    const msg = problemsOf(
      specsWith((y) =>
        y.replace(
          / {2}- name: seed_sparse_tensor_example\n(.|\n)*? {4}expect:/,
          '  - name: seed_sparse_tensor_example\n    args: {}\n    expect:',
        ),
      ),
    );
    expect(msg).toMatch(/examples\[1\]\.args: the required argument 'sp_input' is missing/);
  });

  it('an example expecting an output the op does not have', () => {
    const msg = problemsOf(
      specsWith((y) =>
        y.replace('    expect:\n      output:\n        dense: [[x', '    expect:\n      result:\n        dense: [[x'),
      ),
    );
    expect(msg).toMatch(/examples\[0\]\.expect\.result: unknown output 'result'/);
  });

  it('an example value the case format refuses, located on its own line', () => {
    const msg = problemsOf(
      specsWith((y) => y.replace('dense: [[1, 0, 0, 0], [0, 0, 2, 0]', 'dense: [[1, 0, 0, 0], [0, 0, 2.5, 0]')),
    );
    const line = GOOD.split('\n').findIndex((l) => l.includes('dense: [[1, 0, 0, 0], [0, 0, 2, 0]')) + 1;
    expect(msg).toMatch(
      new RegExp(
        `^sparse_tensor_to_dense\\.yaml:${line}: examples\\[1\\]\\.expect\\.output\\.dense\\[1\\]\\[2\\]: 2\\.5 is not an int32 value$`,
        'm',
      ),
    );
  });

  it('an output that no example shows', () => {
    const msg = problemsOf(
      specsWith((y) =>
        y
          .replace('kernel:', 'outputs_extra: 1\nkernel:')
          .replace('outputs_extra: 1\n', '')
          .replace(
            '    doc: A dense tensor of shape `sp_input.dense_shape`.',
            '    doc: A dense tensor of shape `sp_input.dense_shape`.\n  - name: extra\n    type: dense\n    dtype: T\n    shape: {like: sp_input}\n    doc: Unused.',
          ),
      ),
    );
    expect(msg).toMatch(/outputs\[1\]\.name: no example shows the output 'extra'/);
  });

  describe('dtype_defaults', () => {
    const withDefaults = (vars: string, defaults: string) =>
      specsWith((y) =>
        y.replace(
          'dtypes:\n  T: [float32, float64, int32, int64, bool, string]\n',
          `dtypes:\n  T: [float32, float64, int32, int64, bool, string]\n${vars}dtype_defaults: ${defaults}\n`,
        ),
      );

    it('accepts a default of a dtype variable that a plain value can take, among its dtypes', () => {
      const [spec] = loadSpecs(withDefaults('', '{ T: int32 }'), SPECS);
      expect(spec.dtype_defaults).toEqual({ T: 'int32' });
    });

    it('a default of no dtype variable', () => {
      expect(problemsOf(withDefaults('', '{ U: int32 }'))).toMatch(
        /sparse_tensor_to_dense\.yaml:\d+: dtype_defaults\.U: 'U' is not a dtype variable \(dtype variables: T\)/,
      );
    });

    it('a default that is not one of the dtypes of its variable', () => {
      expect(problemsOf(withDefaults('  I: [int32, int64]\n', '{ I: float32 }'))).toMatch(
        /sparse_tensor_to_dense\.yaml:\d+: dtype_defaults\.I: float32 is not one of I's dtypes \{int32, int64\}/,
      );
    });

    it('a default that is not a dtype', () => {
      expect(problemsOf(withDefaults('', '{ T: float16 }'))).toMatch(
        /dtype_defaults\.T: must be one of "float32", .*; got "float16"/,
      );
    });

    it('a default of a variable that no plain value is converted to', () => {
      expect(problemsOf(withDefaults('  I: [int32, int64]\n', '{ I: int32 }'))).toMatch(
        /dtype_defaults\.I: no dense, scalar or sparse_or_dense argument takes I: a default applies only to a plain value/,
      );
    });
  });

  it('a check naming an unknown argument', () => {
    const msg = problemsOf(specsWith((y) => y.replace('    arg: sp_input\n    when:', '    arg: sp_inptu\n    when:')));
    expect(msg).toMatch(/checks\[0\]\.arg: unknown argument 'sp_inptu'/);
  });

  it('an unknown check rule', () => {
    const msg = problemsOf(specsWith((y) => y.replace('rule: indices_ordered', 'rule: indices_sorted')));
    expect(msg).toMatch(/checks\[0\]\.rule: unknown rule "indices_sorted" \(known: indices_ordered, /);
  });

  it('a file whose name is not the op id', () => {
    const msg = problemsOf(specsWith((y) => y, 'to_dense.yaml'));
    expect(msg).toMatch(/to_dense\.yaml:1: name: the op id 'sparse_tensor_to_dense' must match the file name/);
  });

  it('a list whose items take their dtypes one by one shares its dtype variable with nothing', () => {
    const cross = readFileSync(join(SPECS, 'sparse_cross.yaml'), 'utf8');
    const shared = cross.replace('    type: scalar\n    dtype: string', '    type: scalar\n    dtype: T');
    const msg = problemsOf(specsWith(() => shared, 'sparse_cross.yaml'));
    expect(msg).toMatch(
      /args\[0\]\.dtype: the items of inputs take their dtypes from T one by one, so T cannot also be the dtype of separator/,
    );
  });

  it('YAML that does not parse', () => {
    const msg = problemsOf(specsWith((y) => y.replace('summary: Converts', 'summary: [Converts')));
    expect(msg).toMatch(/sparse_tensor_to_dense\.yaml:\d+: \(spec\): YAML:/);
  });
});
