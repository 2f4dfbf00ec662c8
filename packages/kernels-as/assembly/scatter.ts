// The scatter of sparse_tensor_to_dense and sparse_to_dense: out is prefilled with the default value by the caller.

/**
 * Writes each value to its flat offset: `indices` are i32 [nnz × rank] row-major, `strides` the i32 row-major
 * strides of the dense shape (every offset fits i32: the runtime refuses larger dense outputs). With `broadcast`,
 * vals holds one value for every index. Later entries win on a repeated index, as in the JS backend.
 */
@inline export function scatter<T>(indices: usize, rank: i32, nnz: i32, strides: usize, vals: usize, broadcast: bool, out: usize): void {
  const size = <usize>sizeof<T>();
  const one = load<T>(vals);
  for (let i = 0; i < nnz; i++) {
    let off: usize = 0;
    const row = indices + ((<usize>i * <usize>rank) << 2);
    for (let d = 0; d < rank; d++) off += <usize>load<i32>(row + (<usize>d << 2)) * <usize>load<i32>(strides + (<usize>d << 2));
    store<T>(out + off * size, broadcast ? one : load<T>(vals + <usize>i * size));
  }
}
