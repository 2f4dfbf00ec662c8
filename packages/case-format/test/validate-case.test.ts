import { describe, expect, it } from 'vitest';
import type { OpSignature } from '../src/op-signature.js';
import { problemText } from '../src/report.js';
import { validateCase } from '../src/validate-case.js';

/** Every problem validateCase reports for `raw`, as `path: message` lines. */
function problemsOf(raw: unknown, exampleOf?: OpSignature): string[] {
  const problems: string[] = [];
  const report = (path: readonly (string | number)[], message: string) => problems.push(problemText(path, message));
  const valid = exampleOf ? validateCase(raw, report, exampleOf) : validateCase(raw, report);
  expect(valid).toBe(problems.length === 0);
  return problems;
}

const sparse = (indices: unknown[], values: unknown[], dense_shape: unknown[], dtype: unknown = 'int32') => ({
  sparse: { indices, values, dense_shape },
  dtype,
});

const good = {
  op: 'sparse_tensor_to_dense',
  name: 'two_entries',
  doc: 'TensorFlow API docs',
  args: {
    sp_input: sparse(
      [
        [0, 0],
        [1, 2],
      ],
      [1, 2],
      [2, 3],
    ),
    default_value: 0,
  },
  expect: {
    output: {
      dense: [
        [1, 0, 0],
        [0, 0, 2],
      ],
      dtype: 'int32',
    },
  },
  tolerance: { rtol: 0 },
};

const toDense: OpSignature = {
  op: 'sparse_tensor_to_dense',
  args: [
    { name: 'sp_input', type: 'sparse' },
    { name: 'default_value', type: 'scalar', aliases: ['fill'], default: 'zero' },
    { name: 'axis', type: 'axes', default: null },
    { name: 'shape', type: 'shape', default: null },
  ],
  outputs: [{ name: 'output', type: 'dense' }],
};

