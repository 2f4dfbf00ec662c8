#!/usr/bin/env node
// Scaffolds specs/<op>.yaml with every field and a worked example, for a contributor to fill in.
//   npm run new-op -- sparse_foo --family map [--specs DIR]
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';

const FAMILIES = ['map', 'cwise', 'merge', 'reduce', 'structural', 'matmul'];
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { family: { type: 'string', default: 'map' }, specs: { type: 'string', default: 'specs' } },
});
const [op] = positionals;
if (!op || !/^[a-z][a-z0-9_]*$/.test(op) || !FAMILIES.includes(values.family)) {
  console.error(`usage: npm run new-op -- <op_id in snake_case> --family ${FAMILIES.join('|')}`);
  process.exit(2);
}
const file = join(values.specs, `${op}.yaml`);
if (existsSync(file)) {
  console.error(`${file} exists already`);
  process.exit(1);
}

const SP = (indices, values, shape, dtype = 'float32') =>
  `{sparse: {indices: ${JSON.stringify(indices)}, values: ${JSON.stringify(values)}, dense_shape: ${JSON.stringify(shape)}}, dtype: ${dtype}}`;
const arg = (name, type, doc, extra = '') => `  - name: ${name}\n    type: ${type}\n${extra}    doc: ${doc}\n`;
const T = '    dtype: T\n';

// Per family: the arguments, the output, the kernel, and one example that holds for the scaffold's kernel.
const PARTS = {
  map: {
    args: arg('sp_input', 'sparse', 'The SparseTensor whose values are mapped.', T),
    output: 'sparse',
    shape: '{like: sp_input}',
    kernel: 'family: map\n  expr: abs(x)            # over x, a stored value; must keep 0 at 0',
    example: `    args:\n      sp_input: ${SP(
      [
        [0, 1],
        [1, 0],
      ],
      [-1.5, 2.0],
      [2, 2],
    )}\n    expect:\n      output: ${SP(
      [
        [0, 1],
        [1, 0],
      ],
      [1.5, 2.0],
      [2, 2],
    )}`,
    gradient: `    args:\n      sp_input: ${SP(
      [
        [0, 1],
        [1, 0],
      ],
      [-1.5, 2.0],
      [2, 2],
    )}\n      grad: {dense: [1.0, 1.0], dtype: float32}\n    expect:\n      sp_input_grad: {dense: [-1.0, 1.0], dtype: float32}`,
  },
  cwise: {
    args:
      arg('sp_input', 'sparse', 'The sparse operand.', T) +
      arg('dense', 'dense', 'The dense operand, broadcast to the dense shape of `sp_input`.', T),
    output: 'sparse',
    shape: '{like: sp_input}',
    checks: 'checks:\n  - rule: broadcast_to_sparse\n    dense: dense\n    sparse: sp_input\n',
    kernel: 'family: cwise\n  expr: a * b             # over a (stored value) and b (dense value there)',
    example: `    args:\n      sp_input: ${SP(
      [
        [0, 1],
        [1, 0],
      ],
      [1.5, 2.0],
      [2, 2],
    )}\n      dense: {dense: [10.0, 20.0], dtype: float32}\n    expect:\n      output: ${SP(
      [
        [0, 1],
        [1, 0],
      ],
      [30.0, 20.0],
      [2, 2],
    )}`,
    gradient: `    args:\n      sp_input: ${SP(
      [
        [0, 1],
        [1, 0],
      ],
      [1.5, 2.0],
      [2, 2],
    )}\n      dense: {dense: [10.0, 20.0], dtype: float32}\n      grad: {dense: [1.0, 1.0], dtype: float32}\n    expect:\n      sp_input_grad: {dense: [20.0, 10.0], dtype: float32}\n      dense_grad: {dense: [2.0, 1.5], dtype: float32}`,
  },
  merge: {
    args:
      arg('sp_a', 'sparse', 'A SparseTensor in canonical order.', T) +
      arg('sp_b', 'sparse', 'A SparseTensor of the same dense shape, in canonical order.', T),
    output: 'sparse',
    shape: '{like: sp_a}',
    checks:
      'checks:\n  - rule: same_shape\n    args: [sp_a, sp_b]\n  - rule: indices_ordered\n    arg: sp_a\n  - rule: indices_ordered\n    arg: sp_b\n',
    kernel:
      'family: merge\n  join: union             # or intersection\n  expr: a + b             # where both hold an entry; where one does, the other reads 0',
    example: `    args:\n      sp_a: ${SP([[0], [2]], [1.0, 2.0], [4])}\n      sp_b: ${SP([[2], [3]], [0.5, 4.0], [4])}\n    expect:\n      output: ${SP([[0], [2], [3]], [1.0, 2.5, 4.0], [4])}`,
    gradient: `    args:\n      sp_a: ${SP([[0], [2]], [1.0, 2.0], [4])}\n      sp_b: ${SP([[2], [3]], [0.5, 4.0], [4])}\n      grad: {dense: [1.0, 2.0, 3.0], dtype: float32}\n    expect:\n      sp_a_grad: {dense: [1.0, 2.0], dtype: float32}\n      sp_b_grad: {dense: [2.0, 3.0], dtype: float32}`,
  },
  reduce: {
    args:
      arg('sp_input', 'sparse', 'The SparseTensor to reduce.', T) +
      arg('axis', 'axes', 'The axes to reduce; null reduces all of them.', '    default: null\n') +
      arg('keepdims', 'bool', 'Keep each reduced axis with size 1.', '    default: false\n'),
    output: 'dense',
    shape: '{reduce: {input: sp_input, axes: axis, keepdims: keepdims}}',
    checks: 'checks:\n  - rule: axes_in_range\n    axes: axis\n    of: sp_input\n',
    kernel:
      "family: reduce\n  init: '0'\n  combine: acc + x          # over acc and x, a stored value\n  implicit_zeros: ignore",
    example: `    args:\n      sp_input: ${SP(
      [
        [0, 0],
        [0, 2],
        [1, 1],
      ],
      [1.0, 2.0, 3.0],
      [2, 3],
    )}\n      axis: 1\n    expect:\n      output: {dense: [3.0, 3.0], dtype: float32}`,
    gradient: `    args:\n      sp_input: ${SP(
      [
        [0, 0],
        [0, 2],
        [1, 1],
      ],
      [1.0, 2.0, 3.0],
      [2, 3],
    )}\n      axis: 1\n      grad: {dense: [10.0, 20.0], dtype: float32}\n    expect:\n      sp_input_grad: {dense: [10.0, 10.0, 20.0], dtype: float32}`,
  },
};
// A hand-written op starts on the JS kernels on wasm (which otherwise needs a kernel file of its own; the GPU
// backends run an op without one on the JS kernels already); drop the dispatch once wasm has a kernel.
const HAND_WRITTEN_DISPATCH = '\n  dispatch:               # until wasm has a kernel file of its own\n    wasm: js';
PARTS.structural = {
  ...PARTS.map,
  gradient: undefined,
  entries: '[{nnz: sp_input}]',
  kernel: `family: structural      # hand-written: packages/kernels-js/src/kernels/${op}.ts${HAND_WRITTEN_DISPATCH}`,
};
PARTS.matmul = {
  ...PARTS.map,
  gradient: undefined,
  entries: '[{nnz: sp_input}]',
  kernel: `family: matmul          # hand-written: packages/kernels-js/src/kernels/${op}.ts${HAND_WRITTEN_DISPATCH}`,
};

