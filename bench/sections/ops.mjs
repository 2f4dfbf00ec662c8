// Other ops on ~10^6 stored entries (quick: 10^5) of a float32 matrix: each of our backends against scipy/numpy
// doing the same work, and against TensorFlow.js where it has the op. Inputs are built once, outside the clock.
import { join } from 'node:path';
import { tensor } from '@sparse/runtime';
import { indexMatrix, randomCoo, randomDense, shuffled, toSparse, writeArray, writeCoo } from '../lib/data.mjs';
import { measure, disposeAll } from '../lib/measure.mjs';
import { pyBudget } from '../lib/peers.mjs';
import { consume, useTfjs } from '../lib/tfjs.mjs';

/**
 * The ops also timed with each result disposed as soon as it is made (`dispose()`, as TF.js code disposes what it
 * is done with, and as Python frees a result the moment its last reference goes): the backends may then reuse its
 * memory for the next result of its size, where a dropped result's memory comes back only when the garbage
 * collector gets to it.
 */
export const DISPOSED_OPS = ['reduce_sum', 'to_dense', 'transpose', 'add', 'concat', 'reorder'];

export const OPS = [
  'reorder',
  'to_dense',
  'add',
  'reduce_sum',
  'concat',
  'transpose',
  'reshape',
  'fill_empty_rows',
  'segment_sum',
];

/** What each op does here, for the tables (the same words for every peer). */
const OP_WORK = {
  reorder: 'sparse_reorder of the entries shuffled',
  to_dense: 'sparse_tensor_to_dense',
  add: 'sparse_add of two such matrices',
  reduce_sum: 'sparse_reduce_sum, axis 1',
  concat: 'sparse_concat of two such matrices, axis 1',
  transpose: 'sparse_transpose (2-D, canonical output)',
  reshape: 'sparse_reshape [R, C] → [R/2, 2C]',
  fill_empty_rows: 'sparse_fill_empty_rows, the entries spread over 2R rows (half empty)',
  segment_sum: 'sparse_segment_sum: data [C, 8], indices = column of each entry, segment_ids = its row',
};