describe('validateCase: a case file', () => {
  it('accepts a well-formed case, and one that expects an error', () => {
    expect(problemsOf(good)).toEqual([]);
    expect(
      problemsOf({ op: 'o', name: 'n', args: {}, expect_error: { kind: 'InvalidArgument', match: 'out of (order)' } }),
    ).toEqual([]);
  });

  it('keeps the spellings of numbers JSON cannot hold: nan/inf in floats, digit strings in int64', () => {
    const raw = {
      ...good,
      expect: {
        floats: sparse([[0], [1], [2]], ['nan', 'inf', '-inf'], [3], 'float64'),
        wide: { dense: ['9007199254740993', -5], dtype: 'int64' },
        none: { dense: [], shape: [0, 4], dtype: 'bool' },
      },
    };
    expect(problemsOf(raw)).toEqual([]);
  });

  it('reports something that is not a mapping', () => {
    expect(problemsOf([1])).toEqual(['a case must be a mapping, got [1]']);
  });

  it('reports every problem of the case fields at once, each with its path', () => {
    expect(
      problemsOf({
        name: '',
        doc: 3,
        args: [1],
        expect: {},
        expect_error: { kind: 'ValueError', match: '(', extra: 1 },
        tolerance: { rtol: -1, atol: 'x', btol: 0 },
        expected: {},
      }),
    ).toEqual([
      'expected: unknown field (allowed: op, name, doc, args, expect, expect_error, tolerance)',
      "the field 'op' is missing",
      'name: must be a non-empty string, got ""',
      'doc: must be a non-empty string, got 3',
      "a case has exactly one of 'expect' and 'expect_error'",
      'args: must be a mapping of argument name to value, got [1]',
      'expect: must be a mapping of output name to value, such as {output: ...}, got {}',
      'expect_error.extra: unknown field (allowed: kind, match)',
      'expect_error.kind: must be one of InvalidArgument, TypeError, ResourceExhausted, got "ValueError"',
      expect.stringMatching(/^expect_error\.match: not a valid regex: /),
      'tolerance.btol: unknown field (allowed: rtol, atol)',
      'tolerance.rtol: must be a number >= 0, got -1',
      'tolerance.atol: must be a number >= 0, got "x"',
    ]);
  });

  it('reports missing name and args, neither expect nor expect_error, and a bad op', () => {
    expect(problemsOf({ op: 7 })).toEqual([
      'op: must be the op id, a non-empty string, got 7',
      "the field 'name' is missing",
      "a case has exactly one of 'expect' and 'expect_error'",
      "the field 'args' is missing",
    ]);
  });

  it('reports the fields of tensor forms among the args, nested in lists too, but leaves their values alone', () => {
    const raw = {
      ...good,
      args: {
        sp: { sparse: { indices: [], values: 'x', shape: [] }, dtype: 3, extra: 1 },
        list: [1, [{ dense: [1], shape: 2 }], { sparse: [] }],
        bad_values: sparse([[7, 7, 7]], ['not an int'], [1]),
        no_dtype: { dense: [1, 2] },
        unknown_dtype: { dense: [1], dtype: 'complex64' },
      },
    };
    expect(problemsOf(raw)).toEqual([
      'args.sp.extra: unknown field (allowed: sparse, dtype)',
      'args.sp.sparse.shape: unknown field (allowed: indices, values, dense_shape)',
      'args.sp.sparse.values: must be a list, got "x"',
      "args.sp.sparse: the field 'dense_shape' is missing",
      'args.sp.dtype: must be a dtype name, got 3',
      'args.list[1][0].shape: must be a list of dims, got 2',
      'args.list[2].sparse: must be {indices, values, dense_shape}, got []',
    ]);
  });

  it('reads expected outputs in depth, reporting every bad value where it is', () => {
    const raw = {
      ...good,
      expect: {
        plain: [[1, 2]],
        no_dtype: { dense: [1] },
        bad_dtype: { dense: [1], dtype: 'float16' },
        values: {
          dense: [
            [1, 'x'],
            [2 ** 31, 2.5],
          ],
          dtype: 'int32',
        },
        wide: { dense: [2 ** 60, 'abc'], dtype: 'int64' },
        ragged: { dense: [[1, 2], [3], [[4], 5]], dtype: 'float32' },
        floats: { dense: ['nan', 'NaN', true], dtype: 'float32' },
        flags: { dense: [true, 1], dtype: 'bool' },
        words: { dense: ['a', 1], dtype: 'string' },
        too_few: { dense: [1, 2], shape: [3], dtype: 'int32' },
        bad_shape: { dense: [], shape: [-1], dtype: 'int32' },
        counts: sparse([[0]], [1, 2], [3]),
        rank: sparse([[0, 1], 'x'], [1, 2], [3]),
        dims: sparse([], [], [2, -1]),
        listed: [sparse([[0]], [1], [1]), { dense: [1], dtype: 'int32', shape: [1], sparse: 0 }, 4],
      },
    };
    expect(problemsOf(raw)).toEqual([
      'expect.plain[0]: expected {sparse: {indices, values, dense_shape}, dtype}, {dense: NESTED, dtype}, {csr: {row_pointers, col_indices, values, dense_shape}, dtype} or a list of them, got [1,2]',
      "expect.no_dtype: the field 'dtype' is missing (one of float32, float64, int32, int64, bool, string)",
      'expect.bad_dtype.dtype: must be one of float32, float64, int32, int64, bool, string, got "float16"',
      'expect.values.dense[0][1]: "x" is not an int32 value',
      'expect.values.dense[1][0]: 2147483648 is not an int32 value',
      'expect.values.dense[1][1]: 2.5 is not an int32 value',
      'expect.wide.dense[0]: 1152921504606847000 is beyond 2^53: write it as a string of digits',
      'expect.wide.dense[1]: "abc" is not an int64 value',
      'expect.ragged.dense[1]: the nesting is not rectangular: expected a list of 2, got [3]',
      'expect.ragged.dense[2][0]: the nesting is not rectangular: a list where a value belongs',
      'expect.floats.dense[1]: "NaN" is not a float32 value (a number, or nan, inf, -inf)',
      'expect.floats.dense[2]: true is not a float32 value (a number, or nan, inf, -inf)',
      'expect.flags.dense[1]: 1 is not a bool value (true or false)',
      'expect.words.dense[1]: 1 is not a string value (quote it)',
      'expect.too_few: shape [3] holds 3 values but dense gives 2',
      'expect.bad_shape.shape: must be a list of whole numbers >= 0, got [-1]',
      'expect.counts.sparse: 1 indices but 2 values',
      'expect.rank.sparse.indices[0]: expected 1 whole numbers (the rank of dense_shape), got [0,1]',
      'expect.rank.sparse.indices[1]: expected 1 whole numbers (the rank of dense_shape), got "x"',
      'expect.dims.sparse.dense_shape: must be a list of whole numbers >= 0, got [2,-1]',
      'expect.listed[1].dense: unknown field (allowed: sparse, dtype)',
      'expect.listed[1].shape: unknown field (allowed: sparse, dtype)',
      'expect.listed[1].sparse: must be {indices, values, dense_shape}, got 0',
      'expect.listed[2]: expected {sparse: {indices, values, dense_shape}, dtype}, {dense: NESTED, dtype}, {csr: {row_pointers, col_indices, values, dense_shape}, dtype} or a list of them, got 4',
    ]);
  });

  it('reads an expected CSR matrix, deriving its batch pointers, and reports each way it is not one', () => {
    const csr = (parts: Record<string, unknown>, dtype: unknown = 'float32') => ({ csr: parts, dtype });
    const ok = { row_pointers: [0, 1, 0, 2], col_indices: [2, 0, 1], values: [1, 2, 3], dense_shape: [2, 1, 3] };
    expect(problemsOf({ ...good, expect: { output: csr(ok) } })).toEqual([]);
    expect(problemsOf({ ...good, expect: { output: csr({ ...ok, batch_pointers: [0, 1, 3] }) } })).toEqual([]);
    const raw = {
      ...good,
      expect: {
        batch: csr({ ...ok, batch_pointers: [0, 2, 3] }),
        start: csr({ ...ok, row_pointers: [1, 1, 0, 2] }),
        down: csr({ ...ok, row_pointers: [0, 1, 0, 2, 1], dense_shape: [1, 4, 3] }),
        count: csr({ ...ok, values: [1, 2] }),
        column: csr({ ...ok, col_indices: [3, 0, 1] }),
        order: csr({ ...ok, col_indices: [2, 1, 0] }),
        rank: csr({ ...ok, dense_shape: [6] }),
        parts: csr({ row_pointers: 'x', col_indices: [], values: [], extra: 1 }),
        value: csr({ ...ok, values: [1, 'x', 3] }),
      },
    };
    expect(problemsOf(raw)).toEqual([
      'expect.batch.csr.batch_pointers: must be [0,1,3] (from the row pointers), got [0,2,3]',
      "expect.start.csr.row_pointers[0]: each batch's row pointers start at 0, got 1",
      'expect.down.csr.row_pointers[2]: 0 is below the pointer before it (1)',
      'expect.count.csr: the row pointers count 3 entries; col_indices has 3, values 2',
      'expect.column.csr.col_indices[0]: 3 is not a column of 3 increasing within its row (batch 0, row 0)',
      'expect.order.csr.col_indices[2]: 0 is not a column of 3 increasing within its row (batch 1, row 0)',
      'expect.rank.csr.dense_shape: must be 2 or 3 whole numbers >= 0 (a matrix or a batch of them), got [6]',
      'expect.parts.csr.extra: unknown field (allowed: row_pointers, col_indices, values, dense_shape, batch_pointers)',
      'expect.parts.csr.row_pointers: must be a list, got "x"',
      "expect.parts.csr: the field 'dense_shape' is missing",
      'expect.value.csr.values[1]: "x" is not a float32 value (a number, or nan, inf, -inf)',
    ]);
  });

  it('takes any op name and an example name with spaces: only a spec holds its examples to more', () => {
    expect(problemsOf({ ...good, op: 'not_an_op', name: 'any name at all' })).toEqual([]);
  });
});