const p = PARTS[values.family];
const spec = `name: ${op}
summary: TODO one line, in our own words, of what ${op} computes.
doc: |
  TODO the semantics in our own words: what the op computes, the order of its
  output, how it treats implicit zeros, and the errors it raises. Follow
  TensorFlow's documented behaviour; name the TensorFlow op it matches.
tensorflow:
  op: TODO the TensorFlow op or function it matches (SparseReorder, tf.sparse.to_dense, ...)
  # Where TensorFlow registers its gradient (sparse_grad.py, math_grad.py, ...). Where it registers none, drop this
  # line and say TensorFlow's reason instead, as a top-level field: not_differentiable: <its reason>
  gradient: TODO sparse_grad.py
dtypes:
  T: [float32, float64, int32, int64]
args:
${p.args}outputs:
  - name: output
    type: ${p.output}
    dtype: T
    shape: ${p.shape}
${p.entries ? `    entries: ${p.entries}          # at most this many stored entries: the byte budget reads it\n` : ''}    doc: TODO what the output holds.
${p.checks ?? ''}kernel:
  ${p.kernel}
${
  p.gradient
    ? `gradient:
  # The gradient op (${op}_grad) is derived from the expressions; its examples: the upstream gradient \`grad\` (of
  # each stored output value, or of the dense output) and the gradient of each operand (of its stored values).
  examples:
    - name: first_gradient
${p.gradient.replace(/^/gm, '  ')}
`
    : ''
}examples:
  # Every worked example of the TensorFlow docs for this op (doc: the TensorFlow document it comes from), then
  # edge cases: empty tensors, rank 1 and rank >= 3, each dtype, and every error (expect_error: {kind, match}).
  # The case format: docs/cases.md.
  - name: first_example
${p.example}
`;
// Written as the formatter would, so that the new spec passes `npm run lint` as it is.
writeFileSync(file, await format(spec, { ...(await resolveConfig(file)), parser: 'yaml' }));
console.log(`wrote ${file}: fill in the TODOs and the examples, then npm test`);
if (values.family === 'structural' || values.family === 'matmul') {
  console.log(
    `a ${values.family} kernel is hand-written: add packages/kernels-js/src/kernels/${op}.ts exporting the kernel; ` +
      `for wasm, add packages/kernels-as/src/kernels/${op}.ts and drop the dispatch; for gpu or webgpu, add ` +
      `packages/kernels-gpu/src/kernels/${op}.ts or packages/kernels-webgpu/src/kernels/${op}.ts`,
  );
}
