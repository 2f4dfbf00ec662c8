import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Case } from '@sparse/case-format';
import { CaseFormatError } from '../src/case-format-error.js';
import { loadCases, parseCaseFile } from '../src/load-cases.js';
import { isUnreadable, type LoadedCase, type UnreadableCase } from '../src/unreadable-case.js';

const root = mkdtempSync(join(tmpdir(), 'sparse-conformance-load-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes a file under the temporary root and returns its path. */
function write(relative: string, text: string): string {
  const path = join(root, relative);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const denseCase = (op: string, name: string) => ({
  op,
  name,
  args: { tensor: { dense: [[1, 0]], dtype: 'int32' } },
  expect: { output: { sparse: { indices: [[0, 0]], values: [1], dense_shape: [1, 2] }, dtype: 'int32' } },
});

/** The entries loaded, each of which must be a case. */
function casesIn(loaded: LoadedCase[]): Case[] {
  expect(loaded.filter(isUnreadable)).toEqual([]);
  return loaded as Case[];
}

/** The one entry loaded as not a case, for checking why. */
function unreadableIn(loaded: LoadedCase[]): UnreadableCase {
  const unreadable = loaded.filter(isUnreadable);
  expect(unreadable).toHaveLength(1);
  return unreadable[0];
}

/** The error loadCases/parseCaseFile throws, for checking its message. */
function errorOf(f: () => unknown): CaseFormatError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CaseFormatError);
    return e as CaseFormatError;
  }
  throw new Error('expected a CaseFormatError, but nothing was thrown');
}

describe('loadCases: formats', () => {
  it('reads a JSON list of cases', () => {
    const file = write('list.json', JSON.stringify([denseCase('from_dense', 'a'), denseCase('from_dense', 'b')]));
    const cases = casesIn(loadCases(file));
    expect(cases.map((c) => c.name)).toEqual(['a', 'b']);
    expect(cases[0].args).toEqual({ tensor: { dense: [[1, 0]], dtype: 'int32' } });
  });

  it('reads YAML, keeping nan/inf spellings and quoted digit strings as written', () => {
    const file = write(
      'one.yaml',
      `- op: sparse_abs
  name: specials
  doc: "TensorFlow API docs: tf.sparse.map_values"
  args:
    sp_input:
      sparse: {indices: [[0], [1]], values: [nan, -inf], dense_shape: [3]}
      dtype: float32
  expect:
    output:
      sparse: {indices: [[0], [1]], values: [nan, inf], dense_shape: [3]}
      dtype: float32
  tolerance: {rtol: 0.001}
- op: sparse_abs
  name: wide
  args: {sp_input: {sparse: {indices: [[0]], values: ["-9007199254740993"], dense_shape: [1]}, dtype: int64}}
  expect: {output: {sparse: {indices: [[0]], values: ["9007199254740993"], dense_shape: [1]}, dtype: int64}}
`,
    );
    const [specials, wide] = casesIn(loadCases(file));
    expect(specials.tolerance).toEqual({ rtol: 0.001 });
    expect(specials.doc).toBe('TensorFlow API docs: tf.sparse.map_values');
    expect((specials.expect!.output as { sparse: { values: unknown[] } }).sparse.values).toEqual(['nan', 'inf']);
    expect((wide.expect!.output as { sparse: { values: unknown[] } }).sparse.values).toEqual(['9007199254740993']);
  });

  it('reads the {cases: [...]} wrapper, other top-level fields allowed (the generated bundle has `generated`)', () => {
    const file = write(
      'wrapped.yml',
      `generated: by hand\ncases:\n  - ${JSON.stringify(denseCase('from_dense', 'w'))}\n`,
    );
    expect(loadCases(file).map((c) => `${c.op}/${c.name}`)).toEqual(['from_dense/w']);
  });

  it('reads expect_error cases', () => {
    const c = {
      op: 'sparse_reorder',
      name: 'bad',
      args: {},
      expect_error: { kind: 'InvalidArgument', match: 'out of (bounds|range)' },
    };
    expect(casesIn(parseCaseFile(JSON.stringify([c]), 'x.json'))[0].expect_error).toEqual(c.expect_error);
  });

  it('reads every case file under a directory, recursively, in sorted order', () => {
    write('tree/b.yml', JSON.stringify([denseCase('op', 'b')]));
    write('tree/a/2.yaml', JSON.stringify([denseCase('op', 'a2')]));
    write('tree/a/1.json', JSON.stringify({ cases: [denseCase('op', 'a1'), denseCase('op', 'a1b')] }));
    write('tree/a/deeper/0.json', JSON.stringify([denseCase('op', 'a_deeper')]));
    write('tree/notes.txt', 'not a case file');
    write('tree/.hidden/x.yaml', 'not: [a case list');
    expect(loadCases(join(root, 'tree')).map((c) => c.name)).toEqual(['a1', 'a1b', 'a2', 'a_deeper', 'b']);
  });

  it('tells onFile of each case file, in the order it reads them', () => {
    const files = ['a/1.json', 'a/2.yaml', 'b.yml'].map((f) =>
      write(`told/${f}`, JSON.stringify([denseCase('op', f)])),
    );
    for (const path of [join(root, 'told'), files[1]]) {
      const told: string[] = [];
      loadCases(path, { onFile: (file) => told.push(file) });
      expect(told).toEqual(path === files[1] ? [files[1]] : files);
    }
  });
});