describe('validateCase: an example in an op spec', () => {
  const { op: _op, ...example } = good;

  it('accepts an example without op, or with its own op; the case file form needs op', () => {
    expect(problemsOf(example, toDense)).toEqual([]);
    expect(problemsOf(good, toDense)).toEqual([]);
    expect(problemsOf(example)).toEqual(["the field 'op' is missing"]);
  });

  it('reports another op, a name outside [A-Za-z0-9_.-], and arguments and outputs the op does not have', () => {
    const raw = {
      ...good,
      op: 'sparse_add',
      name: 'two entries',
      args: { sp_input: good.args.sp_input, default_value: 0, fill: 1, defualt_value: 0 },
      expect: { output: good.expect.output, result: good.expect.output },
    };
    expect(problemsOf(raw, toDense)).toEqual([
      'op: an example of sparse_tensor_to_dense names the op "sparse_add"',
      `name: an example's name is made of letters, digits, '_', '.' and '-', got "two entries"`,
      "args.fill: 'default_value' is given twice",
      "args.defualt_value: unknown argument 'defualt_value' (arguments: sp_input, default_value, axis, shape)",
      "expect.result: unknown output 'result' (outputs: output)",
    ]);
  });

  it('reports a required argument left out', () => {
    expect(problemsOf({ ...example, args: {} }, toDense)).toEqual([
      "args: the required argument 'sp_input' is missing",
    ]);
  });

  it('reports every value not of a form its type calls for, and a tensor without a known dtype', () => {
    const raw = {
      ...example,
      args: {
        sp_input: { dense: [[1]], dtype: 'int32' },
        default_value: { sparse: { indices: [], values: [], dense_shape: [] } },
        axis: 'all',
        shape: [2, 'x'],
      },
      expect: { output: sparse([], [], [2, 3]) },
    };
    expect(problemsOf(raw, toDense)).toEqual([
      "args.default_value: the field 'dtype' is missing (one of float32, float64, int32, int64, bool, string)",
      'args.sp_input: a SparseTensor is written {sparse: {indices, values, dense_shape}, dtype}',
      'args.default_value: a dense tensor is written {dense: NESTED, dtype} (with `shape` for a zero-sized dim)',
      'args.axis: expected null, an axis or a list of axes, got "all"',
      'args.shape: expected a list of whole numbers, got [2,"x"]',
      'expect.output: a dense tensor is written {dense: NESTED, dtype} (with `shape` for a zero-sized dim)',
    ]);
  });

  it('takes null for an argument whose default is null, whatever its type', () => {
    expect(problemsOf({ ...example, args: { ...example.args, shape: null } }, toDense)).toEqual([]);
  });

  it('lets an example that expects an error pass a wrong kind, but not an unknown argument', () => {
    const raw = {
      name: 'dense_refused',
      args: { sp_input: { dense: [1] }, axis: 'all', extra: 1 },
      expect_error: { kind: 'TypeError' },
    };
    expect(problemsOf(raw, toDense)).toEqual([
      "args.extra: unknown argument 'extra' (arguments: sp_input, default_value, axis, shape)",
    ]);
  });

  it('checks every type of value it knows', () => {
    const typed = (type: OpSignature['args'][number]['type']): OpSignature => ({
      op: 'o',
      args: [{ name: 'a', type }],
      outputs: [{ name: 'output', type: 'dense' }],
    });
    const problems = (type: OpSignature['args'][number]['type'], value: unknown) =>
      problemsOf({ name: 'n', args: { a: value }, expect: good.expect }, typed(type));
    const st = sparse([], [], [1]);
    const cases: [OpSignature['args'][number]['type'], unknown, unknown][] = [
      ['sparse_list', [st, st], st],
      ['sparse_or_sparse_list', [st], [st, 1]],
      ['sparse_or_sparse_list', st, 1],
      ['sparse_or_dense_list', [st, { dense: [['a']], dtype: 'string' }, [['b']]], [st, { tensor: 1 }]],
      ['sparse_or_dense_list', [], st],
      ['dense', [[1, 2]], { values: [1] }],
      ['scalar', 3, { value: 3 }],
      ['sparse_or_dense', { dense: 1, dtype: 'int32' }, { tensor: 1 }],
      ['sparse_or_dense', st, { tensor: 1 }],
      ['int', -2, 1.5],
      ['bool', false, 'true'],
      ['int_list', [1, '9007199254740993'], [1.5]],
      ['int_or_int_list', [1, 2], [1, 'x']],
      ['int_or_int_list', 3, '3'],
      ['axes', [0, 1], [0.5]],
      ['axes', null, '0'],
      ['sparse_or_null', null, { dense: 1, dtype: 'int32' }],
      ['sparse_or_null', st, 0],
      ['string', 'mean', 1],
      ['dtype', 'int64', 'float16'],
      ['csr', { csr: { row_pointers: [0], col_indices: [], values: [], dense_shape: [0, 1] }, dtype: 'float32' }, st],
    ];
    for (const [type, ok, bad] of cases) {
      expect(problems(type, ok), `${type}: ${JSON.stringify(ok)}`).toEqual([]);
      expect(problems(type, bad), `${type}: ${JSON.stringify(bad)}`).toEqual([
        expect.stringMatching(/^args\.a(\[1\])?: /),
      ]);
    }
  });
});
