// The exports of the WebAssembly backend: concrete instantiations only (generic functions are not exported).
import { spmm, spmmCsr, spmmTiles, transpose } from './matmul';

export { spmm_runs } from './matmul';
export { lastErrorCode, lastErrorEntry, clearError } from './errors';
export * from './generated/families';
export * from './reorder';
export * from './from-dense';
export * from './softmax';
export * from './embedding';
export * from './segment-reduce';
export * from './bincount';
export * from './reshape';
export * from './expand-dims';
export * from './slice';
export * from './split';
export * from './retain';
export * from './bounding-box';
export * from './fill-empty-rows';
export * from './to-indicator';
export * from './merge-rows';
export * from './csr-matrix';
export { exp_f64 } from './fdlibm-exp';

export function spmm_csr_float32(
  indices: usize,
  swap: bool,
  nnz: i32,
  m: i32,
  vals: usize,
  rowBytes: usize,
  rowPtr: usize,
  colOff: usize,
  sorted: usize,
  fill: usize,
): usize {
  return spmmCsr<f32>(indices, swap, nnz, m, vals, rowBytes, rowPtr, colOff, sorted, fill);
}
export function spmm_float32(
  ptrs: usize,
  stride: usize,
  tiles: i32,
  colOff: usize,
  vals: usize,
  m: i32,
  b: usize,
  n: i32,
  out: usize,
): void {
  spmm<f32>(ptrs, stride, tiles, colOff, vals, m, b, n, out);
}
export function spmm_csr_float64(
  indices: usize,
  swap: bool,
  nnz: i32,
  m: i32,
  vals: usize,
  rowBytes: usize,
  rowPtr: usize,
  colOff: usize,
  sorted: usize,
  fill: usize,
): usize {
  return spmmCsr<f64>(indices, swap, nnz, m, vals, rowBytes, rowPtr, colOff, sorted, fill);
}
export function spmm_float64(
  ptrs: usize,
  stride: usize,
  tiles: i32,
  colOff: usize,
  vals: usize,
  m: i32,
  b: usize,
  n: i32,
  out: usize,
): void {
  spmm<f64>(ptrs, stride, tiles, colOff, vals, m, b, n, out);
}
export function spmm_csr_int32(
  indices: usize,
  swap: bool,
  nnz: i32,
  m: i32,
  vals: usize,
  rowBytes: usize,
  rowPtr: usize,
  colOff: usize,
  sorted: usize,
  fill: usize,
): usize {
  return spmmCsr<i32>(indices, swap, nnz, m, vals, rowBytes, rowPtr, colOff, sorted, fill);
}
export function spmm_int32(
  ptrs: usize,
  stride: usize,
  tiles: i32,
  colOff: usize,
  vals: usize,
  m: i32,
  b: usize,
  n: i32,
  out: usize,
): void {
  spmm<i32>(ptrs, stride, tiles, colOff, vals, m, b, n, out);
}
export function spmm_csr_int64(
  indices: usize,
  swap: bool,
  nnz: i32,
  m: i32,
  vals: usize,
  rowBytes: usize,
  rowPtr: usize,
  colOff: usize,
  sorted: usize,
  fill: usize,
): usize {
  return spmmCsr<i64>(indices, swap, nnz, m, vals, rowBytes, rowPtr, colOff, sorted, fill);
}
export function spmm_int64(
  ptrs: usize,
  stride: usize,
  tiles: i32,
  colOff: usize,
  vals: usize,
  m: i32,
  b: usize,
  n: i32,
  out: usize,
): void {
  spmm<i64>(ptrs, stride, tiles, colOff, vals, m, b, n, out);
}

export function spmm_tiles(rowPtr: usize, colOff: usize, m: i32, tileBytes: usize, tiles: i32, ptrs: usize): void {
  spmmTiles(rowPtr, colOff, m, tileBytes, tiles, ptrs);
}

export function transpose_4(src: usize, rows: i32, cols: i32, dst: usize): void {
  transpose<u32>(src, rows, cols, dst);
}
export function transpose_8(src: usize, rows: i32, cols: i32, dst: usize): void {
  transpose<u64>(src, rows, cols, dst);
}

export { csr_rows, flat_offsets, indices_to_i32, narrow_i64 } from './rows';
export { sampled_products_float32, sampled_products_float64 } from './sampled-products';
export * from './csr';
export { indices_valid } from './indices-valid';
