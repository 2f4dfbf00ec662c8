import { describe, expect, it } from 'vitest';
import { editedSpecLoader } from './spec-folder.js';
import { specProblems } from './spec-problems.js';

// The spec fields that say an output's dtype and size from plain arguments: `dtype` arguments, `dtype_fallbacks`,
// the `dims` and `segments` shape rules and the `min` entries bound, each refused where it does not fit the op.

const load = editedSpecLoader();
const refused = (file: string, from: string, to: string) =>
  specProblems(() =>
    load(file, (y) => {
      expect(y).toContain(from);
      return y.replace(from, to);
    }),
  );

describe('dtype arguments and fallbacks', () => {
  it('a dtype argument binds a dtype variable, and defaults to one of its dtypes', () => {
    expect(load('sparse_eye.yaml', (y) => y)[0].args.find((a) => a.type === 'dtype')?.dtype).toBe('T');
    expect(refused('sparse_eye.yaml', '    dtype: T\n    default: float32', '    default: float32')).toMatch(
      /args\[2\]\.dtype: a dtype argument needs `dtype`: the dtype variable its value binds/,
    );
    expect(refused('sparse_eye.yaml', 'default: float32', 'default: string')).toMatch(
      /args\[2\]\.default: "string" is not one of T's dtypes/,
    );
  });

  it('a fallback is from a variable to another whose dtypes it allows', () => {
    expect(refused('sparse_eye.yaml', 'dtypes:\n', 'dtype_fallbacks: { T: U }\ndtypes:\n')).toMatch(
      /dtype_fallbacks\.T: needs two different dtype variables/,
    );
    expect(
      refused(
        'sparse_eye.yaml',
        'dtypes:\n  T: [float32, float64, int32, int64, bool]',
        'dtype_fallbacks: { U: T }\ndtypes:\n  T: [float32, float64, int32, int64, bool]\n  U: [float32]',
      ),
    ).toMatch(/dtype_fallbacks\.U: U does not allow float64, int32, int64, bool, which T may be/);
  });
});

describe('shape rules and entries bounds over plain arguments', () => {
  it('dims and min name int arguments', () => {
    expect(load('sparse_eye.yaml', (y) => y)[0].entries.output).toEqual([{ min: ['num_rows', 'num_columns'] }]);
    expect(refused('sparse_eye.yaml', 'dims: [num_rows, num_columns]', 'dims: [num_rows, dtype]')).toMatch(
      /outputs\[0\]\.shape\.dims\[1\]: 'dtype' is not an int argument/,
    );
    expect(refused('sparse_eye.yaml', 'dims: [num_rows, num_columns]', 'dims: [num_columns, num_rows]')).toMatch(
      /outputs\[0\]\.shape\.dims\[0\]: the first dim has no dim before it/,
    );
    expect(refused('sparse_eye.yaml', 'min: [num_rows, num_columns]', 'min: [num_rows, dtype]')).toMatch(
      /outputs\[0\]\.entries\[0\]\.min: 'dtype' is a dtype argument; min needs int/,
    );
  });

  it('a dense output has a shape the runtime computes, and the rules name arguments of their kinds', () => {
    expect(
      refused(
        'sparse_fill_empty_rows.yaml',
        'shape: { leading_dims: { input: sp_input, count: 1 } }',
        "shape: { computed: 'one flag per row' }",
      ),
    ).toMatch(/outputs\[1\]\.shape: a dense output needs a shape rule the runtime computes, not `computed`/);
    expect(
      refused('sparse_fill_empty_rows.yaml', '{ input: sp_input, count: 1 }', '{ input: default_value, count: 1 }'),
    ).toMatch(/outputs\[1\]\.shape\.leading_dims\.input: 'default_value' is not a tensor argument/);
    expect(
      refused('embedding_lookup_sparse.yaml', '{ ids: sp_ids, params: params }', '{ ids: params, params: params }'),
    ).toMatch(/outputs\[0\]\.shape\.rows_with_ids\.ids: 'params' is not a sparse argument/);
    expect(
      refused(
        'embedding_lookup_sparse.yaml',
        '    default: mean\n    none_means_default: true',
        '    none_means_default: true',
      ),
    ).toMatch(/args\[3\]\.none_means_default: only an argument with a default other than null reads null as it/);
  });

  it('segments names the data, the ids and num_segments', () => {
    expect(refused('sparse_segment_sum.yaml', 'num_segments: num_segments }', 'num_segments: segment_ids }')).toMatch(
      /outputs\[0\]\.shape\.segments\.num_segments: 'segment_ids' is not an int argument/,
    );
    expect(refused('sparse_segment_sum.yaml', '{ data: data,', '{ data: num_segments,')).toMatch(
      /outputs\[0\]\.shape\.segments\.data: 'num_segments' is not a dense argument/,
    );
  });
});
