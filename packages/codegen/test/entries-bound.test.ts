import { expect, it } from 'vitest';
import { editedSpecLoader } from './spec-folder.js';
import { specProblems } from './spec-problems.js';

const load = editedSpecLoader();

it('a hand-written op bounds the entries of each sparse output, from its arguments', () => {
  expect(load('sparse_fill_empty_rows.yaml', (y) => y)[0].entries.output).toEqual([
    { nnz: 'sp_input' },
    { dim: ['sp_input', 0] },
  ]);
  expect(
    specProblems(() => load('sparse_reorder.yaml', (y) => y.replace('    entries: [{ nnz: sp_input }]\n', ''))),
  ).toMatch(/outputs\[0\]\.entries: a sparse output needs `entries`/);
  expect(
    specProblems(() => load('sparse_reorder.yaml', (y) => y.replace('{ nnz: sp_input }', '{ nnz: reordered }'))),
  ).toMatch(/outputs\[0\]\.entries\[0\]\.nnz: unknown argument 'reordered'/);
});

it('an expression-family op derives the bound from its family', () => {
  expect(load('sparse_add.yaml', (y) => y)[0].entries.output).toEqual([{ nnz: 'a' }, { nnz: 'b' }]);
  expect(load('sparse_abs.yaml', (y) => y)[0].entries.output).toEqual([{ nnz: 'sp_input' }]);
});

it('a CSR product is bounded by its products, naming two csr arguments and bool flags', () => {
  const file = 'sparse_matrix_sparse_mat_mul.yaml';
  expect(load(file, (y) => y)[0].entries.output).toEqual([
    {
      products: {
        a: 'a',
        b: 'b',
        transpose_a: ['transpose_a', 'adjoint_a'],
        transpose_b: ['transpose_b', 'adjoint_b'],
      },
    },
  ]);
  expect(
    specProblems(() => load(file, (y) => y.replace('products: { a: a, b: b,', 'products: { a: a, b: transpose_b,'))),
  ).toMatch(/outputs\[0\]\.entries\[0\]\.products\.b: 'transpose_b' is not a csr argument/);
  expect(
    specProblems(() => load(file, (y) => y.replace('transpose_a: [transpose_a, adjoint_a]', 'transpose_a: [a]'))),
  ).toMatch(/outputs\[0\]\.entries\[0\]\.products\.transpose_a: 'a' is not a bool argument/);
  expect(
    specProblems(() =>
      load('sparse_matrix_transpose.yaml', (y) =>
        y.replace('shape: { matrix_transpose: input }', 'shape: { matrix_transpose: conjugate }'),
      ),
    ),
  ).toMatch(/outputs\[0\]\.shape\.matrix_transpose: 'conjugate' is not a csr argument/);
});

it('a feature cross bounds its entries by the crosses of its list of inputs, and nothing else does', () => {
  expect(load('sparse_cross.yaml', (y) => y)[0].entries.output).toEqual([{ cross: 'inputs' }]);
  expect(
    specProblems(() => load('sparse_concat.yaml', (y) => y.replace('[{ nnz: sp_inputs }]', '[{ cross: sp_inputs }]'))),
  ).toMatch(
    /outputs\[0\]\.entries\[0\]\.cross: 'sp_inputs' is a sparse_list argument; cross needs sparse_or_dense_list/,
  );
});