describe('loadCases: an entry that is not a case is loaded in its place as unreadable, saying why', () => {
  it('names the file and the case index and name, and keeps the cases around it', () => {
    const bad = { ...denseCase('from_dense', 'second'), expect_error: { kind: 'InvalidArgument' } };
    const file = write('both.json', JSON.stringify([denseCase('from_dense', 'first'), bad, denseCase('op', 'third')]));
    const loaded = loadCases(file);
    expect(loaded.map((c) => [c.op, c.name, isUnreadable(c)])).toEqual([
      ['from_dense', 'first', false],
      ['from_dense', 'second', true],
      ['op', 'third', false],
    ]);
    expect(unreadableIn(loaded).unreadable).toBe(
      `${file}: cases[1] (second): a case has exactly one of 'expect' and 'expect_error'`,
    );
  });

  it('names the case by its index when the name is missing, and says so when the op is', () => {
    const { name: _dropped, ...nameless } = denseCase('from_dense', 'x');
    expect(unreadableIn(parseCaseFile(JSON.stringify([nameless]), 'f.json'))).toEqual({
      op: 'from_dense',
      name: 'cases[0]',
      unreadable: `f.json: cases[0]: the field 'name' is missing`,
    });
    expect(unreadableIn(parseCaseFile(JSON.stringify([5]), 'f.json'))).toEqual({
      op: '(no op)',
      name: 'cases[0]',
      unreadable: 'f.json: cases[0]: a case must be a mapping, got 5',
    });
  });

  it('lists every problem of the case, each with its path', () => {
    const bad = {
      op: 'from_dense',
      name: 'many',
      args: { tensor: { dense: [1], dtype: 5 } },
      expect: { output: { dense: [1, 'x'], dtype: 'int32' } },
      tolerance: { rtol: -1 },
    };
    expect(unreadableIn(parseCaseFile(JSON.stringify([bad]), 'f.json')).unreadable).toBe(
      'f.json: cases[0] (many): args.tensor.dtype: must be a dtype name, got 5; ' +
        'expect.output.dense[1]: "x" is not an int32 value; tolerance.rtol: must be a number >= 0, got -1',
    );
  });

  it.each([
    ['no op', { name: 'n', args: {}, expect: {} }, /the field 'op' is missing/],
    [
      'args not a mapping',
      { op: 'o', name: 'n', args: [1], expect_error: { kind: 'TypeError' } },
      /args: must be a mapping of argument name to value, got \[1\]/,
    ],
    ['neither expect nor expect_error', { op: 'o', name: 'n', args: {} }, /exactly one of/],
    [
      'a misspelt field',
      { op: 'o', name: 'n', args: {}, expected: {} },
      /expected: unknown field \(allowed: op, name, doc, args, expect, expect_error, tolerance\)/,
    ],
    [
      'an unknown error kind',
      { op: 'o', name: 'n', args: {}, expect_error: { kind: 'ValueError' } },
      /expect_error\.kind: must be one of InvalidArgument, TypeError, ResourceExhausted, got "ValueError"/,
    ],
    [
      'a bad regex',
      { op: 'o', name: 'n', args: {}, expect_error: { kind: 'TypeError', match: '(' } },
      /expect_error\.match: not a valid regex/,
    ],
    [
      'a negative tolerance',
      { ...denseCase('o', 'n'), tolerance: { rtol: -1 } },
      /tolerance\.rtol: must be a number >= 0, got -1/,
    ],
    [
      'an expected value of the wrong dtype',
      { ...denseCase('o', 'n'), expect: { output: { dense: [1, 'x'], dtype: 'int32' } } },
      /expect\.output\.dense\[1\]: "x" is not an int32 value/,
    ],
    [
      'an expected int64 past 2^53 as a number',
      { ...denseCase('o', 'n'), expect: { output: { dense: [2 ** 60], dtype: 'int64' } } },
      /write it as a string of digits/,
    ],
    [
      'an expected value with no dtype',
      { ...denseCase('o', 'n'), expect: { output: { dense: [1] } } },
      /expect\.output: the field 'dtype' is missing \(one of float32, /,
    ],
    [
      'ragged expected nesting',
      { ...denseCase('o', 'n'), expect: { output: { dense: [[1, 2], [3]], dtype: 'int32' } } },
      /expect\.output\.dense\[1\]: the nesting is not rectangular: expected a list of 2, got \[3\]/,
    ],
    [
      'indices and values of different lengths',
      {
        ...denseCase('o', 'n'),
        expect: { output: { sparse: { indices: [[0]], values: [1, 2], dense_shape: [3] }, dtype: 'int32' } },
      },
      /expect\.output\.sparse: 1 indices but 2 values/,
    ],
    [
      'an index of the wrong rank',
      {
        ...denseCase('o', 'n'),
        expect: { output: { sparse: { indices: [[0, 1]], values: [1], dense_shape: [3] }, dtype: 'int32' } },
      },
      /expect\.output\.sparse\.indices\[0\]: expected 1 whole numbers/,
    ],
    [
      'an expected plain value',
      { ...denseCase('o', 'n'), expect: { output: [[1, 2]] } },
      /expect\.output\[0\]: expected \{sparse/,
    ],
    [
      'a sparse arg missing a field',
      { ...denseCase('o', 'n'), args: { sp: { sparse: { indices: [], values: [] }, dtype: 'int32' } } },
      /args\.sp\.sparse: the field 'dense_shape' is missing/,
    ],
  ])('refuses %s', (_what, raw, message) => {
    const { unreadable } = unreadableIn(parseCaseFile(JSON.stringify([raw]), 'bad.json'));
    expect(unreadable).toMatch(/^bad\.json: cases\[0\]/);
    expect(unreadable).toMatch(message);
  });

  it('refuses the same op/name twice, naming both files', () => {
    const first = write('dup/1.json', JSON.stringify([denseCase('op', 'same')]));
    const second = write('dup/2.json', JSON.stringify([denseCase('op', 'same')]));
    const loaded = loadCases(join(root, 'dup'));
    expect(isUnreadable(loaded[0])).toBe(false);
    expect(unreadableIn(loaded).unreadable).toBe(
      `${second}: cases[0] (same): op/same is already a case in ${first}: names must be unique within an op`,
    );
  });
});

describe('loadCases: a file that cannot be read as a list of cases throws', () => {
  it('rejects an unparseable file, naming it', () => {
    const file = write('broken.yaml', '- op: x\n  name: [unclosed\n');
    expect(errorOf(() => loadCases(file)).message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot parse`),
    );
  });

  it('rejects a file that is not a list of cases', () => {
    const file = write('mapping.json', JSON.stringify({ op: 'x' }));
    expect(errorOf(() => loadCases(file)).message).toBe(`${file}: expected a list of cases, or {cases: [...]}`);
  });

  it('rejects a file without a case-file extension, and a missing path', () => {
    const file = write('cases.txt', '[]');
    expect(errorOf(() => loadCases(file)).message).toMatch(/not a case file/);
    expect(errorOf(() => loadCases(join(root, 'nope.json'))).message).toMatch(/cannot read: ENOENT/);
  });
});