export async function otherOps(ctx) {
  const { config, ours, tf, tfBackends, peers } = ctx;
  const { rows, cols, nnz, segmentWidth } = config.ops;
  const density = nnz / (rows * cols);
  const c1 = randomCoo(rows, cols, density, 21);
  const c2 = randomCoo(rows, cols, density, 22);
  const cs = shuffled(c1, 5);
  // fill_empty_rows: the same entries on the even rows of a [2R, C] matrix, so half the rows are empty.
  const cf = { rows: c1.rows.map((r) => 2 * r), cols: c1.cols, vals: c1.vals, shape: [2 * rows, cols] };
  const segData = randomDense(cols, segmentWidth, 23);
  const newShape = [rows / 2, cols * 2];

  const dir = join(ctx.work, 'ops');
  writeCoo(dir, c1);
  writeCoo(dir, c2, '2');
  writeCoo(join(dir, 'shuffled'), cs);
  writeCoo(join(dir, 'fill'), cf);
  writeArray(dir, 'data.bin', segData);
  process.stderr.write(`ops: ${c1.rows.length} stored entries of ${rows}×${cols}\n`);

  const a = toSparse(c1);
  const b = toSparse(c2);
  const s = toSparse(cs);
  const f = toSparse(cf);
  const segArgs = {
    data: tensor(segData, 'float32', [cols, segmentWidth]),
    indices: tensor(Int32Array.from(c1.cols), 'int32', [c1.cols.length]),
    segment_ids: tensor(Int32Array.from(c1.rows), 'int32', [c1.rows.length]),
  };
  const calls = {
    reorder: ['sparse_reorder', { sp_input: s }],
    to_dense: ['sparse_tensor_to_dense', { sp_input: a }],
    add: ['sparse_add', { a, b }],
    reduce_sum: ['sparse_reduce_sum', { sp_input: a, axis: 1 }],
    concat: ['sparse_concat', { axis: 1, sp_inputs: [a, b] }],
    transpose: ['sparse_transpose', { sp_input: a }],
    reshape: ['sparse_reshape', { sp_input: a, shape: newShape }],
    fill_empty_rows: ['sparse_fill_empty_rows', { sp_input: f, default_value: 0 }],
    segment_sum: ['sparse_segment_sum', segArgs],
  };

  const results = {};
  const info = {};
  for (const op of OPS) {
    results[op] = {};
    info[op] = { work: OP_WORK[op], delegated: {}, out_size: {} };
  }
  // Ours: one run, all ops and backends; the first, untimed call also says whether the backend delegated it.
  const tasks = [];
  for (const { name, rt } of ours) {
    for (const op of OPS) {
      const [id, args] = calls[op];
      try {
        const { outputs, delegated } = rt.runWithReport(id, args);
        if (delegated) info[op].delegated[name] = delegated;
        info[op].out_size[name] = sizeOf(Object.values(outputs)[0]);
      } catch (e) {
        results[op][name] = { error: String(e.message).split('\n')[0] };
        continue;
      }
      tasks.push([`${op}/${name}`, () => rt.run(id, args)]);
      if (DISPOSED_OPS.includes(op)) tasks.push([`${op}/${name} disposed`, () => disposeAll(rt.run(id, args))]);
    }
  }
  for (const [key, r] of Object.entries(await measure(tasks, config.budgets.ops))) {
    const [op, name] = key.split('/');
    results[op][name] = r;
  }
  // What each backend keeps prepared after all those calls (the wasm backend: the tensors' indices and values).
  const resident = Object.fromEntries(ours.map(({ name, rt }) => [name, rt.memory?.().residentBytes ?? 0]));

  // TensorFlow.js, for the ops it has.
  if (tf) {
    for (const tb of tfBackends) {
      await useTfjs(tf, tb);
      const idx = tf.tensor2d(indexMatrix(c1), [c1.rows.length, 2], 'int32');
      const vals = tf.tensor1d(c1.vals, 'float32');
      const fIdx = tf.tensor2d(indexMatrix(cf), [cf.rows.length, 2], 'int32');
      const zero = tf.scalar(0, 'float32');
      const inShape = tf.tensor1d([rows, cols], 'int32');
      const outShape = tf.tensor1d(newShape, 'int32');
      const fShape = tf.tensor1d(cf.shape, 'int32');
      const data = tf.tensor2d(segData, [cols, segmentWidth], 'float32');
      const segIdx = tf.tensor1d(c1.cols, 'int32');
      const segIds = tf.tensor1d(c1.rows, 'int32');
      const tfCalls = {
        to_dense: ['tf.sparseToDense', () => tf.sparseToDense(idx, vals, [rows, cols], zero)],
        reshape: ['tf.sparse.sparseReshape', () => tf.sparse.sparseReshape(idx, inShape, outShape)],
        fill_empty_rows: [
          'tf.sparse.sparseFillEmptyRows',
          () => tf.sparse.sparseFillEmptyRows(fIdx, vals, fShape, zero),
        ],
        segment_sum: ['tf.sparse.sparseSegmentSum', () => tf.sparse.sparseSegmentSum(data, segIdx, segIds)],
      };
      const tfTasks = [];
      for (const [op, [api, fn]] of Object.entries(tfCalls)) {
        info[op].tfjs = api;
        try {
          const out = fn();
          info[op].out_size[`tfjs-${tb}`] = tfSize(out);
          consume(out);
        } catch (e) {
          results[op][`tfjs-${tb}`] = { error: String(e.message).split('\n')[0] };
          continue;
        }
        tfTasks.push([op, () => consume(fn())]);
      }
      for (const [op, r] of Object.entries(await measure(tfTasks, config.budgets.ops))) results[op][`tfjs-${tb}`] = r;
      for (const t of [idx, vals, fIdx, zero, inShape, outShape, fShape, data, segIdx, segIds]) t.dispose();
    }
  }

  // scipy / numpy.
  const base = { shape: [rows, cols], ...pyBudget(config.budgets.ops) };
  const py = peers.python(
    OPS.map((op) => ({
      name: op,
      kind: op,
      ...base,
      dir: op === 'reorder' ? join(dir, 'shuffled') : op === 'fill_empty_rows' ? join(dir, 'fill') : dir,
      ...(op === 'fill_empty_rows' ? { shape: cf.shape } : {}),
      ...(op === 'reshape' ? { new_shape: newShape } : {}),
      ...(op === 'segment_sum' ? { data_shape: [cols, segmentWidth] } : {}),
    })),
  );
  for (const op of OPS) {
    const r = py?.tasks[`${op}/scipy`];
    if (!r) continue;
    const { out_size, impl, lib, ...rest } = r;
    results[op].scipy = rest;
    info[op].peer = lib ? `${lib}: ${impl}` : impl;
    if (out_size !== undefined) info[op].out_size.scipy = out_size;
  }
  return {
    shape: {
      rows,
      cols,
      nnz: c1.rows.length,
      fill_shape: cf.shape,
      reshape_to: newShape,
      segment_data: [cols, segmentWidth],
    },
    results,
    info,
    resident_bytes: resident,
  };
}

/** Disposes every tensor an op returned (its outputs, a list of them for split). */
function sizeOf(out) {
  if (out && typeof out.nnz === 'number') return out.nnz;
  if (out && typeof out.size === 'number') return out.size;
  return undefined;
}

function tfSize(out) {
  const first = Array.isArray(out) ? out[0] : typeof out?.dataSync === 'function' ? out : Object.values(out)[0];
  // sparse results: count entries (rows of the index matrix); dense ones: elements.
  return first.rank === 2 && first.dtype === 'int32' ? first.shape[0] : first.size;
}
