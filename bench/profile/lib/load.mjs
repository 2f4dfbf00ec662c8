// A data dir (lib/data.mjs) read back as our runtime's arguments: the same entries every peer reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tensor } from '@sparse/runtime';
import { toSparse } from '../../lib/data.mjs';

const typed = (Ctor, path) => {
  const b = readFileSync(path);
  return new Ctor(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};

/** {rows, cols, vals, shape} of the COO files in `dir` (an m×k matrix). */
function readCoo(dir, m, k) {
  return {
    rows: typed(Int32Array, join(dir, 'rows.bin')),
    cols: typed(Int32Array, join(dir, 'cols.bin')),
    vals: typed(Float32Array, join(dir, 'vals.bin')),
    shape: [m, k],
  };
}

/** The run() arguments of an op on a data dir: spmm {sp_a, b}, reorder {sp_input} (the shuffled entries). */
export function opArgs(op, meta) {
  const { dir, m, k, n } = meta;
  if (op === 'spmm')
    return {
      sp_a: toSparse(readCoo(dir, m, k)),
      b: tensor(typed(Float32Array, join(dir, 'b.bin')), 'float32', [k, n]),
    };
  if (op === 'reorder') return { sp_input: toSparse(readCoo(join(dir, 'shuffled'), m, k)) };
  throw new Error(`unknown op ${op}`);
}

export const OP_ID = { spmm: 'sparse_tensor_dense_matmul', reorder: 'sparse_reorder' };

/** The spmm run() arguments as a kernel receives them after the runtime's checks: plain data, flags filled in. */
export function kernelArgs({ sp_a, b }) {
  return { sp_a: sp_a.toData(), b: b.toData(), adjoint_a: false, adjoint_b: false };
}
