// The exports of the WebAssembly backend: concrete instantiations only (generic functions are not exported).
import { spmm, transpose } from './matmul';
import { scatter } from './scatter';

export { lastErrorCode, lastErrorEntry, clearError } from './errors';
export * from './generated/families';
export * from './ports-a';
export * from './ports-b';

export function spmm_float32(indices: usize, swap: bool, vals: usize, nnz: i32, b: usize, n: i32, out: usize): void {
  spmm<f32>(indices, swap, vals, nnz, b, n, out);
}
export function spmm_float64(indices: usize, swap: bool, vals: usize, nnz: i32, b: usize, n: i32, out: usize): void {
  spmm<f64>(indices, swap, vals, nnz, b, n, out);
}
export function spmm_int32(indices: usize, swap: bool, vals: usize, nnz: i32, b: usize, n: i32, out: usize): void {
  spmm<i32>(indices, swap, vals, nnz, b, n, out);
}
export function spmm_int64(indices: usize, swap: bool, vals: usize, nnz: i32, b: usize, n: i32, out: usize): void {
  spmm<i64>(indices, swap, vals, nnz, b, n, out);
}

export function transpose_4(src: usize, rows: i32, cols: i32, dst: usize): void {
  transpose<u32>(src, rows, cols, dst);
}
export function transpose_8(src: usize, rows: i32, cols: i32, dst: usize): void {
  transpose<u64>(src, rows, cols, dst);
}

export function scatter_4(indices: usize, rank: i32, nnz: i32, strides: usize, vals: usize, broadcast: bool, out: usize): void {
  scatter<u32>(indices, rank, nnz, strides, vals, broadcast, out);
}
export function scatter_8(indices: usize, rank: i32, nnz: i32, strides: usize, vals: usize, broadcast: bool, out: usize): void {
  scatter<u64>(indices, rank, nnz, strides, vals, broadcast, out);
}
export { reduceGroups, indices_to_i32 } from './rows';
