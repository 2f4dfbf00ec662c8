// The products of two dense matrices sampled at a sparse matrix's stored indices (a matmul's gradient with respect
// to the stored values): out[i] = row r of X · row c of Y, (r, c) entry i's index, read (c, r) when `swap`.

@inline function sampledProducts<T>(
  idx: usize,
  nnz: i32,
  swap: bool,
  x: usize,
  y: usize,
  width: i32,
  out: usize,
): void {
  const size = <usize>sizeof<T>();
  const rowBytes = <usize>width * size;
  for (let i = 0; i < nnz; i++) {
    const r = load<i32>(idx + ((<usize>i) << 3));
    const c = load<i32>(idx + ((<usize>i) << 3), 4);
    const p = x + <usize>(swap ? c : r) * rowBytes;
    const q = y + <usize>(swap ? r : c) * rowBytes;
    let s: T = 0;
    for (let j: usize = 0; j < <usize>width; j++) s += load<T>(p + j * size) * load<T>(q + j * size);
    store<T>(out + <usize>i * size, s);
  }
}

export function sampled_products_float32(
  idx: usize,
  nnz: i32,
  swap: bool,
  x: usize,
  y: usize,
  width: i32,
  out: usize,
): void {
  sampledProducts<f32>(idx, nnz, swap, x, y, width, out);
}

export function sampled_products_float64(
  idx: usize,
  nnz: i32,
  swap: bool,
  x: usize,
  y: usize,
  width: i32,
  out: usize,
): void {
  sampledProducts<f64>(idx, nnz, swap, x, y, width, out);
}
